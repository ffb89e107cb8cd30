package main

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/internal/evalstats"
)

// A seeded flaky stand-in: each scenario of the gold set succeeds with a
// known probability, trial by trial. flakyPlan gives each scenario its
// probability and the broken variant it plays when the coin says fail;
// a scenario no non-stalling variant breaks always succeeds (p = 1).
type flakyPlan struct {
	p       map[string]float64
	variant map[string]int
}

// flakyProbabilities are dealt to the gold set's scenarios in turn.
var flakyProbabilities = []float64{0.3, 0.5, 0.7, 0.9}

func newFlakyPlan(t *testing.T, set []string) flakyPlan {
	t.Helper()
	plan := flakyPlan{p: map[string]float64{}, variant: map[string]int{}}
	var g golds
	for i, n := range set {
		a, u, err := g.scripts(n)
		if err != nil {
			t.Fatal(err)
		}
		plan.p[n] = 1
		for v, bv := range brokenVariants {
			if bv.stall {
				continue
			}
			if _, ok := bv.apply(n, scripts{agent: a, user: u}); ok {
				plan.p[n], plan.variant[n] = flakyProbabilities[i%len(flakyProbabilities)], v
				break
			}
		}
	}
	return plan
}

// passes is the seeded coin of one run: a hash of (seed, scenario, trial)
// as a uniform number in [0, 1), below p. FNV's last multiplication
// barely reaches the top bits, so SplitMix64's finaliser mixes them
// (without it the trials of a scenario were correlated).
func (fp flakyPlan) passes(seed uint64, name string, trial int) bool {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%d", seed, name, trial)
	z := h.Sum64()
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11)/(1<<53) < fp.p[name]
}

// mutator plays gold or the scenario's broken variant, by the coin.
func (fp flakyPlan) mutator(seed uint64) mutator {
	return func(name string, trial int, s scripts) scripts {
		if fp.passes(seed, name, trial) {
			return s
		}
		out, _ := brokenVariants[fp.variant[name]].apply(name, s)
		return out
	}
}

// analytic is the true pass^k of the plan over set: the mean of p^k.
func (fp flakyPlan) analytic(set []string, k int) float64 {
	sum := 0.0
	for _, n := range set {
		sum += math.Pow(fp.p[n], float64(k))
	}
	return sum / float64(len(set))
}

// The flaky stand-in over one domain with -trials 3: every run's verdict
// is the coin's, and trials.json / trials_summary.txt report them.
func TestFlakyStandInTrials(t *testing.T) {
	var set []string
	for _, n := range goldSet(t) {
		if strings.HasPrefix(n, "tau2_retail__") {
			set = append(set, n)
		}
	}
	plan := newFlakyPlan(t, set)
	const seed = 7
	f, err := parse([]string{"-domain", "tau2_retail", "-trials", "3", "-parallel", "4", "-max-turns", "14", "-out", t.TempDir()}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	f.mutate = plan.mutator(seed)
	var stdout, stderr bytes.Buffer
	if err := evaluate(context.Background(), f, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	dir, rest, _ := strings.Cut(stdout.String(), ":")
	if !strings.Contains(rest, fmt.Sprintf("%d scenarios, 3 trials", len(set))) {
		t.Errorf("stdout %q", stdout.String())
	}
	tr, err := harness.ReadTrials(dir)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Trials != 3 || len(tr.Scenarios) != len(set) {
		t.Fatalf("%d trials, %d scenarios; want 3, %d", tr.Trials, len(tr.Scenarios), len(set))
	}
	wrong := 0
	for _, s := range tr.Scenarios {
		for i, v := range s.Verdicts {
			want := "fail"
			if plan.passes(seed, s.Name, i+1) {
				want = "pass"
			}
			if v != want {
				wrong++
				t.Errorf("%s trial %d: %v, the coin says %v", s.Name, i+1, v, want)
			}
		}
	}
	for _, f := range []string{"trials.json", "trials_summary.txt", "trial_3/all_summary.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	t.Logf("%d scenarios x 3 trials, every verdict the coin's (%d wrong); pass@1 %.3f [%.3f, %.3f], analytic %.3f",
		len(set), wrong, tr.Overall.PassAt1.Estimate, tr.Overall.PassAt1.Lo, tr.Overall.PassAt1.Hi, plan.analytic(set, 1))
}

// Over the whole gold set and 100 seeds of the flaky stand-in's coins
// (the verdicts the test above shows a run reports), the reported pass@1
// and pass^k (k = 1..3) hold the analytic values within their intervals
// in at least 95 seeds; the plug-in (c/n)^k, with its own bootstrap
// interval, does not (its bias, p(1-p)/n at k = 2, exceeds the interval).
func TestFlakyTrialsCoverage(t *testing.T) {
	set := goldSet(t)
	plan := newFlakyPlan(t, set)
	const seeds, trials = 100, 3
	covered := make([]int, trials+1) // [0]: pass@1 (Wilson); [k]: pass^k
	biased := make([]int, trials+1)
	for seed := range uint64(seeds) {
		dir := t.TempDir()
		for trial := 1; trial <= trials; trial++ {
			var b strings.Builder
			for _, n := range set {
				dom, _, _ := strings.Cut(n, "__")
				fmt.Fprintf(&b, `{"scenario":%q,"domain":%q,"metrics":{"is_successful":%t}}`+"\n", n, dom, plan.passes(seed, n, trial))
			}
			td := filepath.Join(dir, fmt.Sprintf("trial_%d", trial))
			if err := os.Mkdir(td, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(td, "results.jsonl"), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		tr, err := harness.ReadTrials(dir)
		if err != nil {
			t.Fatal(err)
		}
		o := tr.Overall
		if o.Scenarios != len(set) || len(o.PassHatK) != trials {
			t.Fatalf("seed %d: %d scenarios, pass^k to %d", seed, o.Scenarios, len(o.PassHatK))
		}
		if a := plan.analytic(set, 1); o.PassAt1.Lo <= a && a <= o.PassAt1.Hi {
			covered[0]++
		}
		plugIn := make([][]float64, trials) // (c/n)^k per scenario
		for _, s := range tr.Scenarios {
			c, n := s.Successes, s.Runs
			for k := 1; k <= trials; k++ {
				plugIn[k-1] = append(plugIn[k-1], math.Pow(float64(c)/float64(n), float64(k)))
			}
		}
		plo, phi := evalstats.BootstrapMeans(plugIn, 0.95, 1000, seed)
		for k := 1; k <= trials; k++ {
			a := plan.analytic(set, k)
			if iv := o.PassHatK[k-1]; iv.Lo <= a && a <= iv.Hi {
				covered[k]++
			}
			if plo[k-1] <= a && a <= phi[k-1] {
				biased[k]++
			}
		}
	}
	t.Logf("%d gold scenarios x %d trials, %d seeds: analytic pass@1 %.4f in the Wilson interval %d times; pass^1..3 (%.4f, %.4f, %.4f) in their bootstrap intervals %v times; the plug-in (c/n)^k %v times",
		len(set), trials, seeds, plan.analytic(set, 1), covered[0], plan.analytic(set, 1), plan.analytic(set, 2), plan.analytic(set, 3), covered[1:], biased[1:])
	for k, c := range covered {
		if c < 95 {
			t.Errorf("coverage %d (index %d: 0 is pass@1, k pass^k) < 95 of %d seeds", c, k, seeds)
		}
	}
	for k := 2; k <= trials; k++ {
		if biased[k] >= 95 {
			t.Errorf("the biased plug-in (c/n)^%d covered the analytic value in %d of %d seeds: the test cannot tell it from the unbiased estimator", k, biased[k], seeds)
		}
	}
}
