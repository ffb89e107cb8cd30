package calltest

import "math"

// maxWeightMatching returns, for each row of w, the column assigned to it
// by a maximum-weight matching, or -1. Weights are non-negative; a zero
// weight means no edge. Every row of w has the same length.
//
// It is the Hungarian algorithm with potentials (shortest augmenting
// paths, as in Jonker-Volgenant) on the rectangular matrix: with no more
// rows (expectations) than columns (calls), O(rows² × cols) time and
// O(cols) space besides w, where the square padding it replaced cost
// cols³. With more rows than columns, the columns are padded with
// non-edges up to a square, O(rows³): bounded by the test's size, never by
// the agent's. The matching chosen among equally heavy ones is the one the
// square version chose (the rows are augmented in order, the lowest column
// index winning a tie); matching_test.go checks the two agree.
func maxWeightMatching(w [][]int64) []int {
	rows := len(w)
	out := make([]int, rows)
	for i := range out {
		out[i] = -1
	}
	if rows == 0 || len(w[0]) == 0 {
		return out
	}
	cols := len(w[0])
	weight := func(i, j int) int64 {
		if j < cols {
			return w[i][j]
		}
		return 0
	}
	for j, i := range assignRows(rows, max(rows, cols), weight) {
		if i >= 0 && j < cols {
			out[i] = j
		}
	}
	return out
}

// assignRows assigns each of rows rows a distinct one of cols columns
// (rows <= cols), maximising the total weight, where weight(i, j) >= 0 and
// 0 means no edge; it returns the row assigned to each column, or -1.
// Minimising top - weight over full row assignments is the same as
// maximising the weight of a matching, since a row on a non-edge costs
// as much as a row left out.
func assignRows(rows, cols int, weight func(i, j int) int64) []int {
	var top int64
	for i := range rows {
		for j := range cols {
			top = max(top, weight(i, j))
		}
	}
	const inf = int64(math.MaxInt64 / 4)
	// 1-based: row and column 0 are the virtual start of each search.
	u := make([]int64, rows+1)
	v := make([]int64, cols+1)
	p := make([]int, cols+1) // p[j]: the row holding column j, 0 if none
	way := make([]int, cols+1)
	minv := make([]int64, cols+1)
	used := make([]bool, cols+1)
	for i := 1; i <= rows; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j], used[j] = inf, false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], inf, 0
			for j := 1; j <= cols; j++ {
				if used[j] {
					continue
				}
				if cur := top - weight(i0-1, j-1) - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= cols; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	out := make([]int, cols)
	for j := 1; j <= cols; j++ {
		out[j-1] = p[j] - 1
	}
	return out
}
