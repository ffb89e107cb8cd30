package evalstats

import (
	"math"
	"testing"
)

// The exact p-values are counted by hand over the 2^m sign patterns.
func TestPairedPermutationExact(t *testing.T) {
	third := 1.0 / 3
	tests := []struct {
		name  string
		diffs []float64
		want  float64
	}{
		{"one difference", []float64{1}, 1},
		{"three ones: ±3 of 8", []float64{1, 1, 1}, 2.0 / 8},
		{"five ones: ±5 of 32", []float64{1, 1, 1, 1, 1}, 2.0 / 32},
		{"zeros are left out", []float64{0, 1, 0, 1, 1, 0}, 2.0 / 8},
		{"1,2,3: ±6 of 8", []float64{1, 2, 3}, 2.0 / 8},
		{"-1,2,3: |s|>=4 is 6,4,-4,-6", []float64{-1, 2, 3}, 4.0 / 8},
		{"thirds as three ones", []float64{third, third, third}, 2.0 / 8},
		{"a sum that is zero up to rounding", []float64{third, third, third, -1}, 1},
		{"0.1+0.2 ties 0.3", []float64{0.1, 0.2, 0.3}, 2.0 / 8},
		{"all zero", []float64{0, 0, 0}, 1},
		{"none", nil, 1},
	}
	for _, tt := range tests {
		if got := PairedPermutation(tt.diffs, 1, 1); got != tt.want {
			t.Errorf("%s: PairedPermutation(%v) = %v, want %v", tt.name, tt.diffs, got, tt.want)
		}
	}
	// 20 non-zero differences are still exact: 2 of 2^20 patterns.
	twenty := make([]float64, 20)
	for i := range twenty {
		twenty[i] = 0.5
	}
	if got := PairedPermutation(twenty, 1, 1); got != 2.0/(1<<20) {
		t.Errorf("twenty halves: %v, want 2^-19", got)
	}
}

// Beyond 20 non-zero differences the Monte Carlo p-value is close to the
// exact one (enumerated here for 21), deterministic given the seed, and
// never 0.
func TestPairedPermutationMonteCarlo(t *testing.T) {
	diffs := make([]float64, 21)
	for i := range diffs {
		diffs[i] = float64(i%5) / 4
		if i%3 == 0 {
			diffs[i] = -diffs[i]
		}
	}
	diffs[0] = 0.75 // keep all 21 non-zero
	obs := 0.0
	for _, d := range diffs {
		obs += d
	}
	exact := signFlipExact(diffs, math.Abs(obs)-1e-9*21)
	const resamples = 20000
	got := PairedPermutation(diffs, resamples, 3)
	se := math.Sqrt(exact * (1 - exact) / resamples)
	if math.Abs(got-exact) > 4*se {
		t.Errorf("Monte Carlo p = %v, exact %v (se %v)", got, exact, se)
	}
	if again := PairedPermutation(diffs, resamples, 3); again != got {
		t.Errorf("same seed: %v then %v", got, again)
	}
	t.Logf("21 differences: exact p %.6f, Monte Carlo %.6f", exact, got)

	ones := make([]float64, 100)
	for i := range ones {
		ones[i] = 1
	}
	if got := PairedPermutation(ones, 999, 1); got != 1.0/1000 {
		t.Errorf("100 ones: p = %v, want 1/1000 (the observed pattern counted in)", got)
	}
}

func TestPairedPermutationOddInput(t *testing.T) {
	tests := []struct {
		name      string
		diffs     []float64
		resamples int
	}{
		{"NaN", []float64{1, math.NaN()}, 10},
		{"Inf", []float64{math.Inf(-1)}, 10},
		{"no resample", []float64{1, 2}, 0},
		{"negative resamples", []float64{1, 2}, -5},
	}
	for _, tt := range tests {
		if got := PairedPermutation(tt.diffs, tt.resamples, 1); !math.IsNaN(got) {
			t.Errorf("%s: PairedPermutation = %v, want NaN", tt.name, got)
		}
	}
}
