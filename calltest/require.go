package calltest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Require checks step against test and fails t, with a message a person
// reads once and understands, unless the test passes. An Unknown result
// fails too: nothing is assumed to pass.
func Require(t testing.TB, test Test, step Step, opts *Options) {
	t.Helper()
	res, err := Check(context.Background(), test, step, opts)
	if err != nil {
		t.Errorf("%v", err)
		t.FailNow()
		return
	}
	if res.Status == Pass {
		return
	}
	t.Errorf("%s", report(res, step))
	t.FailNow()
}

// report renders a result for people: the verdict, each failing or
// unknown expectation with its reasons, and the calls the agent made.
func report(res Result, step Step) string {
	var b strings.Builder
	name := res.Test
	if name == "" {
		name = "tool-call test"
	}
	fmt.Fprintf(&b, "%s: %s\n", name, res.Status)
	for _, e := range res.Expectations {
		if e.Status == Pass {
			continue
		}
		what := "call to " + toolLabel(e.Tool)
		if e.Absent {
			what = "no call to " + e.Tool
		}
		fmt.Fprintf(&b, "  expected %s: %s", what, e.Status)
		if e.Reason != "" {
			fmt.Fprintf(&b, " — %s", e.Reason)
		}
		b.WriteByte('\n')
		for _, p := range e.Params {
			if p.Status == Unknown {
				fmt.Fprintf(&b, "    %s (%s): %s\n", p.Path, p.Type, p.Message)
			}
		}
	}
	for _, p := range res.Problems {
		fmt.Fprintf(&b, "  %s\n", p)
	}
	if len(step.Calls) == 0 {
		b.WriteString("  the agent made no tool call\n")
	}
	for j, c := range step.Calls {
		fmt.Fprintf(&b, "  call %d: %s %s\n", j, c.Name, canonicalText(c.Arguments))
	}
	return strings.TrimSuffix(b.String(), "\n")
}
