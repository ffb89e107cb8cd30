package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/harness"
)

// runDir runs evaluate in-process with mutate, its output under out, logs
// the runs that ended in an error, and returns its run directory.
func runDir(t *testing.T, out string, mutate mutator, args ...string) string {
	t.Helper()
	f, err := parse(append(args, "-out", out), os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	f.mutate = mutate
	var stdout, stderr bytes.Buffer
	if err := evaluate(context.Background(), f, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, " error: ") {
			t.Log(l)
		}
	}
	dir, _, _ := strings.Cut(stdout.String(), ":")
	return dir
}

// breakTen picks 10 scenarios spread over names and, for each, a broken
// variant that does not stall and applies to it (the variants taken in
// turn); it returns them in names' order and their variants.
func breakTen(t *testing.T, names []string) ([]string, map[string]brokenVariant) {
	t.Helper()
	var g golds
	chosen, variants := []string{}, map[string]brokenVariant{}
	for i := 0; i < len(names) && len(chosen) < 10; i += len(names) / 10 {
		a, u, err := g.scripts(names[i])
		if err != nil {
			t.Fatal(err)
		}
		for k := range brokenVariants {
			v := brokenVariants[(len(chosen)+k)%len(brokenVariants)]
			if _, ok := v.apply(names[i], scripts{agent: a, user: u}); ok && !v.stall {
				chosen, variants[names[i]] = append(chosen, names[i]), v
				break
			}
		}
	}
	if len(chosen) != 10 {
		t.Fatalf("%d scenarios breakable, want 10: %v", len(chosen), chosen)
	}
	return chosen, variants
}

// breaking breaks the scenarios of variants, in every trial.
func breaking(variants map[string]brokenVariant) mutator {
	return func(name string, _ int, s scripts) scripts {
		if v, ok := variants[name]; ok {
			s, _ = v.apply(name, s)
		}
		return s
	}
}

// compareBinary builds cmd/compare.
func compareBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "compare")
	if out, err := exec.Command("go", "build", "-o", bin, "../compare").CombinedOutput(); err != nil {
		t.Fatalf("go build ../compare: %v\n%s", err, out)
	}
	return bin
}

// Issue #38's comparisons of real runs (in-process gold stand-ins): (a)
// two gold runs of tau2_retail (114 scenarios) compare with no regression,
// the gate passes and cmd/compare exits 0; (b) a gold run against one
// where exactly 10 scenarios were broken with the broken variants (write
// dropped, wrong argument, no end call) lists exactly those 10 as
// regressions, each with what failed; the exact McNemar test (b=10, c=0)
// gives p = 2/1024, the gate fails and cmd/compare exits 1. The same with
// 2 trials a side over 30 scenarios, by the paired permutation test (10
// differences of -1: exact, p = 2/1024).
func TestCompareGoldAndBrokenRuns(t *testing.T) {
	var g golds
	retail, err := selectScenarios(flags{domain: "tau2_retail"}, &g)
	if err != nil {
		t.Fatal(err)
	}
	if len(retail) < 30 {
		t.Fatalf("%d tau2_retail scenarios", len(retail))
	}
	sub := retail[:30]
	chosen, variants := breakTen(t, retail)
	subChosen, subVariants := breakTen(t, sub)
	// -max-turns ends a run whose end call was dropped (a gold run has at
	// most 9 turns); every run gets it, so that base and head differ only
	// in the broken scripts.
	one := []string{"-domain", "tau2_retail", "-parallel", "4", "-max-turns", "14"}
	two := []string{"-scenarios", strings.Join(sub, ","), "-trials", "2", "-parallel", "4", "-max-turns", "14"}

	bin := compareBinary(t)
	bases, root := map[string]string{}, t.TempDir() // the gold runs, shared by the subtests
	for _, c := range []struct {
		name        string
		args        []string
		mutate      mutator
		scenarios   int
		regressions []string
		variants    map[string]brokenVariant
		test        string
		p           float64
		exit        int
	}{
		{"A/A, one trial", one, nil, len(retail), []string{}, nil, "exact McNemar", 1, 0},
		{"10 broken, one trial", one, breaking(variants), len(retail), chosen, variants, "exact McNemar", 2.0 / 1024, 1},
		{"A/A, 2 trials", two, nil, len(sub), []string{}, nil, "paired permutation", 1, 0},
		{"10 broken, 2 trials", two, breaking(subVariants), len(sub), subChosen, subVariants, "paired permutation", 2.0 / 1024, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			key := strings.Join(c.args, " ")
			if bases[key] == "" {
				bases[key] = runDir(t, root, nil, c.args...)
			}
			base, head := bases[key], runDir(t, t.TempDir(), c.mutate, c.args...)
			cmp, err := harness.Compare(base, head, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got, broken []string
			for _, s := range cmp.Regressions {
				got = append(got, s.Name)
				broken = append(broken, s.Name+" ("+c.variants[s.Name].name+")")
				if v := c.variants[s.Name]; v.check != nil {
					for trial, why := range s.HeadFailures {
						if why == "" {
							t.Errorf("%s (%s), trial %d: no failure recorded", s.Name, v.name, trial+1)
						}
					}
					if msg := v.check(s.Name, readMetrics(t, trialRun(head, cmp.HeadTrials), s.Name)); msg != "" {
						t.Errorf("%s (%s): %s", s.Name, v.name, msg)
					}
				}
			}
			if !slices.Equal(got, c.regressions) {
				t.Errorf("regressions %v, want exactly %v", got, c.regressions)
			}
			compared := len(cmp.Regressions) + len(cmp.Improvements) + len(cmp.Unchanged)
			if len(cmp.Improvements) != 0 || compared != c.scenarios || len(cmp.OnlyBase)+len(cmp.OnlyHead)+len(cmp.NotCompared) != 0 {
				t.Errorf("improvements %d, %d compared (want %d), only base %d, only head %d, not compared %d",
					len(cmp.Improvements), compared, c.scenarios, len(cmp.OnlyBase), len(cmp.OnlyHead), len(cmp.NotCompared))
			}
			if cmp.Test != c.test || cmp.P != c.p {
				t.Errorf("%s p = %v, want %s %v", cmp.Test, cmp.P, c.test, c.p)
			}
			if gate := cmp.Gate(false); (gate != nil) != (c.exit == 1) {
				t.Errorf("Gate(false) = %v, want failing %v", gate, c.exit == 1)
			}
			if c.exit == 0 {
				if gate := cmp.Gate(true); gate != nil {
					t.Errorf("A/A, Gate(true) = %v", gate)
				}
			}
			cmd := exec.Command(bin, "-html", filepath.Join(t.TempDir(), "compare.html"), base, head)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err = cmd.Run()
			code := 0
			if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.exit {
				t.Errorf("compare exited %d, want %d\n%s%s", code, c.exit, stdout.String(), stderr.String())
			}
			for _, n := range c.regressions {
				if !strings.Contains(stdout.String(), "`"+n+"`") {
					t.Errorf("the summary lacks %s:\n%s", n, stdout.String())
				}
			}
			t.Logf("%s: %d scenarios compared, %d regressions %v, %s p = %.6g; pass@1 base %.3f head %.3f; compare exit %d",
				c.name, compared, len(cmp.Regressions), broken, cmp.Test, cmp.P, cmp.BasePassAt1.Estimate, cmp.HeadPassAt1.Estimate, code)
		})
	}
}

// trialRun is the directory of a run's last trial (the run itself when it
// has one).
func trialRun(dir string, trials int) string {
	if trials == 1 {
		return dir
	}
	return filepath.Join(dir, "trial_"+string(rune('0'+trials)))
}
