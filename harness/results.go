package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// resultLine is one line of results.jsonl: a finished scenario, with what
// the run-level files need of it, so that all_metrics.json,
// all_summary.txt, all_latencies.csv and report.html can be rebuilt from
// results.jsonl alone.
//
// Its JSON is one compact object, keys in this order: "scenario",
// "domain", "metrics" (metrics.json's object, keys in the runner's order)
// and, when metrics has nl_assertion_pass_rate, "nl_assertion_verdicts"
// (the passed flags of judge_result.json's verdicts, which NeMo's
// RunAggregator reads from that file), then, in a run of several trials,
// "trial" (1 to the number of trials; NeMo's runner has no such key).
type resultLine struct {
	Scenario   string
	Domain     string
	Metrics    pyvalue.Dict
	NLVerdicts []bool
	// Trial is the run's trial, 0 in a run of one (no "trial" key).
	Trial int
}

// newResultLine builds the line of a scored scenario (trial 0: a run of
// one trial).
func newResultLine(res *Result, trial int) (*resultLine, error) {
	if res == nil || res.Metrics == nil {
		return nil, errors.New("harness: result line: no metrics")
	}
	m := res.Metrics
	l := &resultLine{Scenario: m.ScenarioName, Domain: prefix(m.ScenarioName), Metrics: m.dict(), Trial: trial}
	if m.NLAssertionPassRate != nil && res.JudgeResult != nil {
		jr, err := pyvalue.Loads(res.JudgeResult)
		if err != nil {
			return nil, fmt.Errorf("harness: judge_result.json: %w", err)
		}
		l.NLVerdicts = nlPassed(jr)
	}
	// Round-trip through the text so that a line built here and one read
	// back from results.jsonl are the same values.
	b, err := l.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return parseResultLine(b)
}

// nlPassed is [bool(v.get("passed")) for v in jr.get("nl_assertion_verdicts") or []].
func nlPassed(jr any) []bool {
	out := []bool{}
	vs, _ := dictGet(jr, "nl_assertion_verdicts")
	list, _ := vs.([]any)
	for _, v := range list {
		p, _ := dictGet(v, "passed")
		out = append(out, pyvalue.Truthy(p))
	}
	return out
}

// MarshalJSON returns the line's JSON text, without the newline.
func (l *resultLine) MarshalJSON() ([]byte, error) {
	d := dict("scenario", l.Scenario, "domain", l.Domain, "metrics", l.Metrics)
	if l.NLVerdicts != nil {
		vs := make([]any, len(l.NLVerdicts))
		for i, v := range l.NLVerdicts {
			vs[i] = v
		}
		d = append(d, pyvalue.Item{Key: "nl_assertion_verdicts", Value: vs})
	}
	if l.Trial > 0 {
		d = append(d, pyvalue.Item{Key: "trial", Value: int64(l.Trial)})
	}
	return pyvalue.AppendJSON(nil, d, pyjson.Compact, false)
}

// parseResultLine reads one line of results.jsonl.
func parseResultLine(b []byte) (*resultLine, error) {
	v, err := pyvalue.Loads(b)
	if err != nil {
		return nil, err
	}
	d, ok := v.(pyvalue.Dict)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	l := &resultLine{}
	name, _ := d.Get("scenario")
	if l.Scenario, ok = name.(string); !ok || l.Scenario == "" {
		return nil, errors.New(`no "scenario" name`)
	}
	dom, _ := d.Get("domain")
	if l.Domain, ok = dom.(string); !ok {
		return nil, errors.New(`no "domain"`)
	}
	m, _ := d.Get("metrics")
	if l.Metrics, ok = m.(pyvalue.Dict); !ok {
		return nil, errors.New(`"metrics" is not an object`)
	}
	if raw, present := d.Get("nl_assertion_verdicts"); present {
		list, ok := raw.([]any)
		if !ok {
			return nil, errors.New(`"nl_assertion_verdicts" is not a list`)
		}
		l.NLVerdicts = make([]bool, len(list))
		for i, e := range list {
			if l.NLVerdicts[i], ok = e.(bool); !ok {
				return nil, errors.New(`"nl_assertion_verdicts" holds a non-bool`)
			}
		}
	}
	if raw, present := d.Get("trial"); present {
		var t int64
		var err error = errors.New("not an integer")
		switch x := raw.(type) {
		case json.Number:
			t, err = x.Int64()
		case int64:
			t, err = x, nil
		}
		if err != nil || t < 1 || t > maxTrials {
			return nil, fmt.Errorf(`"trial" is not a trial number (1 to %d): %s`, maxTrials, pyvalue.Repr(raw))
		}
		l.Trial = int(t)
	}
	return l, nil
}

// resultsFile is what ReadResults found in a results.jsonl.
type resultsFile struct {
	// Lines are the whole lines, in file order (duplicates kept).
	Lines []*resultLine
	// Torn is set when the file ends in a line without its newline (a
	// write cut short by a kill): that line is ignored.
	Torn bool
	// Size is the length of the whole lines; everything after it is the
	// torn line.
	Size int64
}

// Latest returns, per scenario, its last line in the file (a scenario run
// again after a resume appends a newer line; the last one wins).
func (f *resultsFile) Latest() map[string]*resultLine {
	out := make(map[string]*resultLine, len(f.Lines))
	for _, l := range f.Lines {
		out[l.Scenario] = l
	}
	return out
}

// parseResults reads results.jsonl's text. Every newline-terminated line
// must be a ResultLine (a line that is not is corruption, an error naming
// it; blank lines are skipped); the text after the last newline, if any,
// is a torn line and is ignored.
func parseResults(b []byte) (*resultsFile, error) {
	f := &resultsFile{}
	end := bytes.LastIndexByte(b, '\n') + 1
	f.Torn = end < len(b)
	f.Size = int64(end)
	for n, line := range bytes.Split(b[:end], []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		l, err := parseResultLine(line)
		if err != nil {
			return nil, fmt.Errorf("harness: %s:%d: %w", fileResults, n+1, err)
		}
		f.Lines = append(f.Lines, l)
	}
	return f, nil
}

// readResults reads a results.jsonl file; a missing file is an empty one.
func readResults(path string) (*resultsFile, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &resultsFile{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("harness: %w", err)
	}
	return parseResults(b)
}

// appendLine writes l and its newline in one write and syncs the file, so
// a kill leaves either the whole line or a torn one ParseResults ignores.
func appendLine(f *os.File, l *resultLine) error {
	b, err := l.MarshalJSON()
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("harness: %s: %w", fileResults, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("harness: %s: %w", fileResults, err)
	}
	return nil
}
