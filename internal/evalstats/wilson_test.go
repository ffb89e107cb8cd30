package evalstats

import (
	"math"
	"testing"
)

// The references come from the closed form with z = 1.959963984540054
// (and 2.5758293035489 at 99%), evaluated in Python; 0/n has upper bound
// z²/(n+z²) and n/n lower bound n/(n+z²).
func TestWilson(t *testing.T) {
	tests := []struct {
		c, n   int
		conf   float64
		lo, hi float64
	}{
		{8, 10, 0.95, 0.49016247153664183, 0.9433178485456247},
		{2, 10, 0.95, 1 - 0.9433178485456247, 1 - 0.49016247153664183},
		{0, 10, 0.95, 0, 0.27753279986288915},
		{10, 10, 0.95, 0.7224672001371109, 1},
		{5, 10, 0.95, 0.23659309051256405, 0.763406909487436},
		{0, 1, 0.95, 0, 0.7934506856227626},
		{0, 0, 0.95, 0, 1},
		{50, 100, 0.99, 0.37527962504483986, 0.6247203749551602},
	}
	for _, tt := range tests {
		lo, hi := Wilson(tt.c, tt.n, tt.conf)
		if math.Abs(lo-tt.lo) > 1e-12 || math.Abs(hi-tt.hi) > 1e-12 {
			t.Errorf("Wilson(%d, %d, %v) = (%.15f, %.15f), want (%.15f, %.15f)", tt.c, tt.n, tt.conf, lo, hi, tt.lo, tt.hi)
		}
	}
	// The check, to four places.
	lo, hi := Wilson(8, 10, 0.95)
	if math.Abs(lo-0.4902) > 1e-4 || math.Abs(hi-0.9433) > 1e-4 {
		t.Errorf("Wilson(8, 10, 0.95) = (%.4f, %.4f), want (0.4902, 0.9433)", lo, hi)
	}
}

func TestWilsonOddInput(t *testing.T) {
	tests := []struct {
		c, n int
		conf float64
	}{
		{-1, 10, 0.95},
		{11, 10, 0.95},
		{0, -1, 0.95},
		{5, 10, 0},
		{5, 10, 1},
		{5, 10, -0.5},
		{5, 10, math.NaN()},
	}
	for _, tt := range tests {
		lo, hi := Wilson(tt.c, tt.n, tt.conf)
		if !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("Wilson(%d, %d, %v) = (%v, %v), want NaN", tt.c, tt.n, tt.conf, lo, hi)
		}
	}
}

// Every interval lies in [0, 1] and contains its point estimate, also for
// large counts.
func TestWilsonBounds(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 30, 1000, 1 << 40} {
		for _, c := range []int{0, 1, n / 3, n / 2, n - 1, n} {
			lo, hi := Wilson(c, n, 0.95)
			p := float64(c) / float64(n)
			if !(0 <= lo && lo <= p && p <= hi && hi <= 1) {
				t.Errorf("Wilson(%d, %d) = (%v, %v), estimate %v", c, n, lo, hi, p)
			}
		}
	}
}
