package evalstats

import (
	"math"
	"testing"
)

func TestPassHatK(t *testing.T) {
	tests := []struct {
		name     string
		outcomes []Outcome
		k        int
		want     float64
	}{
		{"2 of 3, k=2: C(2,2)/C(3,2)", []Outcome{{2, 3}}, 2, 1.0 / 3},
		{"2 of 3, k=1 is c/n", []Outcome{{2, 3}}, 1, 2.0 / 3},
		{"2 of 3, k=3", []Outcome{{2, 3}}, 3, 0},
		{"3 of 3, k=3", []Outcome{{3, 3}}, 3, 1},
		{"0 of 3, k=1", []Outcome{{0, 3}}, 1, 0},
		{"5 of 10, k=3: 10/120", []Outcome{{5, 10}}, 3, 1.0 / 12},
		{"mean over scenarios", []Outcome{{2, 3}, {3, 3}}, 2, (1.0/3 + 1) / 2},
		{"pass@1 is the mean of c/n", []Outcome{{1, 4}, {3, 3}, {0, 2}}, 1, (0.25 + 1 + 0) / 3},
		{"unequal trials", []Outcome{{4, 5}, {2, 2}}, 2, (6.0/10 + 1) / 2},
	}
	for _, tt := range tests {
		got, ok := PassHatK(tt.outcomes, tt.k)
		if !ok || math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("%s: PassHatK(%v, %d) = %v, %v; want %v, true", tt.name, tt.outcomes, tt.k, got, ok, tt.want)
		}
	}
}

// A large count does not overflow: C(c,k)/C(n,k) is a product of ratios.
func TestPassHatKLarge(t *testing.T) {
	got, ok := PassHatK([]Outcome{{900, 1000}}, 50)
	want := 1.0
	for i := range 50 {
		want *= float64(900-i) / float64(1000-i)
	}
	if !ok || math.IsNaN(got) || math.Abs(got-want) > 1e-15 || got <= 0 {
		t.Errorf("PassHatK(900 of 1000, 50) = %v, %v; want %v", got, ok, want)
	}
}

func TestPassHatKOddInput(t *testing.T) {
	tests := []struct {
		name     string
		outcomes []Outcome
		k        int
	}{
		{"no scenario", nil, 1},
		{"k=0", []Outcome{{1, 3}}, 0},
		{"k<0", []Outcome{{1, 3}}, -2},
		{"a scenario with n<k", []Outcome{{3, 3}, {1, 2}}, 3},
		{"zero trials", []Outcome{{0, 0}}, 1},
		{"c>n", []Outcome{{4, 3}}, 1},
		{"negative c", []Outcome{{-1, 3}}, 1},
		{"negative n", []Outcome{{0, -3}}, 1},
	}
	for _, tt := range tests {
		got, ok := PassHatK(tt.outcomes, tt.k)
		if ok || !math.IsNaN(got) {
			t.Errorf("%s: PassHatK = %v, %v; want NaN, false", tt.name, got, ok)
		}
	}
}

func TestFlakyShare(t *testing.T) {
	tests := []struct {
		outcomes []Outcome
		want     float64
	}{
		{[]Outcome{{0, 3}, {1, 3}, {2, 3}, {3, 3}}, 0.5},
		{[]Outcome{{1, 2}}, 1},
		{[]Outcome{{0, 3}, {3, 3}}, 0},
		{[]Outcome{{0, 0}, {1, 1}, {0, 1}}, 0},
	}
	for _, tt := range tests {
		if got := FlakyShare(tt.outcomes); got != tt.want {
			t.Errorf("FlakyShare(%v) = %v, want %v", tt.outcomes, got, tt.want)
		}
	}
	for _, odd := range [][]Outcome{nil, {}, {{2, 1}}, {{1, 3}, {-1, 3}}} {
		if got := FlakyShare(odd); !math.IsNaN(got) {
			t.Errorf("FlakyShare(%v) = %v, want NaN", odd, got)
		}
	}
}
