package harness

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// Call is one call of a reference tool: what an action record of a
// summary stands for (Reference.Decode).
type Call struct {
	Name      string
	Arguments map[string]any
}

// Verification is the verdict on the summaries a run pulled
// (VerifySummaries): metrics.json's summary_verified and
// summary_verification.
type Verification struct {
	// Verified is true when every summary is reproducible from its
	// actions, false when one is not, nil when the check was skipped.
	Verified *bool
	// Reason says why a summary is not reproducible, or why the check was
	// skipped ("skipped: …"); "" when verified.
	Reason string
}

// Value is summary_verified: true, false, or "N/A" when skipped.
func (v *Verification) Value() any {
	if v.Verified == nil {
		return notApplicable
	}
	return *v.Verified
}

// notReproducible is how a failed verification's reason begins, after
// the side ("agent summary not reproducible from its actions: …"); the
// report flags it per scenario.
const notReproducible = "summary not reproducible from its actions"

// maxVerifyCombinations bounds the replays one summary may take: a
// record that stands for several calls (Reference.Decode) multiplies
// them; past the bound the check is skipped.
const maxVerifyCombinations = 64

// decodeAction reads an action record as the tau2 ports and NeMo's
// schema tools write it ({"action_type", "name", "arguments", "result"}):
// the call of the tool "name" with "arguments" (absent or null: none).
// It is the default Reference.Decode.
func decodeAction(record any) ([]Call, error) {
	if _, ok := dictItems(record); !ok {
		return nil, fmt.Errorf("the record is a %s, not a dict", pyvalue.TypeName(record))
	}
	n, _ := dictGet(record, "name")
	name, ok := n.(string)
	if !ok || name == "" {
		return nil, fmt.Errorf("its name is %s, not a tool name", pyvalue.Repr(n))
	}
	a, _ := dictGet(record, "arguments")
	args := map[string]any{}
	if a != nil {
		items, ok := dictItems(a)
		if !ok {
			return nil, fmt.Errorf("its arguments are a %s, not a dict", pyvalue.TypeName(a))
		}
		for _, it := range items {
			args[it.Key] = it.Value
		}
	}
	return []Call{{Name: name, Arguments: args}}, nil
}

// VerifySummaries checks that the summaries a run pulled are what their
// own actions make of the scenario's starting DBs — our addition: NeMo
// trusts a bot's get_scenario_summary, so a bot that reports the expected
// db_hash passes DB_STATE_MATCH without doing the work. With ref, the
// domain's reference (nil: no verification, nil returned):
//
//   - a summary sent with its DB (include_db) must hash to its db_hash
//     (an empty DB to a null hash);
//   - the actions reported are decoded into reference tool calls
//     (ref.Decode) and replayed, as replay.Gold replays a task, on the
//     starting DBs — a side's inline shared_state_init db, else ref's DB
//     — after the scenario's initialisation actions; each side's replayed
//     DB must hash to the db_hash it reported (an empty DB to null), and
//     every reported action must replay without a tool error;
//   - a two-sided domain (ref.UserDB set) is replayed once, both sides'
//     actions in the order they happened, the domain's sync after each.
//     The records carry no time, so the order is the one of the run's
//     action-applied messages (syncs: SessionOptions.Shadow's records,
//     matched by name to the records of the summaries); when one side
//     reported no action the order is known anyway. Otherwise the check
//     is skipped: the order cannot be known;
//   - a one-sided domain replays each side on its own DB.
//
// A record that stands for several calls (Decode returns more than one)
// is tried with each, up to 64 replays: one that
// reproduces verifies. The check is skipped, with its reason, for a
// domain ref calls unverifiable, a side that sent no summary, a replay
// that drew a fresh id (a live tool draws it at random: tau2 telecom's
// new bills) and a reference that cannot replay the scenario. It never
// changes NeMo's verdicts: Score writes it apart, as summary_verified.
func VerifySummaries(ctx context.Context, ref *Reference, sc *Scenario, run *Run, syncs []SyncRecord) *Verification {
	if ref == nil || sc == nil || run == nil {
		return nil
	}
	v := &verifier{ref: ref, sc: sc, decode: ref.Decode, clock: ref.Clock}
	if v.decode == nil {
		v.decode = decodeAction
	}
	if v.clock == nil {
		now := time.Now()
		v.clock = func() time.Time { return now }
	}
	return v.verify(ctx, run, syncs)
}

// verifier is one run's verification.
type verifier struct {
	ref    *Reference
	sc     *Scenario
	decode func(any) ([]Call, error)
	clock  func() time.Time
}

// step is one reported action: its side, its index in its side's
// summary, and the calls it may stand for.
type step struct {
	side  string
	index int
	name  string
	calls []Call
}

func skipped(format string, args ...any) *Verification {
	return &Verification{Reason: "skipped: " + fmt.Sprintf(format, args...)}
}

func verifiedOK() *Verification {
	t := true
	return &Verification{Verified: &t}
}

// maxReasons is how many reasons a verdict lists; the others are counted.
const maxReasons = 3

func notVerified(reasons []string) *Verification {
	f := false
	if n := len(reasons) - maxReasons; n > 0 {
		reasons = append(reasons[:maxReasons:maxReasons], fmt.Sprintf("and %d more", n))
	}
	return &Verification{Verified: &f, Reason: strings.Join(reasons, "; ")}
}

func (v *verifier) verify(ctx context.Context, run *Run, syncs []SyncRecord) *Verification {
	if v.ref.Unverifiable != "" {
		return skipped("%s", v.ref.Unverifiable)
	}
	if v.ref.Tools == nil {
		return skipped("the %s reference has no tools", v.sc.Domain)
	}
	two := v.ref.UserDB != nil
	sides := []struct {
		name string
		sum  *Summary
	}{{"agent", run.Agent.Summary}, {"user", run.User.Summary}}
	if !two && run.User.Summary == nil {
		sides = sides[:1]
	}
	for _, s := range sides {
		if s.sum == nil {
			return skipped("no %s summary was pulled", s.name)
		}
	}
	// The DB sent with a summary must be the one its hash names.
	var reasons []string
	for _, s := range sides {
		if s.sum.DB == nil {
			continue
		}
		h, err := hashOrNull(s.sum.DB)
		if err != nil {
			reasons = append(reasons, fmt.Sprintf("%s summary's db cannot be hashed: %v", s.name, err))
		} else if h != hashText(s.sum.DBHash) {
			reasons = append(reasons, fmt.Sprintf("%s summary's db does not hash to its db_hash: db %s, db_hash %s", s.name, hashWord(h), hashWord(hashText(s.sum.DBHash))))
		}
	}
	steps := map[string][]step{}
	for _, s := range sides {
		for i, rec := range s.sum.Actions {
			calls, err := decodeSafely(v.decode, rec)
			if err == nil && len(calls) == 0 {
				err = fmt.Errorf("it stands for no call")
			}
			if err != nil {
				reasons = append(reasons, fmt.Sprintf("%s %s: action %d cannot be read: %v", s.name, notReproducible, i+1, err))
				continue
			}
			name, _ := dictGet(rec, "name")
			n, _ := name.(string)
			steps[s.name] = append(steps[s.name], step{side: s.name, index: i, name: n, calls: calls})
		}
	}
	if len(reasons) > 0 {
		return notVerified(reasons)
	}
	if two {
		order, ok := interleave(steps["agent"], steps["user"], syncs)
		if !ok {
			return skipped("the order of the agent's and the user's actions cannot be known (the run's action-applied messages do not match the summaries)")
		}
		return v.replaySides(ctx, order, []string{"agent", "user"}, map[string]*Summary{"agent": run.Agent.Summary, "user": run.User.Summary})
	}
	var skip *Verification
	for _, s := range sides {
		out := v.replaySides(ctx, steps[s.name], []string{s.name}, map[string]*Summary{s.name: s.sum})
		switch {
		case out.Verified == nil:
			skip = out
		case !*out.Verified:
			reasons = append(reasons, out.Reason)
		}
	}
	switch {
	case len(reasons) > 0:
		return notVerified(reasons)
	case skip != nil:
		return skip
	}
	return verifiedOK()
}

// decodeSafely runs decode, turning a panic into an error.
func decodeSafely(decode func(any) ([]Call, error), rec any) (calls []Call, err error) {
	defer func() {
		if p := recover(); p != nil {
			calls, err = nil, fmt.Errorf("decoding it panicked: %v", p)
		}
	}()
	return decode(rec)
}

// interleave merges the two sides' steps in the order of the run's
// action-applied messages; ok is false when that order cannot be known.
func interleave(agent, user []step, syncs []SyncRecord) ([]step, bool) {
	if len(agent) == 0 || len(user) == 0 {
		return append(append([]step{}, agent...), user...), true
	}
	out := make([]step, 0, len(agent)+len(user))
	next := map[string][]step{"agent": agent, "user": user}
	for _, s := range syncs {
		if s.Source == "" && s.Action == "" {
			continue // the initial sync
		}
		rest, known := next[s.Source]
		if !known || len(rest) == 0 || rest[0].name != s.Action {
			return nil, false
		}
		out = append(out, rest[0])
		next[s.Source] = rest[1:]
	}
	if len(next["agent"]) > 0 || len(next["user"]) > 0 {
		return nil, false
	}
	return out, true
}

// attempt is the outcome of one replay of a combination of calls.
type attempt struct {
	ok      bool
	drewID  bool
	reasons []string
	skip    *Verification
}

// replaySides replays steps (of the sides named) on the scenario's
// starting DBs, each combination of their calls in turn, and compares
// each side's replayed hash with its summary's.
func (v *verifier) replaySides(ctx context.Context, steps []step, sides []string, sums map[string]*Summary) *Verification {
	combos := 1
	for _, s := range steps {
		combos *= len(s.calls)
		if combos > maxVerifyCombinations {
			return skipped("the %s actions stand for more than %d combinations of calls", strings.Join(sides, " and "), maxVerifyCombinations)
		}
	}
	var first *attempt
	drew := false
	choice := make([]int, len(steps))
	for range combos {
		a := v.attempt(ctx, steps, choice, sides, sums)
		switch {
		case a.skip != nil:
			return a.skip
		case a.ok:
			return verifiedOK()
		}
		drew = drew || a.drewID
		if first == nil {
			first = &a
		}
		for i := len(choice) - 1; i >= 0; i-- { // the next combination
			if choice[i]++; choice[i] < len(steps[i].calls) {
				break
			}
			choice[i] = 0
		}
	}
	if drew {
		return skipped("replaying the %s actions drew a fresh id, which a live %s tool draws at random: the bot's cannot be reproduced", strings.Join(sides, " and "), v.sc.Domain)
	}
	return notVerified(first.reasons)
}

// attempt replays one combination of calls.
func (v *verifier) attempt(ctx context.Context, steps []step, choice []int, sides []string, sums map[string]*Summary) attempt {
	var drew atomic.Bool
	var n atomic.Int64
	rs := replay.Scenario{
		Domain: v.sc.Domain,
		Tools:  v.ref.Tools,
		Hooks:  v.ref.Hooks,
		Clock:  v.clock,
		IDs: func() string {
			drew.Store(true)
			return "verify-" + strconv.FormatInt(n.Add(1), 10)
		},
		HashesOnly: true,
	}
	rs.Task.ID = v.sc.Name
	var err error
	if rs.DB, err = v.startDB(sides[0]); err != nil {
		return attempt{skip: skipped("%v", err)}
	}
	if len(sides) == 2 {
		if rs.UserDB, err = v.startDB(sides[1]); err != nil {
			return attempt{skip: skipped("%v", err)}
		}
	}
	init := &replay.InitialState{}
	for _, a := range v.sc.InitializationActions {
		if len(sides) == 2 || a.Side == sides[0] {
			args := a.Arguments
			if args == nil {
				args = map[string]any{}
			}
			env := a.Side
			if len(sides) == 1 {
				env = "agent" // a one-sided replay has one state, the agent's
			}
			init.InitializationActions = append(init.InitializationActions, hooks.InitAction{EnvType: env, FuncName: a.FuncName, Arguments: args})
		}
	}
	if len(init.InitializationActions) > 0 {
		rs.Task.InitialState = init
	}
	crit := &replay.EvaluationCriteria{}
	for i, s := range steps {
		c := s.calls[choice[i]]
		requestor := s.side
		if len(sides) == 1 {
			requestor = "agent" // a one-sided replay has one state, the agent's
		}
		crit.Actions = append(crit.Actions, replay.Action{ActionID: strconv.Itoa(i), Requestor: &requestor, Name: c.Name, Arguments: c.Arguments})
	}
	rs.Task.EvaluationCriteria = crit
	res, err := replay.Gold(ctx, rs)
	if err != nil {
		return attempt{skip: skipped("the %s reference cannot replay the scenario: %v", v.sc.Domain, err)}
	}
	out := attempt{drewID: drew.Load()}
	for _, e := range res.Errors {
		switch e.Kind {
		case "missing_tool", "exception", "error_result":
			s := steps[e.Index]
			out.reasons = append(out.reasons, fmt.Sprintf("%s %s: action %d (%s) does not replay: %s: %s",
				s.side, notReproducible, s.index+1, e.Name, strings.ReplaceAll(e.Kind, "_", " "), e.Message))
		}
	}
	got := map[string]string{sides[0]: res.DBHash}
	if len(sides) == 2 {
		got[sides[1]] = res.UserDBHash
	}
	for _, side := range sides {
		h, err := nullIfEmpty(got[side])
		if err != nil {
			return attempt{skip: skipped("%v", err)}
		}
		if want := hashText(sums[side].DBHash); h != want {
			out.reasons = append(out.reasons, fmt.Sprintf("%s %s: replayed hash %s, reported %s", side, notReproducible, hashWord(h), hashWord(want)))
		}
	}
	out.ok = len(out.reasons) == 0 && !out.drewID
	return out
}

// startDB is the DB side starts from: its shared_state_init's inline
// db, else the reference's (a db_path names the domain's DB file).
func (v *verifier) startDB(side string) (*state.Source, error) {
	init, ref := v.sc.SharedStateInitAgent, v.ref.AgentDB
	if side == "user" {
		init, ref = v.sc.SharedStateInitUser, v.ref.UserDB
	}
	if db, ok := init["db"].(map[string]any); ok {
		return state.NewSource(db), nil
	}
	if p, ok := init["db_path"]; ok && ref == nil {
		return nil, fmt.Errorf("the %s reference has no %s DB for db_path %s", v.sc.Domain, side, pyvalue.Repr(p))
	}
	return ref, nil
}

// emptyHash is the hash of an empty DB, which a bot reports as null.
var emptyHash = sync.OnceValues(func() (string, error) { return dbhash.Hash(map[string]any{}) })

// nullIfEmpty is h, or "" when h is an empty DB's hash.
func nullIfEmpty(h string) (string, error) {
	e, err := emptyHash()
	if err != nil {
		return "", err
	}
	if h == e {
		return "", nil
	}
	return h, nil
}

// hashOrNull is a DB's hash as a summary reports it: "" (null) for an
// empty DB.
func hashOrNull(db map[string]any) (string, error) {
	if len(db) == 0 {
		return "", nil
	}
	return dbhash.Hash(db)
}

// hashText is a reported hash, "" for null.
func hashText(h *string) string {
	if h == nil {
		return ""
	}
	return *h
}

// hashWord is a hash for a reason text: "null" for none.
func hashWord(h string) string {
	if h == "" {
		return "null"
	}
	return h
}
