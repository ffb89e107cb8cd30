package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

// fileCost is this harness's addition: a scenario's tokens per role (the
// agent, the user simulator and the judge), each role's model, its calls
// one by one, and their cost (costFile). metrics.json keeps NeMo's keys:
// the judge's tokens and the cost are not among them.
const fileCost = "cost.json"

// Price is one model's price in US dollars per million tokens, as a price
// table holds it (ParsePrices; Options.Prices).
type Price struct {
	// Input prices the prompt tokens not read from a cache; Output the
	// completion tokens (reasoning included, as the providers count it).
	Input, Output float64
	// CachedInput prices the prompt tokens a call reported as read from a
	// cache (cache_read_input_tokens); nil prices them as Input.
	CachedInput *float64
}

// ParsePrices reads a price table: one JSON object of model names, each
// {"input": $, "cached_input": $, "output": $} in US dollars per million
// tokens; input and output are required, cached_input optional, 0 is a
// price (a free model). Anything else is an error: text that is not one
// JSON object, an empty table or model name, a model given twice, an
// unknown key, a price that is missing, null, not a number or negative.
func ParsePrices(b []byte) (map[string]Price, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	fail := func(format string, args ...any) (map[string]Price, error) {
		return nil, fmt.Errorf("harness: prices: "+format, args...)
	}
	tok, err := dec.Token()
	if err != nil {
		return fail("not JSON: %v", err)
	}
	if tok != json.Delim('{') {
		return fail(`not a JSON object of model names ({"model": {"input": $, "cached_input": $, "output": $}}, US dollars per million tokens)`)
	}
	out := map[string]Price{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fail("not JSON: %v", err)
		}
		name, _ := tok.(string)
		if strings.TrimSpace(name) == "" {
			return fail("a model name is empty")
		}
		if _, dup := out[name]; dup {
			return fail("model %q is given twice", name)
		}
		var raw map[string]json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if te := (*json.UnmarshalTypeError)(nil); errors.As(err, &te) {
				return fail("model %q: not an object of prices, but a JSON %s", name, te.Value)
			}
			return fail("not JSON: %v", err)
		}
		if raw == nil {
			return fail("model %q: not an object of prices, but null", name)
		}
		keys := make([]string, 0, len(raw))
		for k := range raw {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var p Price
		for _, k := range keys {
			var dst *float64
			switch k {
			case "input":
				dst = &p.Input
			case "output":
				dst = &p.Output
			case "cached_input":
				p.CachedInput = new(float64)
				dst = p.CachedInput
			default:
				return fail("model %q: unknown key %q (the keys are input, cached_input and output)", name, k)
			}
			var v *float64
			if err := json.Unmarshal(raw[k], &v); err != nil || v == nil {
				return fail("model %q: %s is %s, not a number of dollars per million tokens", name, k, raw[k])
			}
			if *v < 0 {
				return fail("model %q: %s is negative (%v)", name, k, *v)
			}
			*dst = *v
		}
		for _, k := range []string{"input", "output"} {
			if _, ok := raw[k]; !ok {
				return fail("model %q: %s is missing (input and output are required)", name, k)
			}
		}
		out[name] = p
	}
	if _, err := dec.Token(); err != nil {
		return fail("not JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fail("more than one JSON value")
	}
	if len(out) == 0 {
		return fail("the table is empty")
	}
	return out, nil
}

// callUsage is one model call's usage as cost.json lists it: null counts
// are not known (the call reported none, or not that one).
type callUsage struct {
	Prompt       *int64 `json:"prompt"`
	Completion   *int64 `json:"completion"`
	CachedPrompt *int64 `json:"cached_prompt"`
}

// maxListedCalls bounds the calls a side's callLog lists (a bot could
// send tokens entries without end); past it they are counted only
// (per_call_not_listed).
const maxListedCalls = 10_000

// callLog lists one bot's model calls from its metrics events, one per
// tokens entry as the bridge counts them, with the cached prompt tokens
// the entry reported. It is safe for concurrent use (a connection's
// reader feeds it).
type callLog struct {
	mu    sync.Mutex
	calls []callUsage
}

// observe lists the tokens entries of a metrics event.
func (l *callLog) observe(e bridge.Event) {
	if e.Kind != bridge.KindMetrics || len(e.Tokens) == 0 {
		return
	}
	cached := cachedTokens(e.Message, len(e.Tokens))
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, t := range e.Tokens {
		if len(l.calls) >= maxListedCalls {
			return
		}
		c := callUsage{CachedPrompt: cached[i]}
		if t.Partial == 0 {
			p, q := t.Prompt, t.Completion
			c.Prompt, c.Completion = &p, &q
		}
		l.calls = append(l.calls, c)
	}
}

func (l *callLog) list() []callUsage {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.calls)
}

// cachedTokens are the cache_read_input_tokens of a metrics message's n
// tokens entries (pipecat's LLMTokenUsage and rtvi.Usage write them), nil
// where an entry has none, or none that is a non-negative integer.
func cachedTokens(msg string, n int) []*int64 {
	out := make([]*int64, n)
	if !strings.Contains(msg, "cache_read_input_tokens") {
		return out
	}
	v, err := pyvalue.Loads([]byte(msg))
	if err != nil {
		return out
	}
	data, _ := dictGet(v, "data")
	tokens, _ := dictGet(data, "tokens")
	list, _ := tokens.([]any)
	for i := range min(n, len(list)) {
		c, _ := dictGet(list[i], "cache_read_input_tokens")
		switch c.(type) {
		case nil, bool, string:
			continue
		}
		num, err := pyvalue.Int(c)
		if err != nil {
			continue
		}
		if k, ok := num.Int64(); ok && k >= 0 {
			out[i] = &k
		}
	}
	return out
}

// runCalls are both bots' calls as RunScenario listed them.
type runCalls struct {
	agent, user []callUsage
}

// judgeMeter collects the usage of the judge's model calls: Score puts
// it in the judge's context, and ModelJudge reports each call to it.
type judgeMeter struct {
	mu        sync.Mutex
	consulted bool // the judge was asked
	calls     []callUsage
}

type judgeMeterKey struct{}

func withJudgeMeter(ctx context.Context, m *judgeMeter) context.Context {
	return context.WithValue(ctx, judgeMeterKey{}, m)
}

// judgeMeterOf is the meter of the judge's context, nil when none.
func judgeMeterOf(ctx context.Context) *judgeMeter {
	m, _ := ctx.Value(judgeMeterKey{}).(*judgeMeter)
	return m
}

// consult notes that the judge was asked (nil: no meter).
func (m *judgeMeter) consult() {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.consulted = true
	m.mu.Unlock()
}

// add records one model call: its usage, or unknown usage when the call
// failed or its response reported none.
func (m *judgeMeter) add(u agent.Usage, err error) {
	if m == nil {
		return
	}
	var c callUsage
	if err == nil && !u.Missing {
		p, q := int64(u.PromptTokens), int64(u.CompletionTokens)
		c.Prompt, c.Completion = &p, &q
		if u.CacheReadInputTokens != nil {
			k := int64(*u.CacheReadInputTokens)
			c.CachedPrompt = &k
		}
	}
	m.mu.Lock()
	if len(m.calls) < maxListedCalls {
		m.calls = append(m.calls, c)
	}
	m.mu.Unlock()
}

// sideCost is one role's part of cost.json.
type sideCost struct {
	// Model is the model's name, the price table's key (null: not
	// known).
	Model *string `json:"model"`
	// Calls counts the model calls and CallsWithoutUsage those that
	// reported no usage; Prompt and Completion are their sums, null when
	// a call reported none (or, for calls, when the judge reports no
	// calls). CachedPrompt sums the prompt tokens the calls reported as
	// read from a cache, null when none reported it.
	Calls             *int64 `json:"calls"`
	CallsWithoutUsage *int64 `json:"calls_without_usage"`
	Prompt            *int64 `json:"prompt"`
	Completion        *int64 `json:"completion"`
	CachedPrompt      *int64 `json:"cached_prompt"`
	// CostUSD is the cost in US dollars, null when it is not known, and
	// CostUnknown then says why.
	CostUSD     *float64 `json:"cost_usd"`
	CostUnknown *string  `json:"cost_unknown"`
	// PerCall lists the calls one by one, as far as they were seen (a
	// bot's tokens entries; a bot response without one is counted in
	// Calls only), and PerCallNotListed counts the rest.
	PerCall          []callUsage `json:"per_call"`
	PerCallNotListed int64       `json:"per_call_not_listed"`
}

// costFile is cost.json.
type costFile struct {
	Scenario string `json:"scenario"`
	Domain   string `json:"domain"`
	// CostUSD is the three roles' cost, null when any is unknown
	// (CostUnknown says which and why).
	CostUSD     *float64 `json:"cost_usd"`
	CostUnknown *string  `json:"cost_unknown"`
	Agent       sideCost `json:"agent"`
	User        sideCost `json:"user"`
	// Judge is null when the run had no judge.
	Judge *sideCost `json:"judge"`
}

func some[T any](v T) *T { return &v }

// roundUSD rounds a cost to 1e-12 dollars, so that float noise (0.1 +
// 0.2) does not show in the files.
func roundUSD(x float64) float64 { return math.Round(x*1e12) / 1e12 }

// priceCalls is the cost of prompt, completion and cached prompt tokens
// at p.
func priceCalls(p Price, prompt, completion int64, cached *int64) float64 {
	var c int64
	if cached != nil {
		c = min(*cached, prompt)
	}
	cin := p.Input
	if p.CachedInput != nil {
		cin = *p.CachedInput
	}
	return roundUSD((float64(prompt-c)*p.Input + float64(c)*cin + float64(completion)*p.Output) / 1e6)
}

// price sets s's cost from the table, or says why it is not known. A role
// that made no call costs 0, price table or not.
func (s *sideCost) price(role string, prices map[string]Price, unknownCalls string) {
	if s.Calls != nil && *s.Calls == 0 {
		s.CostUSD = some(0.0)
		return
	}
	var why []string
	switch {
	case s.Calls == nil:
		why = append(why, unknownCalls)
	case s.Prompt == nil || s.Completion == nil:
		why = append(why, fmt.Sprintf("%d of %d call(s) reported no usage", *s.CallsWithoutUsage, *s.Calls))
	}
	p, ok := Price{}, false
	switch {
	case prices == nil:
		why = append(why, "no price table")
	case s.Model == nil:
		why = append(why, "the "+role+"'s model is not named")
	default:
		if p, ok = prices[*s.Model]; !ok {
			why = append(why, fmt.Sprintf("model %q is not in the price table", *s.Model))
		}
	}
	if len(why) > 0 {
		s.CostUnknown = some(strings.Join(why, "; "))
		return
	}
	s.CostUSD = some(priceCalls(p, *s.Prompt, *s.Completion, s.CachedPrompt))
}

func modelName(m string) *string {
	if m == "" {
		return nil
	}
	return &m
}

// sumCached sums the cached prompt tokens the calls reported (nil when
// none did).
func sumCached(calls []callUsage) *int64 {
	var sum *int64
	for _, c := range calls {
		if c.CachedPrompt != nil {
			sum = some(*c.CachedPrompt + valueOr(sum))
		}
	}
	return sum
}

func valueOr[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// botCost is a bot's part of cost.json: its token_usage as metrics.json
// has it, its calls as listed (listed false: the run listed none).
func botCost(role string, u Usage, calls []callUsage, listed bool, model string, prices map[string]Price) sideCost {
	s := sideCost{Model: modelName(model), Calls: some(u.NCalls), CallsWithoutUsage: some(u.CallsWithoutUsage),
		CachedPrompt: sumCached(calls), PerCall: calls}
	if s.PerCall == nil {
		s.PerCall = []callUsage{}
	}
	if u.known() {
		s.Prompt, s.Completion = some(u.Prompt), some(u.Completion)
	}
	if listed {
		s.PerCallNotListed = max(u.NCalls-int64(len(calls)), 0)
	} else {
		s.PerCallNotListed = u.NCalls
	}
	s.price(role, prices, "")
	return s
}

// judgeCost is the judge's part of cost.json (nil: no judge).
func judgeCost(m *judgeMeter, model string, prices map[string]Price) *sideCost {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	consulted, calls := m.consulted, slices.Clone(m.calls)
	m.mu.Unlock()
	s := &sideCost{Model: modelName(model), PerCall: calls}
	if s.PerCall == nil {
		s.PerCall = []callUsage{}
	}
	switch {
	case !consulted:
		// Not asked (no evidence): no call, nothing spent.
		s.Calls, s.CallsWithoutUsage, s.Prompt, s.Completion = some(int64(0)), some(int64(0)), some(int64(0)), some(int64(0))
	case len(calls) > 0:
		var n, without, prompt, completion int64
		for _, c := range calls {
			n++
			if c.Prompt == nil || c.Completion == nil {
				without++
				continue
			}
			prompt += *c.Prompt
			completion += *c.Completion
		}
		s.Calls, s.CallsWithoutUsage, s.CachedPrompt = &n, &without, sumCached(calls)
		if without == 0 {
			s.Prompt, s.Completion = &prompt, &completion
		}
	}
	s.price("judge", prices, "the judge reported no model calls (harness.ModelJudge reports them; another Judge does not)")
	return s
}

// scenarioCost is a scored run's cost.json, nil when there is nothing to
// say: a run RunScenario did not measure, with no judge that reported
// usage, no price table and no model named (fixtures and hand-built
// runs keep their files as they were).
func scenarioCost(r *Run, jm *judgeMeter, o Options) *costFile {
	judged := false
	if jm != nil {
		jm.mu.Lock()
		judged = len(jm.calls) > 0
		jm.mu.Unlock()
	}
	if r.calls == nil && !judged && o.Prices == nil && o.AgentModel == "" && o.UserModel == "" && o.JudgeModel == "" {
		return nil
	}
	var rc runCalls
	if r.calls != nil {
		rc = *r.calls
	}
	f := &costFile{Scenario: r.Scenario.Name, Domain: prefix(r.Scenario.Name),
		Agent: botCost("agent", r.Agent.Tokens, rc.agent, r.calls != nil, o.AgentModel, o.Prices),
		User:  botCost("user", r.User.Tokens, rc.user, r.calls != nil, o.UserModel, o.Prices),
		Judge: judgeCost(jm, o.JudgeModel, o.Prices)}
	var total float64
	var why []string
	for _, s := range []struct {
		role string
		s    *sideCost
	}{{"agent", &f.Agent}, {"user", &f.User}, {"judge", f.Judge}} {
		switch {
		case s.s == nil:
		case s.s.CostUSD == nil:
			why = append(why, s.role+": "+valueOr(s.s.CostUnknown))
		default:
			total += *s.s.CostUSD
		}
	}
	if len(why) > 0 {
		f.CostUnknown = some(strings.Join(why, "; "))
	} else {
		f.CostUSD = some(roundUSD(total))
	}
	return f
}

// marshalIndented is v as indented JSON (two spaces, no HTML escaping),
// with a final newline.
func marshalIndented(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
