package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/evascript"
	"github.com/voiceeval/schematools/domains/nemo/scenarios"
	"github.com/voiceeval/schematools/domains/tau2script"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// keepRuns keeps the whole-set tests' run directories, for
// scripts/nemo-rescore (regenerating testdata/nemo_verdicts_*.jsonl).
var keepRuns = flag.String("keep-runs", "", "directory to keep the whole-set runs in")

// sweep runs evaluate with args and mutate and returns each scenario's
// metrics.json, by name, from results.jsonl's names.
func sweep(t *testing.T, mutate mutator, args ...string) map[string]map[string]any {
	t.Helper()
	out := t.TempDir()
	if *keepRuns != "" {
		if err := os.MkdirAll(*keepRuns, 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if out, err = os.MkdirTemp(*keepRuns, t.Name()+"-"); err != nil {
			t.Fatal(err)
		}
	}
	dir := runDir(t, out, mutate, args...)
	rf, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	got := map[string]map[string]any{}
	sc := bufio.NewScanner(rf)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var l struct {
			Scenario string `json:"scenario"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		got[l.Scenario] = readMetrics(t, dir, l.Scenario)
	}
	return got
}

// goldSet is every shipped scenario with a gold stand-in, from the data.
func goldSet(t *testing.T) []string {
	t.Helper()
	names, err := scenarios.Names()
	if err != nil {
		t.Fatal(err)
	}
	var g golds
	var out []string
	for _, n := range names {
		if _, _, err := g.scripts(n); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// failed is the success_breakdown's failed list.
func failed(m map[string]any) []string {
	bd, _ := m["success_breakdown"].(map[string]any)
	var out []string
	for _, s := range bd["failed"].([]any) {
		out = append(out, s.(string))
	}
	return out
}

// Every scenario with a gold stand-in — all tau2 airline, retail and
// telecom scenarios and every eva_airline scenario with a gold path — is
// scored successful in one run: DB_STATE_MATCH (DB_STATE_ASSERTION for
// telecom) and CLEAN_EXIT pass, no turn gate. Every summary is verified
// (-verify, on by default): reproducible from the actions it reports —
// the gold domains' tools are deterministic, none is skipped.
func TestWholeGoldSetSucceeds(t *testing.T) {
	want := goldSet(t)
	byGroup := map[string]int{}
	for _, n := range want {
		g, _, _ := strings.Cut(n, "__")
		byGroup[g]++
	}
	for _, g := range goldDomains {
		if byGroup[g] == 0 {
			t.Fatalf("no %s scenario in the gold set (%v)", g, byGroup)
		}
	}
	got := sweep(t, nil, "-domain", allGold, "-parallel", "4")
	verified := map[string]int{}
	if len(got) != len(want) {
		t.Fatalf("%d scenarios scored, want %d", len(got), len(want))
	}
	for _, n := range want {
		m := got[n]
		if m == nil {
			t.Errorf("%s: not run", n)
			continue
		}
		sig := "db_state_match"
		if strings.HasPrefix(n, "tau2_telecom__") {
			sig = "db_state_assertion"
		}
		bd := m["success_breakdown"].(map[string]any)
		passed := fmt.Sprint(bd["passed"])
		// Telecom's DB_STATE_MATCH is no success signal, but it is scored:
		// against the day's expected DB (nemoeval.Dated), as NeMo does.
		dbMatch := m["db_state_match"] == true || m["db_state_expected_hash"] == nil
		if m["is_successful"] != true || m["clean_exit"] != true || !strings.Contains(passed, sig) || m["insufficient_agent_turns"] != nil || !dbMatch {
			t.Errorf("%s: successful %v clean_exit %v db_state_match %v breakdown %v", n, m["is_successful"], m["clean_exit"], m["db_state_match"], bd)
		}
		if m["summary_verified"] != true || m["summary_verification"] != nil {
			t.Errorf("%s: summary_verified %v: %v", n, m["summary_verified"], m["summary_verification"])
		} else {
			g, _, _ := strings.Cut(n, "__")
			verified[g]++
		}
	}
	if !maps.Equal(verified, byGroup) {
		t.Errorf("summaries verified %v, want every one of %v", verified, byGroup)
	}
	t.Logf("gold set: %d scenarios successful %v, summaries verified %v", len(want), byGroup, verified)
	requireNemoVerdicts(t, "nemo_verdicts_gold.jsonl", got)
}

// isReadCall reports whether a model-facing tool name only reads (tau2's
// and eva's Get…/Find…/Search…/List…/Check… tools, calculate).
func isReadCall(name string) bool {
	n := strings.ToLower(name)
	for _, p := range []string{"get", "find", "search", "list", "check", "calculate"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// isExitCall reports whether a tool ends the conversation (sends <exit>):
// the end tool and the transfers to a human.
func isExitCall(name string) bool {
	return name == tau2script.EndTool || strings.Contains(strings.ToLower(name), "transfer")
}

// isWrite reports whether a call may change the DB.
func isWrite(c tool.ModelCall) bool { return !isReadCall(c.Name) && !isExitCall(c.Name) }

// writes returns the indexes of the responses of turns with a write call.
func writes(turns []agenttest.Turn) []int {
	var out []int
	for i, t := range turns {
		if slices.ContainsFunc(t.Calls, isWrite) {
			out = append(out, i)
		}
	}
	return out
}

// padded prepends greetings until turns has tau2script.MinResponses
// responses, so that a variant trips no turn gate it does not mean to.
func padded(turns []agenttest.Turn) []agenttest.Turn {
	for len(turns) < tau2script.MinResponses {
		turns = append([]agenttest.Turn{{Text: tau2script.AgentGreets}}, turns...)
	}
	return turns
}

// wrongArgs changes the first argument (in key order) that is a string
// (suffixed), a bool (negated) or a number (plus 7); false when none is.
func wrongArgs(c *tool.ModelCall) bool {
	var args map[string]any
	if json.Unmarshal([]byte(c.Arguments), &args) != nil {
		return false
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch v := args[k].(type) {
		case string:
			args[k] = v + "_WRONG"
		case bool:
			args[k] = !v
		case float64:
			args[k] = v + 7
		default:
			continue
		}
		b, _ := json.Marshal(args)
		c.Arguments = string(b)
		return true
	}
	return false
}

// initialHashes are the DB hashes scenarios start from: the tau2
// domains' DBs, each eva_airline scenario's fixture.
var (
	initialMu     sync.Mutex
	initialHashes = map[string]string{}
)

// hasEffectiveWrite reports whether the scenario's gold changes the DB it
// is scored on: its expected hash differs from its initial one (telecom:
// its assertions are about the phone its user fixes, always). Where it
// does not, a dropped or wrong write leaves DB_STATE_MATCH passing, and
// is no broken variant.
func hasEffectiveWrite(name string) bool {
	if isTelecom(name) {
		return true
	}
	s, err := scenarios.Get(name)
	if err != nil || s.Metadata.ExpectedDBHash == "" {
		return false
	}
	group, id, _ := strings.Cut(name, "__")
	key := group
	if group == "eva_airline" {
		key = name
	}
	initialMu.Lock()
	defer initialMu.Unlock()
	h, ok := initialHashes[key]
	if !ok {
		d, err := domains.Find(group)
		if err != nil {
			return false
		}
		var db map[string]any
		if group == "eva_airline" {
			db, err = d.ScenarioDB(evascript.ID(id))
		} else {
			db, err = state.LoadDBFS(d.Files, d.DB)
		}
		if err != nil {
			return false
		}
		if h, err = dbhash.Hash(db); err != nil {
			return false
		}
		initialHashes[key] = h
	}
	return h != s.Metadata.ExpectedDBHash
}

// brokenVariant is a broken copy of a scenario's gold scripts and the
// signal it must fail.
type brokenVariant struct {
	name string
	// apply returns the broken scripts; ok is false when the variant does
	// not apply to the scenario (nothing to drop).
	apply func(name string, gold scripts) (s scripts, ok bool)
	// check returns what is wrong with the variant's metrics ("" when it
	// failed as it must).
	check func(name string, m map[string]any) string
	// stall: its runs end at the duration bound.
	stall bool
}

func isTelecom(name string) bool { return strings.HasPrefix(name, "tau2_telecom__") }

// dbSignalFailed checks that the DB signal of the scenario failed.
func dbSignalFailed(name string, m map[string]any) string {
	sig := "db_state_match"
	if isTelecom(name) {
		sig = "db_state_assertion"
	}
	if m["is_successful"] != false || !slices.Contains(failed(m), sig) || m["insufficient_agent_turns"] != nil {
		return fmt.Sprintf("successful %v, failed %v, insufficient turns %v: want %s failed", m["is_successful"], failed(m), m["insufficient_agent_turns"], sig)
	}
	return ""
}

// dropExits removes the calls that end the conversation.
func dropExits(turns []agenttest.Turn) []agenttest.Turn {
	out := slices.Clone(turns)
	for i, t := range out {
		t.Calls = slices.DeleteFunc(slices.Clone(t.Calls), func(c tool.ModelCall) bool { return isExitCall(c.Name) })
		if t.Text == "" && len(t.Calls) == 0 {
			t.Text = "One moment, please."
		}
		out[i] = t
	}
	return out
}

var brokenVariants = []brokenVariant{
	{
		// The agent's last write; in telecom, where the user's actions on
		// the phone fix what the assertions read, all of the user's.
		name: "write dropped",
		apply: func(name string, s scripts) (scripts, bool) {
			if !hasEffectiveWrite(name) {
				return s, false
			}
			if isTelecom(name) {
				w := writes(s.user)
				if len(w) == 0 {
					return s, false
				}
				s.user = slices.DeleteFunc(slices.Clone(s.user), func(t agenttest.Turn) bool { return slices.ContainsFunc(t.Calls, isWrite) })
				return s, true
			}
			w := writes(s.agent)
			if len(w) == 0 {
				return s, false
			}
			s.agent = padded(slices.Delete(slices.Clone(s.agent), w[len(w)-1], w[len(w)-1]+1))
			return s, true
		},
		check: dbSignalFailed,
	},
	{
		// One argument of the agent's last write (telecom: of the user's
		// last write that has arguments).
		name: "wrong argument",
		apply: func(name string, s scripts) (scripts, bool) {
			if !hasEffectiveWrite(name) {
				return s, false
			}
			turns := &s.agent
			if isTelecom(name) {
				turns = &s.user
			}
			*turns = slices.Clone(*turns)
			w := writes(*turns)
			for k := len(w) - 1; k >= 0; k-- {
				t := (*turns)[w[k]]
				t.Calls = slices.Clone(t.Calls)
				for j := range t.Calls {
					if isWrite(t.Calls[j]) && wrongArgs(&t.Calls[j]) {
						(*turns)[w[k]] = t
						return s, true
					}
				}
			}
			return s, false
		},
		check: dbSignalFailed,
	},
	{
		name: "no end call",
		apply: func(_ string, s scripts) (scripts, bool) {
			s.agent = dropExits(s.agent)
			return s, true
		},
		check: func(_ string, m map[string]any) string {
			if m["is_successful"] != false || m["clean_exit"] != false || m["stop_reason"] == "[EXIT]" || !slices.Contains(failed(m), "clean_exit") {
				return fmt.Sprintf("successful %v clean_exit %v stop %v failed %v", m["is_successful"], m["clean_exit"], m["stop_reason"], failed(m))
			}
			return ""
		},
	},
	{
		// Two responses (no end call among them), then a model that never
		// answers: the run ends at the duration bound.
		name:  "stalls under 3 turns",
		stall: true,
		apply: func(_ string, s scripts) (scripts, bool) {
			s.agent, s.stall = dropExits(s.agent[:tau2script.MinResponses-1]), true
			return s, true
		},
		check: func(_ string, m map[string]any) string {
			if m["is_successful"] != false || m["insufficient_agent_turns"] != true || m["is_task_successful"] != false {
				return fmt.Sprintf("successful %v insufficient_agent_turns %v task %v", m["is_successful"], m["insufficient_agent_turns"], m["is_task_successful"])
			}
			if tok, _ := m["token_usage"].(map[string]any); fmt.Sprint(tok["agent"].(map[string]any)["n_calls"]) != "2" {
				return fmt.Sprintf("agent n_calls %v, want 2", tok["agent"])
			}
			return ""
		},
	},
}

// Every scenario of the gold set, broken in one of four ways (taken in
// turn, the first that applies), fails with the signal the break must
// fail: a write dropped or a wrong argument fails the DB signal
// (DB_STATE_MATCH, telecom's DB_STATE_ASSERTION), no end call fails
// CLEAN_EXIT, an agent that stalls after 2 responses trips the turn gate.
// The bots report what they did, so every summary verifies (a write
// reported and not applied is TestVerifyFlagsAWriteReportedNotApplied).
func TestWholeSetBrokenVariantsFail(t *testing.T) {
	set := goldSet(t)
	assigned := map[string]int{}
	var g golds
	for i, n := range set {
		a, u, err := g.scripts(n)
		if err != nil {
			t.Fatal(err)
		}
		for k := range brokenVariants {
			v := (i + k) % len(brokenVariants)
			if _, ok := brokenVariants[v].apply(n, scripts{agent: a, user: u}); ok {
				assigned[n] = v
				break
			}
		}
	}
	mutate := func(name string, _ int, s scripts) scripts {
		out, _ := brokenVariants[assigned[name]].apply(name, s)
		return out
	}
	// -max-turns ends a run with no end call (a gold run has at most 9
	// turns). The stalled runs end at their -timeout, which must not end
	// any other run however loaded the machine: they run apart.
	var stalled, others []string
	for _, n := range set {
		if brokenVariants[assigned[n]].stall {
			stalled = append(stalled, n)
		} else {
			others = append(others, n)
		}
	}
	got := sweep(t, mutate, "-scenarios", strings.Join(others, ","), "-parallel", "8", "-max-turns", "14", "-timeout", "2m")
	maps.Copy(got, sweep(t, mutate, "-scenarios", strings.Join(stalled, ","), "-parallel", "16", "-timeout", "2s"))
	counts, verified := map[string]int{}, 0
	for _, n := range set {
		v := brokenVariants[assigned[n]]
		counts[v.name]++
		m := got[n]
		if m == nil {
			t.Errorf("%s (%s): not run", n, v.name)
			continue
		}
		if msg := v.check(n, m); msg != "" {
			t.Errorf("%s (%s): %s", n, v.name, msg)
		}
		// A broken script makes a bot fail, not lie: what it reports is
		// what it did, and its summary verifies.
		if m["summary_verified"] != true {
			t.Errorf("%s (%s): summary_verified %v: %v", n, v.name, m["summary_verified"], m["summary_verification"])
		} else {
			verified++
		}
	}
	for _, v := range brokenVariants {
		if counts[v.name] == 0 {
			t.Errorf("no scenario ran %q", v.name)
		}
	}
	t.Logf("broken variants over %d scenarios: %v, summaries verified %d", len(set), counts, verified)
	requireNemoVerdicts(t, "nemo_verdicts_broken.jsonl", got)
}
