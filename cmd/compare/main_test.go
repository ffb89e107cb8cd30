package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRun writes a synthetic run directory: scenarios x__0 … x__<n-1>,
// the first failed of them failing, in every trial; with one trial NeMo's
// layout, with more trial_1 … trial_n.
func writeRun(t *testing.T, dir string, trials, n, failed int) string {
	t.Helper()
	for trial := 1; trial <= trials; trial++ {
		d, key := dir, ""
		if trials > 1 {
			d, key = filepath.Join(dir, fmt.Sprintf("trial_%d", trial)), fmt.Sprintf(`,"trial":%d`, trial)
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i := range n {
			bd := `{"passed":["db_state_match"],"failed":[],"not_applicable":[],"excluded":[]}`
			if i < failed {
				bd = `{"passed":[],"failed":["db_state_match"],"not_applicable":[],"excluded":[]}`
			}
			fmt.Fprintf(&b, `{"scenario":"x__%d","domain":"x","metrics":{"stop_reason":"[EXIT]","success_breakdown":%s,"is_successful":%v}%s}`+"\n", i, bd, i >= failed, key)
		}
		if err := os.WriteFile(filepath.Join(d, "results.jsonl"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The exit status: 0 when the gate passes, 1 when it fails (the reason on
// stderr), 2 on a usage error or a run that cannot be read.
func TestCompareExitCodes(t *testing.T) {
	root := t.TempDir()
	run1 := func(name string, n, failed int) string {
		return writeRun(t, filepath.Join(root, name), 1, n, failed)
	}
	gold := run1("gold", 20, 0)
	gold2 := run1("gold2", 20, 0)
	broken10 := run1("broken10", 20, 10)
	broken1 := run1("broken1", 20, 1)
	broken3 := run1("broken3", 20, 3)
	trials := writeRun(t, filepath.Join(root, "trials"), 3, 20, 0)
	trialsBroken := writeRun(t, filepath.Join(root, "trials-broken"), 3, 20, 12)
	empty := filepath.Join(root, "empty")
	corrupt := filepath.Join(root, "corrupt")
	for _, d := range []string{empty, corrupt} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(corrupt, "results.jsonl"), []byte("{oops\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"A/A", []string{gold, gold2}, 0, "### ✅ No regression: no compared scenario changed", ""},
		{"A/A strict", []string{"-strict", gold, gold2}, 0, "exact McNemar", ""},
		{"10 broken", []string{gold, broken10}, 1, "### ❌ Significant regressions",
			"compare: significant regressions: 10 scenario(s) regressed, 0 improved, exact McNemar p = 0.00195 < alpha 0.05: x__0, x__1"},
		{"10 fixed", []string{broken10, gold}, 0, "#### Improvements (10)", ""},
		{"1 broken", []string{gold, broken1}, 0, "- `x__0`: pass → fail", ""},
		{"1 broken strict", []string{"-strict", gold, broken1}, 1, "#### Regressions (1)",
			"compare: strict: 1 scenario(s) regressed (exact McNemar p = 1, not significant at alpha 0.05): x__0"},
		{"flags after the runs", []string{gold, broken1, "-strict"}, 1, "", "strict: 1 scenario(s) regressed"},
		{"3 broken", []string{gold, broken3}, 0, "p = 0.25", ""},
		{"3 broken, alpha 0.3", []string{"-alpha", "0.3", gold, broken3}, 1, "p = 0.25 < α = 0.3", "p = 0.25 < alpha 0.3"},
		{"trials A/A", []string{trials, trials}, 0, "paired permutation", ""},
		{"trials, 12 broken", []string{trials, trialsBroken}, 1, "- `x__0`: 3/3 → 0/3",
			"significant regressions: 12 scenario(s) regressed, 0 improved, paired permutation p = 0.000488"},
		{"one trial against three", []string{gold, trialsBroken}, 1, "only trials 1 to 1 are paired", "exact McNemar"},
		{"no run", nil, 2, "", "want two run directories, got 0"},
		{"one run", []string{gold}, 2, "", "want two run directories, got 1"},
		{"three runs", []string{gold, gold, gold}, 2, "", "got 3"},
		{"alpha 0", []string{"-alpha", "0", gold, gold}, 2, "", "-alpha 0 is not in (0, 1)"},
		{"alpha 1.5", []string{"-alpha", "1.5", gold, gold}, 2, "", "-alpha 1.5 is not in (0, 1)"},
		{"unknown flag", []string{"-nope", gold, gold}, 2, "", "flag provided but not defined: -nope"},
		{"missing run", []string{gold, filepath.Join(root, "missing")}, 2, "", "head run " + filepath.Join(root, "missing")},
		{"not a run", []string{empty, gold}, 2, "", "base run " + empty + ": not a run directory"},
		{"corrupt results.jsonl", []string{gold, corrupt}, 2, "", "head run " + corrupt + ": results.jsonl:1"},
		{"unwritable -md", []string{"-md", filepath.Join(root, "missing", "x.md"), gold, gold}, 2, "", "no such file or directory"},
		{"-h", []string{"-h"}, 0, "", "usage: compare [-alpha 0.05] [-strict] [-md FILE] [-html FILE] BASE_RUN HEAD_RUN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(c.args, &stdout, &stderr)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), c.stdout) {
				t.Errorf("stdout lacks %q:\n%s", c.stdout, stdout.String())
			}
			if !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("stderr lacks %q:\n%s", c.stderr, stderr.String())
			}
			if c.code == 0 && c.args != nil && c.args[0] != "-h" && stderr.Len() > 0 {
				t.Errorf("a passing gate writes nothing to stderr: %s", stderr.String())
			}
			if c.code == 2 && stdout.Len() > 0 {
				t.Errorf("a usage or read error prints no summary: %s", stdout.String())
			}
		})
	}
}

// -md and -html write the summary and the page; stdout stays empty.
func TestCompareFilesWritten(t *testing.T) {
	root := t.TempDir()
	base := writeRun(t, filepath.Join(root, "base"), 1, 20, 0)
	head := writeRun(t, filepath.Join(root, "head"), 1, 20, 10)
	md, page := filepath.Join(root, "summary.md"), filepath.Join(root, "compare.html")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-md", md, "-html", page, base, head}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout with -md: %q", stdout.String())
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### ❌ Significant regressions", "#### Regressions (10)\n- `x__0`: pass → fail\n", "| pass@1 (95% Wilson) | 100.0% [83.9%, 100.0%] | 50.0% [29.9%, 70.1%] |"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q:\n%s", md, want, b)
		}
	}
	h, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(h, []byte("<!DOCTYPE html>")) || bytes.Count(h, []byte(`<section class="change regression"`)) != 10 ||
		!bytes.Contains(h, []byte(`data-scenario="x__9"`)) || !bytes.Contains(h, []byte(`<div class="why">failed: db_state_match</div>`)) {
		t.Errorf("%s: not the page of 10 regressions with their failed signal:\n%.600s", page, h)
	}
}
