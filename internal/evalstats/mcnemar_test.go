package evalstats

import (
	"math"
	"testing"
)

func TestMcNemarExact(t *testing.T) {
	tests := []struct {
		b, c int
		want float64
	}{
		{1, 9, 0.021484375}, // 2·(1+10)/1024
		{9, 1, 0.021484375},
		{2, 10, 0.03857421875}, // 2·(1+12+66)/4096
		{0, 5, 0.0625},         // 2/32
		{0, 1, 1},
		{0, 0, 1},
		{5, 5, 1},
		{3, 4, 1}, // 2·64/128
		{50000, 50000, 1},
		// References computed exactly with Python's integers.
		{950, 1050, 0.026824146240280695},
		{480, 521, 0.20610731083295322},
		{49000, 51000, 2.588716038346898e-10},
	}
	for _, tt := range tests {
		// Past 1000 pairs math.Lgamma's values near 1e6 carry an absolute
		// error of about 1e-10, which becomes the relative error of p.
		got := McNemarExact(tt.b, tt.c)
		if math.Abs(got-tt.want) > 1e-9*tt.want {
			t.Errorf("McNemarExact(%d, %d) = %.17g, want %.17g", tt.b, tt.c, got, tt.want)
		}
	}
	if got := McNemarExact(1, 9); got != 0.021484375 {
		t.Errorf("McNemarExact(1, 9) = %.17g, want 0.021484375 exactly", got)
	}
}

// The direct sum and the log-space one agree where both work.
func TestMcNemarPathsAgree(t *testing.T) {
	for _, n := range []int{1, 2, 10, 37, 100, 999, 1000} {
		for _, m := range []int{0, 1, n / 10, n / 3, n / 2} {
			d, l := mcnemarDirect(n, m), mcnemarLog(n, m)
			if math.Abs(d-l) > 1e-11*d {
				t.Errorf("n=%d m=%d: direct %.17g, log %.17g", n, m, d, l)
			}
		}
	}
}

func TestMcNemarExactOddInput(t *testing.T) {
	for _, bc := range [][2]int{{-1, 3}, {3, -1}, {-2, -2}, {math.MaxInt, 1}, {math.MaxInt/2 + 1, math.MaxInt/2 + 1}} {
		if got := McNemarExact(bc[0], bc[1]); !math.IsNaN(got) {
			t.Errorf("McNemarExact(%d, %d) = %v, want NaN", bc[0], bc[1], got)
		}
	}
	// Lopsided huge counts underflow to 0 rather than NaN.
	if got := McNemarExact(0, 200000); got != 0 || math.IsNaN(got) {
		t.Errorf("McNemarExact(0, 200000) = %v, want 0", got)
	}
}
