package calltest

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// edgesOnly drops the columns a matcher gave a row on a non-edge (weight
// 0): they are not matches.
func edgesOnly(w [][]int64, m []int) []int {
	m = slices.Clone(m)
	for r, j := range m {
		if j >= 0 && w[r][j] == 0 {
			m[r] = -1
		}
	}
	return m
}

// randomWeights is a rows × cols matrix: with shaped set, built as
// assignment builds them (non-edge, Unknown match or passing match, with
// the call-index preference); otherwise small raw weights, full of ties.
func randomWeights(rng *rand.Rand, rows, cols int, shaped bool) [][]int64 {
	c, m := int64(cols), int64(rows)
	passBonus := m*c + 1
	matchValue := (m + 1) * (passBonus + 1)
	vals := 2 + rng.IntN(4)
	w := make([][]int64, rows)
	for r := range w {
		w[r] = make([]int64, cols)
		for j := range w[r] {
			if !shaped {
				w[r][j] = int64(rng.IntN(vals))
				continue
			}
			switch rng.IntN(3) {
			case 1:
				w[r][j] = matchValue + c - int64(j)
			case 2:
				w[r][j] = matchValue + c - int64(j) + passBonus
			}
		}
	}
	return w
}

// bestTotal is the weight of a maximum-weight matching, by brute force.
func bestTotal(w [][]int64) int64 {
	used := make([]bool, len(w[0]))
	var rec func(r int) int64
	rec = func(r int) int64 {
		if r == len(w) {
			return 0
		}
		best := rec(r + 1) // row r unmatched
		for j, x := range w[r] {
			if x > 0 && !used[j] {
				used[j] = true
				best = max(best, x+rec(r+1))
				used[j] = false
			}
		}
		return best
	}
	return rec(0)
}

// The rectangular matcher picks exactly the matching the square one
// (kept in matching_oracle_test.go) picked, ties included, on random
// small matrices of every shape; and it is a maximum-weight matching.
func TestMatchingAgreesWithSquare(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 3))
	for iter := range 50000 {
		rows, cols := 1+rng.IntN(6), 1+rng.IntN(9)
		shaped := iter%2 == 0
		w := randomWeights(rng, rows, cols, shaped)
		got := edgesOnly(w, maxWeightMatching(w))
		want := edgesOnly(w, oldMaxWeightMatching(w))
		if !slices.Equal(got, want) {
			t.Fatalf("%d×%d (shaped %v) %v: got %v, the square matcher %v", rows, cols, shaped, w, got, want)
		}
		if iter%20 == 0 {
			var total int64
			seen := map[int]bool{}
			for r, j := range got {
				if j >= 0 {
					if seen[j] {
						t.Fatalf("%v: column %d matched twice in %v", w, j, got)
					}
					seen[j] = true
					total += w[r][j]
				}
			}
			if best := bestTotal(w); total != best {
				t.Fatalf("%v: %v weighs %d, the best %d", w, got, total, best)
			}
		}
	}
}

func TestMatchingEdgeCases(t *testing.T) {
	tests := []struct {
		w    [][]int64
		want []int
	}{
		{[][]int64{{0, 0, 0}}, []int{-1}},
		{[][]int64{{0}, {0}}, []int{-1, -1}},
		{[][]int64{{5}, {5}}, []int{0, -1}},
		{[][]int64{{1, 3, 2}}, []int{1}},
		{[][]int64{{3, 0}, {4, 1}}, []int{0, 1}},
		{[][]int64{{1}, {2}, {3}}, []int{-1, -1, 0}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.w), func(t *testing.T) {
			if got := edgesOnly(tt.w, maxWeightMatching(tt.w)); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// Matching one expectation against many calls takes memory linear in the
// calls: the square padding took calls² (and calls³ time), which made a
// looping agent's step impractical to check.
func TestMatchingIsLinearInCalls(t *testing.T) {
	for _, rows := range []int{1, 3} {
		const cols = 1000
		w := make([][]int64, rows)
		for r := range w {
			w[r] = make([]int64, cols)
			for j := range w[r] {
				w[r][j] = int64(1 + (r+j)%3)
			}
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		maxWeightMatching(w)
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
			t.Errorf("%d × %d: matching allocated %d bytes, want O(calls)", rows, cols, n)
		}
	}
}
