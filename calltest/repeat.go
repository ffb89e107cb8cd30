package calltest

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
)

var standaloneNumber = regexp.MustCompile(`\b\d+\b`)

// Agent produces the agent's next step for a conversation; it calls a
// model. Repeat calls it once per run — from several goroutines when
// workers > 1, so it must then be safe for concurrent use.
type Agent func(ctx context.Context, history []Turn) (Step, error)

// Repeated summarises n runs of one test.
type Repeated struct {
	Runs    int      `json:"runs"`
	Passed  int      `json:"passed"`
	Failed  int      `json:"failed"`
	Unknown int      `json:"unknown"`
	Errors  int      `json:"errors"` // runs where the agent returned an error
	Results []Result `json:"results"`
	// Failures groups the failed and unknown runs (indexes into Results)
	// that did not pass for the same reasons — the same reason codes per
	// expectation and the same problems, whatever the values — most
	// frequent first.
	Failures [][]int `json:"failures"`
}

// PassHatK is τ-bench's pass^k: the chance that k runs drawn without
// replacement all pass, C(c,k)/C(n,k) for c = Passed of n = Runs. PassHatK(1)
// is the pass rate. It is 0 when k > n, NaN unless 0 <= c <= n.
func (r Repeated) PassHatK(k int) float64 {
	n, c := r.Runs, r.Passed
	if c < 0 || c > n {
		return math.NaN()
	}
	if k < 0 || k > n || n <= 0 {
		return 0
	}
	return math.Exp(lnChoose(c, k) - lnChoose(n, k))
}

// PassAtK is the chance that at least one of k runs drawn without
// replacement passes, 1 - C(n-c,k)/C(n,k). It is 0 when k > n, NaN unless
// 0 <= c <= n.
func (r Repeated) PassAtK(k int) float64 {
	n, c := r.Runs, r.Passed
	if c < 0 || c > n {
		return math.NaN()
	}
	if k <= 0 || k > n || n <= 0 {
		return 0
	}
	return 1 - math.Exp(lnChoose(n-c, k)-lnChoose(n, k))
}

// wilson returns the Wilson score interval of the pass rate at z (1.96 for
// 95 %): (0, 1) when there are no runs, NaN unless 0 <= Passed <= Runs.
func (r Repeated) wilson(z float64) (lo, hi float64) {
	c, n := r.Passed, r.Runs
	if c < 0 || c > n {
		return math.NaN(), math.NaN()
	}
	if n <= 0 {
		return 0, 1
	}
	p := float64(c) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return math.Max(0, mid-half), math.Min(1, mid+half)
}

// lnChoose is ln C(n,k), -Inf when C(n,k) is 0.
func lnChoose(n, k int) float64 {
	if k < 0 || k > n {
		return math.Inf(-1)
	}
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// Repeat runs test n times against agent on up to workers goroutines
// (1 when workers < 1) and summarises the runs. It stops early, with ctx's
// error, when ctx is done. An invalid test is an error before any run.
func Repeat(ctx context.Context, agent Agent, test Test, n, workers int, opts *Options) (Repeated, error) {
	if n < 0 {
		return Repeated{}, fmt.Errorf("%w: %d runs", ErrInvalidTest, n)
	}
	if _, err := Check(ctx, test, Step{}, opts); err != nil {
		return Repeated{}, err
	}
	if workers < 1 {
		workers = 1
	}
	rep := Repeated{Runs: n, Results: make([]Result, n)}
	errs := make([]error, n)
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range min(workers, max(n, 1)) {
		wg.Go(func() {
			for i := range jobs {
				step, err := agent(ctx, slices.Clone(test.History))
				if err != nil {
					errs[i] = err
					rep.Results[i] = Result{Test: test.Name, Status: Fail, Problems: []string{"agent error: " + err.Error()}}
					continue
				}
				rep.Results[i], errs[i] = Check(ctx, test, step, opts)
			}
		})
	}
feed:
	for i := range n {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	groups := map[string][]int{}
	for i, r := range rep.Results {
		switch {
		case errs[i] != nil:
			rep.Errors++
			rep.Failed++
		case r.Status == Pass:
			rep.Passed++
			continue
		case r.Status == Unknown:
			rep.Unknown++
		default:
			rep.Failed++
		}
		sig := signature(r)
		groups[sig] = append(groups[sig], i)
	}
	sigs := make([]string, 0, len(groups))
	for sig := range groups {
		sigs = append(sigs, sig)
	}
	slices.SortFunc(sigs, func(a, b string) int {
		if len(groups[a]) != len(groups[b]) {
			return len(groups[b]) - len(groups[a])
		}
		return strings.Compare(a, b)
	})
	for _, sig := range sigs {
		rep.Failures = append(rep.Failures, groups[sig])
	}
	return rep, nil
}

// signature summarises why a run did not pass: reason codes per
// expectation and problems, without the values, so that runs failing the
// same way group together.
func signature(r Result) string {
	var parts []string
	for _, e := range r.Expectations {
		if e.Status == Pass {
			continue
		}
		codes := []string{}
		for _, p := range e.Params {
			if p.Status != Pass {
				codes = append(codes, p.Path+":"+p.Code)
			}
		}
		if len(codes) == 0 {
			codes = append(codes, "no_call")
		}
		parts = append(parts, fmt.Sprintf("%s[%s]", toolLabel(e.Tool), strings.Join(codes, ",")))
	}
	for _, p := range r.Problems {
		// Counts and indexes vary from run to run; the kind of problem does
		// not. Only stand-alone numbers are masked, not digits in names.
		parts = append(parts, standaloneNumber.ReplaceAllString(p, "#"))
	}
	return strings.Join(parts, " | ")
}
