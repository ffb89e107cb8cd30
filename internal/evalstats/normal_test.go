package evalstats

import (
	"math"
	"testing"
)

// The reference quantiles are Python's statistics.NormalDist().inv_cdf
// (Wichura's AS 241, accurate to about 1e-16).
func TestNormalQuantile(t *testing.T) {
	tests := []struct{ p, want float64 }{
		{0.975, 1.959963984540054},
		{0.025, -1.959963984540054},
		{0.5, 0},
		{0.3, -0.5244005127080407},
		{0.9, 1.2815515655446008},
		{0.99, 2.3263478740408408},
		{0.999, 3.090232306167813},
		{0.999999, 4.753424308817089},
		{0.02425, -1.9729610513118845}, // the seams of Acklam's regions
		{0.97575, 1.9729610513118847},
		{1e-10, -6.361340902404056},
		{1e-20, -9.262340089798405},
		{1e-300, -37.0470962993612},
		{0.999999999999, 7.0344869100478356},
	}
	for _, tt := range tests {
		got := normalQuantile(tt.p)
		if math.Abs(got-tt.want) > 1e-14*max(1, math.Abs(tt.want)) {
			t.Errorf("normalQuantile(%v) = %.17g, want %.17g", tt.p, got, tt.want)
		}
	}
}

func TestNormalQuantileRoundTrip(t *testing.T) {
	for i := 1; i < 1000; i++ {
		p := float64(i) / 1000
		x := normalQuantile(p)
		if back := 0.5 * math.Erfc(-x/math.Sqrt2); math.Abs(back-p) > 1e-15 {
			t.Errorf("Φ(normalQuantile(%v)) = %v", p, back)
		}
		if y := normalQuantile(1 - p); math.Abs(x+y) > 1e-13 {
			t.Errorf("normalQuantile(%v) = %v, normalQuantile(1-p) = %v: not symmetric", p, x, y)
		}
	}
}

func TestNormalQuantileOddInput(t *testing.T) {
	if got := normalQuantile(0); !math.IsInf(got, -1) {
		t.Errorf("normalQuantile(0) = %v, want -Inf", got)
	}
	if got := normalQuantile(1); !math.IsInf(got, 1) {
		t.Errorf("normalQuantile(1) = %v, want +Inf", got)
	}
	for _, p := range []float64{-0.1, 1.1, math.NaN(), math.Inf(1)} {
		if got := normalQuantile(p); !math.IsNaN(got) {
			t.Errorf("normalQuantile(%v) = %v, want NaN", p, got)
		}
	}
}
