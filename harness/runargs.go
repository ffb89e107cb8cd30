package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// invocation is one run_args.json record (run_evaluation.py
// _build_invocation_record).
type invocation struct {
	// StartedAt is datetime.now().isoformat(timespec="seconds").
	StartedAt string
	Argv      []string
	// ParsedArgs are the parsed flags in argparse's order (vars(args));
	// a truthy judge_api_key is written as "<redacted>".
	ParsedArgs pyvalue.Dict
	// ScenarioNames are the resolved scenarios.
	ScenarioNames []string
}

// writeRunArgs writes or, on resume, appends to runDir/run_args.json
// (_write_run_args): {"invocations": [record, ...]}, json.dump(indent=2);
// a resumed record gets resumed_from_invocation, the index of the one
// before it. An unreadable or old-shaped file on resume starts a fresh
// list (the old object kept as its first entry), as NeMo does.
func writeRunArgs(runDir string, inv invocation, resume bool) error {
	path := filepath.Join(runDir, fileRunArgs)
	args := make(pyvalue.Dict, 0, len(inv.ParsedArgs))
	for _, it := range inv.ParsedArgs.Items() {
		if it.Key == "judge_api_key" && pyvalue.Truthy(it.Value) {
			it.Value = "<redacted>"
		}
		args = append(args, it)
	}
	argv := make([]any, len(inv.Argv))
	for i, a := range inv.Argv {
		argv[i] = a
	}
	names := make([]any, len(inv.ScenarioNames))
	for i, n := range inv.ScenarioNames {
		names[i] = n
	}
	rec := dict("started_at", inv.StartedAt, "argv", argv, "parsed_args", args,
		"resolved_scenario_count", len(names), "resolved_scenario_names", names)
	var history []any
	if resume {
		b, err := os.ReadFile(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return fmt.Errorf("harness: %w", err)
		default:
			if v, err := pyvalue.Loads(b); err == nil {
				list, ok := dictGet(v, "invocations")
				if l, isList := list.([]any); ok && isList {
					history = l
				} else if pyvalue.Truthy(v) {
					history = []any{v}
				}
			}
		}
		if len(history) > 0 {
			rec = append(rec, pyvalue.Item{Key: "resumed_from_invocation", Value: len(history) - 1})
		}
	}
	b, err := dumpIndent(dict("invocations", append(history, rec)), 2)
	if err != nil {
		return err
	}
	return replaceFile(path, b)
}
