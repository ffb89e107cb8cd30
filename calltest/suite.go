package calltest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/tool"
)

// errNotExecuted is returned by a declared tool's Execute: calltest checks
// the calls a model makes and never runs them.
var errNotExecuted = errors.New("calltest: a declared tool is not executed")

// declared is a tool known by its schema only ([LoadTools]).
type declared struct {
	name, description string
	properties        map[string]any
	required          []string
}

func (d *declared) Name() string               { return d.name }
func (d *declared) Description() string        { return d.description }
func (d *declared) Properties() map[string]any { return d.properties }
func (d *declared) Required() []string         { return slices.Clone(d.required) }
func (d *declared) Execute(context.Context, map[string]any) (any, error) {
	return nil, fmt.Errorf("%w: %s", errNotExecuted, d.name)
}

// LoadTools reads the tools a suite's agent is offered, as a JSON list of
// {"name", "description", "parameters": {"type": "object", "properties",
// "required"}} (the function part of an OpenAI tool), in the order given.
// Their Execute returns an error: the tools are declared for the
// model and the checks (Options.Tools), never run. A name that is not a
// valid tool name, an empty description, parameters that are not an
// object schema, or a name given twice is an error.
func LoadTools(data []byte) ([]tool.Tool, error) {
	var defs []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Parameters  struct {
			Type       string         `json:"type"`
			Properties map[string]any `json:"properties"`
			Required   []string       `json:"required"`
		} `json:"parameters"`
	}
	if err := json.Unmarshal(data, &defs); err != nil {
		return nil, fmt.Errorf("calltest: tools: %w", err)
	}
	tools := make([]tool.Tool, 0, len(defs))
	for i, d := range defs {
		switch {
		case d.Description == "":
			return nil, fmt.Errorf("calltest: tools.%d (%q): no description", i, d.Name)
		case d.Parameters.Type != "" && d.Parameters.Type != "object":
			return nil, fmt.Errorf("calltest: tools.%d (%q): parameters of type %q, not object", i, d.Name, d.Parameters.Type)
		}
		for _, r := range d.Parameters.Required {
			if _, ok := d.Parameters.Properties[r]; !ok {
				return nil, fmt.Errorf("calltest: tools.%d (%q): required %q is not a property", i, d.Name, r)
			}
		}
		props := d.Parameters.Properties
		if props == nil {
			props = map[string]any{}
		}
		tools = append(tools, &declared{name: d.Name, description: d.Description, properties: props, required: d.Parameters.Required})
	}
	// NewSet checks the names: valid, and each given once.
	if _, err := tool.NewSet(tools...); err != nil {
		return nil, fmt.Errorf("calltest: tools: %w", err)
	}
	return tools, nil
}

// LoadSuite reads every *.json file in dir, in name order, as an ElevenLabs
// test, checked against tools when given. An error names the file.
//
// A test is in ElevenLabs' create-test shape (type "tool"): chat_history,
// tool_call_parameters {referenced_tool, parameters [{path, eval}],
// verify_absence} and check_any_tool_matches; the referenced tool's id is
// taken as the tool's name. Every problem of a document (parameters given
// as an object, an unknown eval type, exact without expected_value, regex
// without pattern or an invalid one, llm without description, bracket
// paths, an empty history or one ending on an agent turn, parameters with
// verify_absence, with tools an unknown referenced tool or a path outside
// its schema) is reported in one error wrapping [ErrInvalidTest], each
// with its location in the document, as ElevenLabs' 422 validation errors
// locate them. Unknown fields are ignored.
func LoadSuite(dir string, tools ...tool.Tool) ([]Test, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("calltest: no *.json test in %s", dir)
	}
	slices.Sort(files)
	tests := make([]Test, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		t, err := loadElevenLabs(data, tools...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(f), err)
		}
		tests = append(tests, t)
	}
	return tests, nil
}

// writeRepeated writes one test's summary for people: its name, the pass
// count, pass^k, the 95 % Wilson interval, the runs where the agent failed
// with an error when there are any, then one line per group of runs that
// did not pass for the same reasons, with the first run's reasons.
func writeRepeated(w io.Writer, name string, rep Repeated, k int) error {
	lo, hi := rep.wilson(1.96)
	line := fmt.Sprintf("%-40s %d/%d passed  pass^%d %.2f  95%% CI [%.2f, %.2f]", name, rep.Passed, rep.Runs, k, rep.PassHatK(k), lo, hi)
	if rep.Errors > 0 {
		line += fmt.Sprintf("  %d error(s)", rep.Errors)
	}
	if _, err := fmt.Fprintln(w, line); err != nil {
		return err
	}
	for _, runs := range rep.Failures {
		reasons := rep.Results[runs[0]].conditionResult().Rationale.Messages
		if _, err := fmt.Fprintf(w, "    %d run(s): %s\n", len(runs), strings.Join(reasons, "; ")); err != nil {
			return err
		}
	}
	return nil
}

// errInvalidK is wrapped by [RunSuite]'s error for a K larger than its
// runs.
var errInvalidK = errors.New("calltest: invalid k")

// SuiteOptions configure [RunSuite].
type SuiteOptions struct {
	Runs    int      // runs per test; < 1 means 1
	Workers int      // runs at once per test; < 1 means 1
	K       int      // the k of the pass^k reported, at most Runs; < 1 means min(3, Runs)
	Options *Options // the judge and tools of the checks
}

// RunSuite runs each test o.Runs times against agent ([Repeat]) and writes
// its summary to w; it returns how many tests did not
// pass every run. A K larger than the runs is an error before any run
// (pass^k of fewer than k runs is 0 whatever they did); an invalid test, a
// cancelled ctx or a write error stops it with that error.
func RunSuite(ctx context.Context, w io.Writer, agent Agent, tests []Test, o SuiteOptions) (notPassed int, err error) {
	runs := max(o.Runs, 1)
	k := o.K
	if k < 1 {
		k = min(3, runs)
	}
	if k > runs {
		return 0, fmt.Errorf("%w: pass^%d of %d run(s) per test: k must not exceed the runs", errInvalidK, k, runs)
	}
	for _, t := range tests {
		rep, err := Repeat(ctx, agent, t, runs, o.Workers, o.Options)
		if err != nil {
			return notPassed, fmt.Errorf("%s: %w", t.Name, err)
		}
		if err := writeRepeated(w, t.Name, rep, k); err != nil {
			return notPassed, err
		}
		if rep.Passed < rep.Runs {
			notPassed++
		}
	}
	return notPassed, nil
}
