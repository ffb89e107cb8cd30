// Command compare compares two evaluation runs and gates on regressions:
// a run directory of cmd/evaluate (one trial, or trial_1 … trial_n with
// -trials) or of NeMo labs-Voice-Agent's own runner, whose layout is the
// same (harness.Compare).
//
//	go run ./cmd/compare BASE_RUN HEAD_RUN
//	go run ./cmd/compare -alpha 0.01 -strict -md summary.md -html compare.html BASE_RUN HEAD_RUN
//
// Scenarios are paired by name and trial. The Markdown summary — the
// verdict, each run's pass@1 with its Wilson interval, the test and its
// p-value, the regressions and improvements by name, the scenarios only
// one run holds — goes to stdout, or to the -md file; -html writes the
// comparison page (one self-contained file: per changed scenario its
// verdicts in both runs, trial by trial, and why a trial failed).
//
// The test is the exact McNemar test on the discordant pairs when a run
// has one trial, the paired sign-flip permutation test of the
// per-scenario pass-rate differences when both have trials. The exit
// status is 0 when the gate passes; 1 when head's regressions are
// significant at -alpha (p < alpha and head does worse: more regressions
// than improvements, a negative mean pass-rate change) or, with -strict,
// when any scenario regressed, the reason on stderr; 2 on a usage error
// or a run that cannot be read.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/voiceeval/schematools/harness"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = "usage: compare [-alpha 0.05] [-strict] [-md FILE] [-html FILE] BASE_RUN HEAD_RUN"

// run runs the command and returns its exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	alpha := fs.Float64("alpha", 0.05, "level: head's regressions fail the gate when the test's p-value is below it")
	strict := fs.Bool("strict", false, "fail the gate when any scenario regressed, significant or not")
	md := fs.String("md", "", "write the Markdown summary to `FILE` instead of stdout")
	page := fs.String("html", "", "write the comparison page to `FILE`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	// Flags may come after the run directories too.
	var dirs []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0 // -h asked for the usage, as flag.ExitOnError has it
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		dirs, args = append(dirs, fs.Arg(0)), fs.Args()[1:]
	}
	switch {
	case len(dirs) != 2:
		fmt.Fprintf(stderr, "compare: want two run directories, got %d\n%s\n", len(dirs), usage)
		return 2
	case !(*alpha > 0 && *alpha < 1):
		fmt.Fprintf(stderr, "compare: -alpha %v is not in (0, 1)\n", *alpha)
		return 2
	}
	c, err := harness.Compare(dirs[0], dirs[1], *alpha)
	if err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 2
	}
	if err := write(c, *md, *page, stdout); err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 2
	}
	if err := c.Gate(*strict); err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 1
	}
	return 0
}

// write writes the Markdown (to md, or out when md is "") and, when page
// is not "", the comparison page.
func write(c *harness.Comparison, md, page string, out io.Writer) error {
	text := c.Markdown()
	if md == "" {
		if _, err := io.WriteString(out, text); err != nil {
			return err
		}
	} else if err := os.WriteFile(md, []byte(text), 0o644); err != nil {
		return err
	}
	if page == "" {
		return nil
	}
	b, err := c.HTML()
	if err != nil {
		return err
	}
	return os.WriteFile(page, b, 0o644)
}
