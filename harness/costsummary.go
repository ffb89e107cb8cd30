package harness

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// fileCostSummary and fileCostSummaryText are this harness's additions:
// the run's cost per role, per domain and in all, summed from the
// finished scenarios' cost.json files (costSummary), as JSON and as text.
// NeMo's all_summary.txt is left as its runner writes it.
const (
	fileCostSummary     = "cost_summary.json"
	fileCostSummaryText = "cost_summary.txt"
)

// sideTotals sums one role over scenarios. A sum is null when a
// scenario's part is unknown; the *Known fields sum what is known.
type sideTotals struct {
	// Models are the model names seen, sorted ("" not listed).
	Models            []string `json:"models"`
	Calls             *int64   `json:"calls"`
	CallsWithoutUsage *int64   `json:"calls_without_usage"`
	Prompt            *int64   `json:"prompt"`
	Completion        *int64   `json:"completion"`
	CachedPrompt      *int64   `json:"cached_prompt"`
	CostUSD           *float64 `json:"cost_usd"`
	// CostUSDKnown sums the scenarios whose cost of this role is known,
	// ScenariosCostUnknown counts the others.
	CostUSDKnown         float64 `json:"cost_usd_known"`
	ScenariosCostUnknown int     `json:"scenarios_cost_unknown"`
}

// costTotals sums scenarios: a domain's, or the run's.
type costTotals struct {
	Scenarios int `json:"scenarios"`
	// CostUSD is the sum of the scenarios' costs, null when any is
	// unknown; CostUSDKnown sums the known ones, and
	// ScenariosCostUnknown counts the others.
	CostUSD              *float64   `json:"cost_usd"`
	CostUSDKnown         float64    `json:"cost_usd_known"`
	ScenariosCostUnknown int        `json:"scenarios_cost_unknown"`
	Agent                sideTotals `json:"agent"`
	User                 sideTotals `json:"user"`
	Judge                sideTotals `json:"judge"`
}

// unknownCost is a scenario whose cost is not known, and why.
type unknownCost struct {
	Scenario string `json:"scenario"`
	Reason   string `json:"reason"`
}

// costSummaryFile is cost_summary.json: the finished scenarios of the run
// directory, in all and per domain (by name), and those whose cost is
// unknown, in queue order.
type costSummaryFile struct {
	Run     costTotals            `json:"run"`
	Domains map[string]costTotals `json:"domains"`
	Unknown []unknownCost         `json:"unknown"`
}

// addInt adds a known part to a sum that stays null once a part is not.
func addInt(sum **int64, part *int64, first bool) {
	switch {
	case part == nil:
		*sum = nil
	case first:
		*sum = some(*part)
	case *sum == nil:
		*sum = nil
	default:
		*sum = some(**sum + *part)
	}
}

// add adds one scenario's role (s nil: the scenario had no such role,
// as a run without a judge: nothing spent).
func (t *sideTotals) add(s *sideCost, first bool) {
	if s == nil {
		s = &sideCost{Calls: some(int64(0)), CallsWithoutUsage: some(int64(0)), Prompt: some(int64(0)), Completion: some(int64(0)), CostUSD: some(0.0)}
	}
	if s.Model != nil && !slices.Contains(t.Models, *s.Model) {
		t.Models = append(t.Models, *s.Model)
		slices.Sort(t.Models)
	}
	addInt(&t.Calls, s.Calls, first)
	addInt(&t.CallsWithoutUsage, s.CallsWithoutUsage, first)
	addInt(&t.Prompt, s.Prompt, first)
	addInt(&t.Completion, s.Completion, first)
	// Cached tokens: the sum of what was reported, null when nothing was.
	if s.CachedPrompt != nil {
		t.CachedPrompt = some(valueOr(t.CachedPrompt) + *s.CachedPrompt)
	}
	switch {
	case s.CostUSD == nil:
		t.ScenariosCostUnknown++
		t.CostUSD = nil
	case first:
		t.CostUSD = some(*s.CostUSD)
	case t.CostUSD != nil:
		t.CostUSD = some(roundUSD(*t.CostUSD + *s.CostUSD))
	}
	if s.CostUSD != nil {
		t.CostUSDKnown = roundUSD(t.CostUSDKnown + *s.CostUSD)
	}
}

// add adds one scenario's cost.json (f nil: the scenario has none, its
// cost unknown).
func (t *costTotals) add(f *costFile) {
	first := t.Scenarios == 0
	t.Scenarios++
	if f == nil {
		f = &costFile{}
		t.Agent.add(&sideCost{}, first)
		t.User.add(&sideCost{}, first)
		t.Judge.add(&sideCost{}, first)
	} else {
		t.Agent.add(&f.Agent, first)
		t.User.add(&f.User, first)
		t.Judge.add(f.Judge, first)
	}
	switch {
	case f.CostUSD == nil:
		t.ScenariosCostUnknown++
		t.CostUSD = nil
	case first:
		t.CostUSD = some(*f.CostUSD)
	case t.CostUSD != nil:
		t.CostUSD = some(roundUSD(*t.CostUSD + *f.CostUSD))
	}
	if f.CostUSD != nil {
		t.CostUSDKnown = roundUSD(t.CostUSDKnown + *f.CostUSD)
	}
}

// costSummary sums the finished scenarios' cost.json files: the run's
// cost_summary.json, or nil when no scenario has one (a run whose
// scenarios were not measured, as the fixtures'). An unreadable cost.json
// is an error.
func (w *runWriter) costSummary(lines []*resultLine) (*costSummaryFile, error) {
	s, _, errs := sumCosts(lines, w.ScenarioDir)
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("harness: %s/%s: %w", lines[i].Scenario, fileCost, err)
		}
	}
	return s, nil
}

// sumCosts reads the scenarios' cost.json files (in scenarioDir) and sums
// them in all and per domain; a scenario without the file counts as one
// of unknown cost, and so does one whose file cannot be read. It returns
// the summary, nil when no scenario has a readable file, and by line
// each scenario's cost.json (nil without one) and read error.
func sumCosts(lines []*resultLine, scenarioDir func(string) string) (*costSummaryFile, []*costFile, []error) {
	s := &costSummaryFile{Domains: map[string]costTotals{}, Unknown: []unknownCost{}}
	files, errs := make([]*costFile, len(lines)), make([]error, len(lines))
	found := false
	for i, l := range lines {
		f, err := readCostFile(filepath.Join(scenarioDir(l.Scenario), fileCost))
		switch {
		case err != nil:
			errs[i], f = err, nil
			s.Unknown = append(s.Unknown, unknownCost{Scenario: l.Scenario, Reason: fileCost + " unreadable (" + err.Error() + ")"})
		case f == nil:
			s.Unknown = append(s.Unknown, unknownCost{Scenario: l.Scenario, Reason: "no " + fileCost + " (the scenario was not measured)"})
		default:
			found = true
			if f.CostUSD == nil {
				s.Unknown = append(s.Unknown, unknownCost{Scenario: l.Scenario, Reason: valueOr(f.CostUnknown)})
			}
		}
		files[i] = f
		s.Run.add(f)
		d := s.Domains[l.Domain]
		d.add(f)
		s.Domains[l.Domain] = d
	}
	if !found {
		return nil, files, errs
	}
	return s, files, errs
}

// usd formats dollars as the text summary writes them.
func usd(x *float64) string {
	if x == nil {
		return "unknown"
	}
	return "$" + strconv.FormatFloat(*x, 'f', -1, 64)
}

// costText is cost_summary.txt: the run's and each domain's cost, each
// role's, and the scenarios whose cost is unknown.
func costText(s *costSummaryFile) []byte {
	var b strings.Builder
	total := func(t costTotals) string {
		out := fmt.Sprintf("%s over %d scenario(s) (agent %s, user %s, judge %s)", usd(t.CostUSD), t.Scenarios, usd(t.Agent.CostUSD), usd(t.User.CostUSD), usd(t.Judge.CostUSD))
		if t.ScenariosCostUnknown > 0 {
			out += fmt.Sprintf("; %d scenario(s) of unknown cost, the others $%s", t.ScenariosCostUnknown, strconv.FormatFloat(t.CostUSDKnown, 'f', -1, 64))
		}
		return out
	}
	b.WriteString("Cost (US dollars, from each scenario's " + fileCost + "; " + fileCostSummary + " has the tokens):\n")
	fmt.Fprintf(&b, "  Run: %s\n", total(s.Run))
	for _, role := range []struct {
		name string
		t    sideTotals
	}{{"agent", s.Run.Agent}, {"user", s.Run.User}, {"judge", s.Run.Judge}} {
		models := strings.Join(role.t.Models, ", ")
		if models == "" {
			models = "not named"
		}
		fmt.Fprintf(&b, "  %s (%s): %s call(s), prompt %s, completion %s, cached prompt %s\n", role.name, models,
			tokenCount(role.t.Calls), tokenCount(role.t.Prompt), tokenCount(role.t.Completion), cachedCount(role.t.CachedPrompt))
	}
	domains := make([]string, 0, len(s.Domains))
	for d := range s.Domains {
		domains = append(domains, d)
	}
	slices.Sort(domains)
	b.WriteString("Per domain:\n")
	for _, d := range domains {
		fmt.Fprintf(&b, "  %s: %s\n", d, total(s.Domains[d]))
	}
	if len(s.Unknown) > 0 {
		b.WriteString("Unknown cost:\n")
		for _, u := range s.Unknown {
			fmt.Fprintf(&b, "  %s: %s\n", u.Scenario, u.Reason)
		}
	}
	return []byte(b.String())
}

// cachedCount is a cached prompt count; nil: no call reported one.
func cachedCount(n *int64) string {
	if n == nil {
		return "not reported"
	}
	return thousands(*n)
}

func tokenCount(n *int64) string {
	if n == nil {
		return "unknown"
	}
	return thousands(*n)
}

// writeCostSummary writes cost_summary.json and cost_summary.txt when
// some finished scenario has a cost.json.
func (w *runWriter) writeCostSummary(lines []*resultLine) error {
	s, err := w.costSummary(lines)
	if err != nil || s == nil {
		return err
	}
	b, err := marshalIndented(s)
	if err != nil {
		return err
	}
	if err := replaceFile(filepath.Join(w.dir, fileCostSummary), b); err != nil {
		return err
	}
	return replaceFile(filepath.Join(w.dir, fileCostSummaryText), costText(s))
}
