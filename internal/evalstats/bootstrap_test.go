package evalstats

import (
	"math"
	"slices"
	"testing"
)

func passAt1(o []Outcome) float64 {
	v, _ := PassHatK(o, 1)
	return v
}

func TestBootstrap(t *testing.T) {
	outcomes := []Outcome{{0, 3}, {1, 3}, {2, 3}, {3, 3}, {3, 3}, {2, 3}, {0, 3}, {3, 3}}
	orig := slices.Clone(outcomes)
	lo, hi := Bootstrap(outcomes, passAt1, 0.95, 2000, 7)
	est := passAt1(outcomes)
	if !(0 <= lo && lo < est && est < hi && hi <= 1) {
		t.Errorf("Bootstrap = (%v, %v), estimate %v", lo, hi, est)
	}
	if !slices.Equal(outcomes, orig) {
		t.Errorf("Bootstrap changed its input: %v", outcomes)
	}
	lo2, hi2 := Bootstrap(outcomes, passAt1, 0.95, 2000, 7)
	if lo2 != lo || hi2 != hi {
		t.Errorf("same seed: (%v, %v) then (%v, %v)", lo, hi, lo2, hi2)
	}
	lo3, hi3 := Bootstrap(outcomes, passAt1, 0.95, 2000, 8)
	if lo3 == lo && hi3 == hi {
		t.Errorf("seeds 7 and 8 give the same interval (%v, %v)", lo, hi)
	}
	// A wider confidence gives a wider interval from the same resamples.
	lo4, hi4 := Bootstrap(outcomes, passAt1, 0.5, 2000, 7)
	if !(lo <= lo4 && lo4 <= hi4 && hi4 <= hi) {
		t.Errorf("50%% interval (%v, %v) not inside the 95%% one (%v, %v)", lo4, hi4, lo, hi)
	}
}

// Identical scenarios leave nothing to resample: the interval is a point.
func TestBootstrapConstant(t *testing.T) {
	outcomes := []Outcome{{2, 3}, {2, 3}, {2, 3}}
	lo, hi := Bootstrap(outcomes, passAt1, 0.95, 100, 1)
	if lo != 2.0/3 || hi != 2.0/3 {
		t.Errorf("Bootstrap = (%v, %v), want 2/3 twice", lo, hi)
	}
}

func TestBootstrapOddInput(t *testing.T) {
	some := []Outcome{{1, 2}, {2, 2}}
	tests := []struct {
		name      string
		outcomes  []Outcome
		stat      func([]Outcome) float64
		conf      float64
		resamples int
	}{
		{"no scenario", nil, passAt1, 0.95, 100},
		{"nil stat", some, nil, 0.95, 100},
		{"no resample", some, passAt1, 0.95, 0},
		{"conf 1", some, passAt1, 1, 100},
		{"conf 0", some, passAt1, 0, 100},
		{"conf NaN", some, passAt1, math.NaN(), 100},
		{"stat NaN", []Outcome{{1, 2}, {3, 2}}, passAt1, 0.95, 100},
	}
	for _, tt := range tests {
		lo, hi := Bootstrap(tt.outcomes, tt.stat, tt.conf, tt.resamples, 1)
		if !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("%s: Bootstrap = (%v, %v), want NaN", tt.name, lo, hi)
		}
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	tests := []struct{ q, want float64 }{{0, 1}, {0.5, 2.5}, {1, 4}, {0.25, 1.75}}
	for _, tt := range tests {
		if got := quantile(xs, tt.q); got != tt.want {
			t.Errorf("quantile(%v, %v) = %v, want %v", xs, tt.q, got, tt.want)
		}
	}
	if got := quantile([]float64{5}, 0.975); got != 5 {
		t.Errorf("quantile of one value = %v", got)
	}
}

// BootstrapMeans gives, for a mean statistic, the interval Bootstrap
// gives with the same seed (the same resamples), for each statistic.
func TestBootstrapMeansIsBootstrap(t *testing.T) {
	var outcomes []Outcome
	for i := range 57 {
		outcomes = append(outcomes, Outcome{Successes: i % 4, Trials: 3 + i%2})
	}
	values := make([][]float64, 3)
	for k := 1; k <= 3; k++ {
		for _, o := range outcomes {
			v, _ := PassHatK([]Outcome{o}, k)
			values[k-1] = append(values[k-1], v)
		}
	}
	lo, hi := BootstrapMeans(values, 0.95, 500, 42)
	for k := 1; k <= 3; k++ {
		stat := func(o []Outcome) float64 { v, _ := PassHatK(o, k); return v }
		wlo, whi := Bootstrap(outcomes, stat, 0.95, 500, 42)
		if math.Abs(lo[k-1]-wlo) > 1e-12 || math.Abs(hi[k-1]-whi) > 1e-12 {
			t.Errorf("k=%d: BootstrapMeans (%v, %v), Bootstrap (%v, %v)", k, lo[k-1], hi[k-1], wlo, whi)
		}
	}
	for _, bad := range [][][]float64{nil, {{}}, {{1, 2}, {1}}, {{1, math.NaN()}}} {
		lo, hi := BootstrapMeans(bad, 0.95, 10, 1)
		for s := range lo {
			if !math.IsNaN(lo[s]) || !math.IsNaN(hi[s]) {
				t.Errorf("BootstrapMeans(%v) = (%v, %v), want NaN", bad, lo, hi)
			}
		}
	}
}
