package calltest

import "math"

// The matcher calltest used until issue #30: the Hungarian algorithm on
// w padded to a square, cols³ time for one expectation against cols calls.
// It stays as the oracle TestMatchingAgreesWithSquare compares the
// rectangular one with.

// oldMaxWeightMatching returns, for each row of w, the column assigned to it
// by a maximum-weight matching (Hungarian algorithm), or -1. Weights are
// non-negative; a zero weight means no edge.
func oldMaxWeightMatching(w [][]int64) []int {
	rows, cols := len(w), len(w[0])
	n := max(rows, cols)
	var top int64
	for _, row := range w {
		for _, x := range row {
			top = max(top, x)
		}
	}
	cost := func(i, j int) int64 { // minimise top - weight on a square matrix
		if i < rows && j < cols {
			return top - w[i][j]
		}
		return top
	}
	const inf = int64(math.MaxInt64 / 4)
	u := make([]int64, n+1)
	v := make([]int64, n+1)
	p := make([]int, n+1) // p[j]: row matched to column j (1-based), 0 if none
	way := make([]int, n+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		minv := make([]int64, n+1)
		used := make([]bool, n+1)
		for j := range minv {
			minv[j] = inf
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], inf, 0
			for j := 1; j <= n; j++ {
				if used[j] {
					continue
				}
				if cur := cost(i0-1, j-1) - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= n; j++ {
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
	out := make([]int, rows)
	for i := range out {
		out[i] = -1
	}
	for j := 1; j <= n; j++ {
		if i := p[j] - 1; i >= 0 && i < rows && j-1 < cols {
			out[i] = j - 1
		}
	}
	return out
}
