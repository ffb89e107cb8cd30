package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/nemo/evaairline"
	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/domains/nemo/scenarios"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// revertingTool runs its tool — which records its action and announces
// it, as the real tool does — then puts the DB back as it was: a bot
// that reports a write it did not apply.
type revertingTool struct {
	tool.Tool
	st *state.Shared
}

func (r revertingTool) Execute(ctx context.Context, args map[string]any) (any, error) {
	before := r.st.Snapshot()
	out, err := r.Tool.Execute(ctx, args)
	r.st.SetDB(before)
	return out, err
}

// revertingRegistry is every domain of domains with the tool
// named revert of domain wrapped in a revertingTool.
func revertingRegistry(t *testing.T, domain, revert string) *registry.Tools {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	src := &registry.Tools{Logger: logger}
	if err := domains.Register(src); err != nil {
		t.Fatal(err)
	}
	reg := &registry.Tools{Logger: logger}
	for _, d := range domains.Names() {
		for _, name := range src.Names(d) {
			wrap := d == domain && name == revert
			err := reg.Register(d, name, func(deps registry.Deps) (tool.Tool, error) {
				tl, err := src.New(d, name, deps)
				if err != nil || !wrap {
					return tl, err
				}
				return revertingTool{Tool: tl, st: deps.State}, nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := reg.SetHooks(d, src.Hooks(d)); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Contains(reg.Names(domain), revert) {
		t.Fatalf("%s has no tool %s", domain, revert)
	}
	return reg
}

// serveWith serves an in-process bot on model with the tools of reg, as
// serveBot does with every domain's.
func serveWith(t *testing.T, model agent.Model, reg *registry.Tools, dataRoot string) string {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	brain := &rtviws.AgentBrain{Model: model, Logger: logger}
	srv, err := rtviws.New(rtviws.Config{
		Dispatcher: brain.Wire(rtvi.Config{State: state.New(), Tools: reg, DataRoot: dataRoot, Sources: &state.SourceCache{}, Logger: logger}),
		Brain:      brain,
		Logger:     logger,
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := rtviws.ListenLoopback("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() {
		srv.CloseConnections()
		hs.Close()
	})
	return "ws://" + ln.Addr().String()
}

// A bot whose last write tool records and announces its action but leaves
// the DB as it was — it reports a write it did not apply — fails the DB
// signal, as NeMo scores it, and its summary is flagged: replayed, its
// actions make the DB the gold makes, not the one it reports. The same
// scenario's honest gold run verifies.
func TestVerifyFlagsAWriteReportedNotApplied(t *testing.T) {
	const name = "tau2_airline__7"
	var g golds
	agentTurns, userTurns, err := g.scripts(name)
	if err != nil {
		t.Fatal(err)
	}
	var last string
	for _, turn := range agentTurns {
		for _, c := range turn.Calls {
			if isWrite(c) {
				last = c.Name
			}
		}
	}
	if last == "" {
		t.Fatalf("%s: the gold has no write", name)
	}
	root := t.TempDir()
	if err := domains.WriteDataRoot(root); err != nil {
		t.Fatal(err)
	}
	agentModel, userModel := &agenttest.Model{Fallback: agentFallback}, &agenttest.Model{Fallback: userFallback}
	agentModel.Arm(agentTurns, false)
	userModel.Arm(userTurns, false)
	reg := revertingRegistry(t, "tau2_airline", last)
	agentURL, userURL := serveWith(t, agentModel, reg, root), serveWith(t, userModel, reg, root)

	got := sweep(t, nil, "-scenarios", name, "-agent-url", agentURL, "-user-url", userURL, "-kickoff-delay", "1ms", "-exit-settle", "50ms")
	m := got[name]
	if m == nil {
		t.Fatal("not run")
	}
	if m["is_successful"] != false || m["db_state_match"] != false {
		t.Errorf("is_successful %v db_state_match %v, want false: the write was not applied", m["is_successful"], m["db_state_match"])
	}
	reason, _ := m["summary_verification"].(string)
	if m["summary_verified"] != false || !strings.Contains(reason, "agent summary not reproducible from its actions: replayed hash ") ||
		!strings.Contains(reason, fmt.Sprint(m["db_state_actual_hash"])) {
		t.Errorf("summary_verified %v: %s", m["summary_verified"], reason)
	}
	// The replay applies what the bot reported: the gold's DB.
	if want := fmt.Sprintf("replayed hash %v, reported %v", m["db_state_expected_hash"], m["db_state_actual_hash"]); !strings.Contains(reason, want) {
		t.Errorf("reason %q lacks %q", reason, want)
	}
	t.Logf("%s reverting %s: %s", name, last, reason)

	honest := sweep(t, nil, "-scenarios", name)[name]
	if honest["summary_verified"] != true || honest["is_successful"] != true {
		t.Errorf("the gold run: summary_verified %v is_successful %v (%v)", honest["summary_verified"], honest["is_successful"], honest["summary_verification"])
	}
}

// -verify=false is NeMo's trust: no summary_verified in metrics.json; and
// run_args.json records the flag.
func TestVerifyFlag(t *testing.T) {
	for _, on := range []bool{true, false} {
		dir := evaluateRun(t, "-scenarios", "tau2_retail__1", fmt.Sprintf("-verify=%v", on), "-out", t.TempDir())
		m := readMetrics(t, dir, "tau2_retail__1")
		if _, has := m["summary_verified"]; has != on {
			t.Errorf("-verify=%v: summary_verified %v", on, m["summary_verified"])
		}
		b, err := os.ReadFile(filepath.Join(dir, "run_args.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), fmt.Sprintf(`"verify": %v`, on)) {
			t.Errorf("run_args.json lacks verify %v:\n%s", on, b)
		}
	}
}

// Each domain the command can run is verified or skipped with its reason:
// the tau2 domains and eva_airline have a reference to replay with, the
// default domain's tools keep no DB.
func TestReferencePerDomain(t *testing.T) {
	names, err := scenarios.Names()
	if err != nil {
		t.Fatal(err)
	}
	queue := map[string]*scenarios.Scenario{}
	for _, n := range names {
		s, err := scenarios.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		queue[n] = s
	}
	refs, err := referencesFor(queue, true)
	if err != nil {
		t.Fatal(err)
	}
	off, err := referencesFor(queue, false)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, s := range queue {
		if seen[s.Domain] {
			continue
		}
		seen[s.Domain] = true
		ref := refs.verify[s.Domain]
		if ref == nil {
			t.Errorf("%s: no verification reference", s.Domain)
			continue
		}
		if off.verify[s.Domain] != nil {
			t.Errorf("%s: a verification reference with -verify=false", s.Domain)
		}
		switch s.Domain {
		case "tau2_airline", "tau2_retail", "tau2_telecom", "eva_airline":
			if ref.Unverifiable != "" || ref.Tools == nil {
				t.Errorf("%s: unverifiable (%q)", s.Domain, ref.Unverifiable)
			}
		default:
			if ref.Unverifiable == "" {
				t.Errorf("%s: verified, but its tools keep no DB", s.Domain)
			}
		}
		if two := s.Domain == "tau2_telecom"; (refs.shadow[s.Domain] != nil) != two || (off.shadow[s.Domain] != nil) != two {
			t.Errorf("%s: shadow %v", s.Domain, refs.shadow[s.Domain])
		}
	}
	if refs.shadow["tau2_telecom"] != refs.verify["tau2_telecom"] {
		t.Error("telecom's sync and verification use two references")
	}
	t.Logf("domains: %v", seen)
}

// A partial rebook records no flight number: its record stands for one
// call per flight of the old journey, and the one the bot made verifies.
func TestVerifyEvaPartialRebook(t *testing.T) {
	ids, err := evaairline.ScenarioIDs(nemodata.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		db, err := evaairline.LoadScenarioDB(nemodata.FS, id)
		if err != nil {
			t.Fatal(err)
		}
		st := evaairline.NewState(state.Clone(db).(map[string]any), nil)
		call := partialRebook(t, st, db)
		if call == nil {
			continue
		}
		actions := st.Actions()
		if len(actions) != 1 || actions[0]["partial_rebook"] != true {
			t.Fatalf("%s: %v recorded %v", id, call, actions)
		}
		calls, err := decodeEvaAction(map[string]any(actions[0]))
		if err != nil || len(calls) < 2 {
			t.Fatalf("%s: %v decodes to %v, %v", id, actions[0], calls, err)
		}
		hash, err := st.Hash()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(actions[0])
		var reported any
		_ = json.Unmarshal(b, &reported)
		sc := &harness.Scenario{Name: "eva_airline__x", Domain: evaairline.Domain, SharedStateInitAgent: map[string]any{"db": db}}
		run := &harness.Run{}
		run.Agent.Summary = &harness.Summary{Actions: []any{reported}, DBHash: &hash}
		v := harness.VerifySummaries(context.Background(), &harness.Reference{Tools: evaTools, Decode: decodeEvaAction}, sc, run, nil)
		if v.Value() != true {
			t.Fatalf("%s: %v: %v %s", id, call, v.Value(), v.Reason)
		}
		// The wrong flight's DB is not the bot's.
		other := map[string]any(state.Clone(actions[0]).(state.Action))
		other["old_journey_id"] = "FL_SK000_SK001_20990101"
		run.Agent.Summary.Actions = []any{other}
		if v := harness.VerifySummaries(context.Background(), &harness.Reference{Tools: evaTools, Decode: decodeEvaAction}, sc, run, nil); v.Value() != false {
			t.Fatalf("%s: a made-up journey verifies: %v %s", id, v.Value(), v.Reason)
		}
		t.Logf("%s: %v verified among %d candidates", id, call, len(calls))
		return
	}
	t.Fatal("no eva_airline fixture has a booking of several flights to rebook in part")
}

// partialRebook rebooks one flight of a booking of several flights in
// db (on st) to another journey, and returns the call; nil when no
// rebook succeeds.
func partialRebook(t *testing.T, st *state.Shared, db map[string]any) map[string]any {
	t.Helper()
	tl, err := evaairline.New(evaairline.NameRebookFlight, st, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	journeys, _ := db["journeys"].(map[string]any)
	reservations, _ := db["reservations"].(map[string]any)
	for conf, r := range reservations {
		bookings, _ := r.(map[string]any)["bookings"].([]any)
		for _, b := range bookings {
			bk, _ := b.(map[string]any)
			segs, _ := bk["segments"].([]any)
			if len(segs) < 2 {
				continue
			}
			flight, _ := segs[len(segs)-1].(map[string]any)["flight_number"].(string)
			for jid := range journeys {
				if jid == bk["journey_id"] {
					continue
				}
				args := map[string]any{"confirmation_number": conf, "journey_id": bk["journey_id"], "new_journey_id": jid,
					"rebooking_type": "voluntary", "waive_change_fee": false, "flight_number": flight}
				out, err := tl.Execute(context.Background(), args)
				if err == nil && !tool.IsError(out) {
					return args
				}
			}
		}
	}
	return nil
}

// decodeEvaAction never panics, and what it decodes names an eva_airline
// tool.
func FuzzDecodeEvaAction(f *testing.F) {
	for _, s := range []string{
		`{"action_type": "rebook_flight", "confirmation_number": "ABC123", "old_journey_id": "FL_SK1_SK2_20260101", "new_journey_id": "FL_SK3_20260101", "rebooking_type": "voluntary", "original_fare_class": "main_cabin", "new_fare_class": "business", "partial_rebook": true}`,
		`{"action_type": "rebook_flight", "old_journey_id": "x", "partial_rebook": true}`,
		`{"action_type": "rebook_flight", "new_fare_class": {}, "original_fare_class": {}}`,
		`{"action_type": "process_refund", "confirmation_number": "ABC123", "refund_amount": 10, "refund_type": "full"}`,
		`{"action_type": "assign_seat", "flight_number": null}`,
		`{"action_type": 7}`, `[]`, `"x"`,
	} {
		f.Add([]byte(s))
	}
	tools := evaairline.ToolNames()
	f.Fuzz(func(t *testing.T, data []byte) {
		var rec any
		if json.Unmarshal(data, &rec) != nil {
			return
		}
		calls, err := decodeEvaAction(rec)
		if err != nil {
			return
		}
		if len(calls) == 0 {
			t.Fatalf("%s: no call and no error", data)
		}
		for _, c := range calls {
			if !slices.Contains(tools, c.Name) || c.Arguments == nil {
				t.Fatalf("%s: %+v", data, c)
			}
		}
	})
}
