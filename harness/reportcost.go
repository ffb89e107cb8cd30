package harness

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// maxCostFileBytes bounds the cost.json and cost_summary.json the report
// reads (a per-call list is at most 10,000 entries a role).
const maxCostFileBytes = 16 << 20

// costRow is one line of the report's cost table: the run, a domain or,
// in a trials report, a trial.
type costRow struct {
	Name                string
	Scenarios           int
	Cost                string // "$…", or "unknown" when a scenario's cost is
	Known               string // the known part, when Cost is unknown
	Unknown             int    // scenarios of unknown cost
	Agent, User, Judge  string // each role's cost and tokens
	AgentM, UserM, JdgM string // each role's models
}

// costView is the report's "Cost" section; nil when no scenario of the
// run has a cost.json (a run RunScenario did not measure).
type costView struct {
	Rows []costRow
	// Unknown lists why scenarios' costs are unknown (at most 50).
	Unknown []unknownCost
	More    int
}

func sideText(s sideTotals) string {
	t := usd(s.CostUSD)
	if s.Prompt != nil && s.Completion != nil {
		t += " (" + strconv.FormatInt(*s.Prompt, 10) + " prompt, " + strconv.FormatInt(*s.Completion, 10) + " completion"
		if s.CachedPrompt != nil {
			t += ", " + strconv.FormatInt(*s.CachedPrompt, 10) + " cached"
		}
		t += ")"
	} else {
		t += " (tokens unknown)"
	}
	return t
}

func modelsText(ms []string) string {
	if len(ms) == 0 {
		return "–"
	}
	out := ms[0]
	for _, m := range ms[1:] {
		out += ", " + m
	}
	return out
}

func rowOf(name string, t costTotals) costRow {
	r := costRow{Name: name, Scenarios: t.Scenarios, Cost: usd(t.CostUSD), Unknown: t.ScenariosCostUnknown,
		Agent: sideText(t.Agent), User: sideText(t.User), Judge: sideText(t.Judge),
		AgentM: modelsText(t.Agent.Models), UserM: modelsText(t.User.Models), JdgM: modelsText(t.Judge.Models)}
	if t.CostUSD == nil {
		r.Known = usd(&t.CostUSDKnown)
	}
	return r
}

// readCostFile reads a scenario's cost.json; nil, nil when it has none.
func readCostFile(path string) (*costFile, error) {
	var f costFile
	if err := readBoundedJSON(path, &f); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	return &f, nil
}

func readBoundedJSON(path string, v any) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxCostFileBytes+1))
	if err != nil {
		return err
	}
	if len(b) > maxCostFileBytes {
		return errors.New("larger than 16 MiB")
	}
	return json.Unmarshal(b, v)
}

// scenarioCostText is a scenario's cost line in the report: "" without a
// cost.json, "$…", or "unknown: <reason>".
func scenarioCostText(f *costFile, err error) string {
	switch {
	case err != nil:
		return "unknown: " + fileCost + " unreadable (" + err.Error() + ")"
	case f == nil:
		return ""
	case f.CostUSD != nil:
		return usd(f.CostUSD)
	case f.CostUnknown != nil:
		return "unknown: " + *f.CostUnknown
	}
	return "unknown"
}

// reportCost is the report's cost section, from the sums cost_summary.json
// holds (sumCosts), and sets each scenario's cost line. A run with no
// cost.json has no section.
func reportCost(lines []*resultLine, scenarioDir func(string) string, views []scenarioView) *costView {
	if scenarioDir == nil {
		return nil
	}
	s, files, errs := sumCosts(lines, scenarioDir)
	for i := range lines {
		if i < len(views) {
			views[i].Cost = scenarioCostText(files[i], errs[i])
		}
	}
	if s == nil {
		return nil
	}
	v := &costView{Rows: []costRow{rowOf("Run", s.Run)}}
	names := make([]string, 0, len(s.Domains))
	for d := range s.Domains {
		names = append(names, d)
	}
	slices.Sort(names)
	for _, d := range names {
		v.Rows = append(v.Rows, rowOf(d, s.Domains[d]))
	}
	unknown := s.Unknown
	if len(unknown) > 50 {
		v.More = len(unknown) - 50
		unknown = unknown[:50]
	}
	v.Unknown = unknown
	return v
}

// trialsCost reads each trial's cost_summary.json into the trials
// report's cost section: a row per trial and their sum; nil when no
// trial has one.
func trialsCost(dir string, trials int) *costView {
	var sum costTotals
	var rows []costRow
	found := false
	known := true
	for t := 1; t <= trials; t++ {
		var s costSummaryFile
		name := "trial " + strconv.Itoa(t)
		if err := readBoundedJSON(filepath.Join(trialDir(dir, t), fileCostSummary), &s); err != nil {
			rows = append(rows, costRow{Name: name, Cost: "unknown", Known: "$0", Agent: "–", User: "–", Judge: "–",
				AgentM: "–", UserM: "–", JdgM: "–"})
			known = false
			continue
		}
		found = true
		rows = append(rows, rowOf(name, s.Run))
		sum.Scenarios += s.Run.Scenarios
		sum.ScenariosCostUnknown += s.Run.ScenariosCostUnknown
		sum.CostUSDKnown = roundUSD(sum.CostUSDKnown + s.Run.CostUSDKnown)
		if s.Run.CostUSD == nil {
			known = false
		}
	}
	if !found {
		return nil
	}
	total := costRow{Name: "All trials", Scenarios: sum.Scenarios, Cost: "unknown", Known: usd(&sum.CostUSDKnown),
		Unknown: sum.ScenariosCostUnknown, Agent: "–", User: "–", Judge: "–", AgentM: "–", UserM: "–", JdgM: "–"}
	if known {
		total.Cost, total.Known = usd(&sum.CostUSDKnown), ""
	}
	return &costView{Rows: append([]costRow{total}, rows...)}
}
