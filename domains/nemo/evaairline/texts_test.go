package evaairline_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/nemo/evaairline"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// textCall is a vector call as the model sent it and as the original
// answered it, both as JSON text in the line's key order (Python's): the
// arguments, and the result as pipecat writes it into the tool message,
// json.dumps(result, ensure_ascii=False).
type textCall struct {
	where, tool, args, result string
}

// textScripts reads eva_airline_calls.jsonl keeping its key order: per
// script, its scenario and its calls.
func textScripts(t *testing.T) (scenarios []string, calls [][]textCall) {
	t.Helper()
	data, err := os.ReadFile(conformance.Path(t, "nemo", "eva_airline_calls.jsonl"))
	require.NoError(t, err)
	for line := range bytes.Lines(data) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		v, err := pyvalue.Loads(line)
		require.NoError(t, err)
		sc := v.(pyvalue.Dict)
		id, _ := sc.Get("scenario_id")
		seed, _ := sc.Get("seed")
		list, _ := sc.Get("calls")
		var cs []textCall
		for _, c := range list.([]any) {
			d := c.(pyvalue.Dict)
			name, _ := d.Get("tool")
			i, _ := d.Get("i")
			args, _ := d.Get("arguments")
			res, _ := d.Get("result")
			at, err := pyvalue.AppendJSON(nil, args, pyjson.Unicode, false)
			require.NoError(t, err)
			rt, err := pyvalue.AppendJSON(nil, res, pyjson.Unicode, false)
			require.NoError(t, err)
			cs = append(cs, textCall{where: pyvalue.Str(seed) + " call " + pyvalue.Str(i) + " " + name.(string),
				tool: name.(string), args: string(at), result: string(rt)})
		}
		scenarios, calls = append(scenarios, id.(string)), append(calls, cs)
	}
	return scenarios, calls
}

// scriptTextDiffs runs one call script as a bot runs it — a fresh state
// sharing src, each call's raw arguments through the live path
// (tool.Set.CallJSON, what the agent loop calls) — and compares every
// delivered result, written as the model reads it (json.dumps(result,
// ensure_ascii=False) in the tool message, replaytest.ResultText), with
// the vector's, byte for byte. It returns the differences.
func scriptTextDiffs(t *testing.T, src *state.Source, calls []textCall) []string {
	t.Helper()
	st := evaairline.NewSharedState(src, &notifier{})
	tools, err := evaairline.NewTools(st, nil)
	require.NoError(t, err)
	set, err := tool.NewSet(tools...)
	require.NoError(t, err)
	var diffs []string
	for _, c := range calls {
		var got any
		require.NoError(t, set.CallJSON(context.Background(), c.tool, []byte(c.args), func(r any) error { got = r; return nil }, quiet))
		if text := replaytest.ResultText(t, got); text != c.result {
			diffs = append(diffs, fmt.Sprintf("%s(%s): the result a model reads differs\nwant %s\n got %s", c.where, c.args, c.result, text))
		}
	}
	return diffs
}

// TestCallScriptTexts runs every call script of eva_airline_calls.jsonl as
// a bot runs it, on the scenario's DB loaded from its fixture
// (LoadScenarioSource), and requires every delivered result to read as
// the model reads it byte for byte as the vector's: the same keys in the
// same order (scriptTextDiffs).
func TestCallScriptTexts(t *testing.T) {
	root := dataRoot(t)
	scenarios, scripts := textScripts(t)
	conformance.RequireRecords(t, len(scripts), "nemo", "eva_airline_calls.jsonl")
	sources := map[string]*state.Source{}
	compared, differ := 0, 0
	for k, calls := range scripts {
		src := sources[scenarios[k]]
		if src == nil {
			var err error
			src, err = evaairline.LoadScenarioSource(root, scenarios[k])
			require.NoError(t, err)
			sources[scenarios[k]] = src
		}
		diffs := scriptTextDiffs(t, src, calls)
		for _, d := range diffs {
			t.Error(d)
		}
		compared, differ = compared+len(calls), differ+len(diffs)
	}
	for id, src := range sources {
		require.NoError(t, src.Verify(), "a script changed the shared DB of %s", id)
	}
	t.Logf("eva_airline: %d/%d results read byte for byte as the original's", compared-differ, compared)
	require.Positive(t, compared)
	assert.Zero(t, differ)
}

// TestCallScriptTextsSeeKeyOrder shows that the comparison is one of key
// order: with the first two keys of one vector result swapped in memory
// (the same values, another order), exactly that call differs.
func TestCallScriptTextsSeeKeyOrder(t *testing.T) {
	scenarios, scripts := textScripts(t)
	for k, calls := range scripts {
		for i, c := range calls {
			v, err := pyvalue.Loads([]byte(c.result))
			require.NoError(t, err)
			d, ok := v.(pyvalue.Dict)
			if !ok || len(d) < 2 {
				continue
			}
			src, err := evaairline.LoadScenarioSource(dataRoot(t), scenarios[k])
			require.NoError(t, err)
			require.Empty(t, scriptTextDiffs(t, src, calls), "the vectors as they are")
			d = slices.Clone(d)
			d[0], d[1] = d[1], d[0]
			swapped, err := pyvalue.AppendJSON(nil, d, pyjson.Unicode, false)
			require.NoError(t, err)
			mutated := slices.Clone(calls)
			mutated[i].result = string(swapped)
			diffs := scriptTextDiffs(t, src, mutated)
			require.Len(t, diffs, 1, "one result with two keys swapped")
			require.True(t, strings.HasPrefix(diffs[0], c.where+"("), diffs[0])
			return
		}
	}
	t.Fatal("no vector result is an object of two keys")
}

// quiet drops the log of the exceptions the scripts provoke on purpose.
var quiet = &tool.CallOptions{Logger: slog.New(slog.DiscardHandler)}
