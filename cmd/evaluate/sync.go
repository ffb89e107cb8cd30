package main

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/domains/nemo/basictools"
	"github.com/voiceeval/schematools/domains/nemo/customerservice"
	"github.com/voiceeval/schematools/domains/nemo/evaairline"
	"github.com/voiceeval/schematools/domains/nemo/restaurant"
	"github.com/voiceeval/schematools/domains/nemo/scenarios"
	"github.com/voiceeval/schematools/domains/nemo/waitlist"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// predicates are the DB_STATE_ASSERTION predicates of every domain that
// registers some, by tool domain.
func predicates() map[string]map[string]hooks.Predicate {
	out := map[string]map[string]hooks.Predicate{}
	for _, d := range domains.All() {
		if len(d.Hooks.Predicates) > 0 {
			out[d.Name] = d.Hooks.Predicates
		}
	}
	return out
}

// references are the harness.Reference of each tool domain of a run, by
// tool domain: shadow for the bridge's cross-side sync, verify for the
// summary verification (empty with -verify=false).
type references struct {
	shadow, verify map[string]*harness.Reference
}

// of returns the references of a tool domain
// (harness.EvaluateOptions.References).
func (r references) of(domain string) (shadow, verify *harness.Reference, err error) {
	return r.shadow[domain], r.verify[domain], nil
}

// referencesFor returns the references of the tool domains the scenarios
// use. The cross-side sync runs for each two-sided domain (tau2 telecom:
// a user DB and a sync hook), for in-process and external bots alike, as
// NeMo's bridge runs it for any bot. With verify, each domain gets its
// verification reference too (one Reference serves both for telecom):
//
//   - tau2 airline, retail and telecom: the domain's replay tools and
//     hooks on its DB files (the db_path of every scenario), the clock the
//     bots' (the day's date: telecom's tools and initialisation functions
//     read it, as nemoeval.Dated's expected DBs do); airline's new ids come
//     from fixed lists, retail mints none, and a telecom replay that draws
//     a fresh id (refuel_data's new bill, random in a live bot) is
//     skipped by the harness;
//   - eva_airline: its tools on the scenario's inline DB (whose
//     _current_date is the tools' clock; refund and transfer ids are the
//     state's call counters), its records decoded by decodeEvaAction;
//   - the default domain (customer_service, restaurant, qa, …) and the
//     other domains of domains: unverifiable, with the reason.
func referencesFor(queue map[string]*scenarios.Scenario, verify bool) (references, error) {
	out := references{shadow: map[string]*harness.Reference{}, verify: map[string]*harness.Reference{}}
	names := make([]string, 0, len(queue))
	for n := range queue {
		names = append(names, n)
	}
	slices.Sort(names)
	done := map[string]bool{}
	for _, n := range names {
		s := queue[n]
		if done[s.Domain] {
			continue
		}
		done[s.Domain] = true
		d, err := domains.Find(s.Domain)
		if err != nil {
			if verify {
				out.verify[s.Domain] = &harness.Reference{Unverifiable: fmt.Sprintf("%s is no domain of domains: there is no reference to replay with", s.Domain)}
			}
			continue
		}
		ref, err := reference(d)
		if err != nil {
			return references{}, err
		}
		if d.UserDB != "" && d.Hooks.Sync != nil && d.Files != nil {
			out.shadow[s.Domain] = ref
		}
		if verify {
			out.verify[s.Domain] = ref
		}
	}
	return out, nil
}

// reference is domain d's harness.Reference (see referencesFor).
func reference(d domains.Domain) (*harness.Reference, error) {
	switch {
	case d.Replay != nil && d.Files != nil:
		ref := &harness.Reference{Hooks: d.Hooks, Tools: d.Replay}
		var err error
		if ref.AgentDB, err = state.LoadSourceFS(d.Files, d.DB); err != nil {
			return nil, err
		}
		if d.UserDB != "" {
			if ref.UserDB, err = state.LoadSourceFS(d.Files, d.UserDB); err != nil {
				return nil, err
			}
		}
		return ref, nil
	case d.Name == evaairline.Domain:
		return &harness.Reference{Tools: evaTools, Decode: decodeEvaAction}, nil
	case slices.Contains([]string{basictools.Domain, customerservice.Domain, restaurant.Domain, waitlist.Domain}, d.Name):
		return &harness.Reference{Unverifiable: d.Name + "'s tools keep their state outside the DB (shared_state values) and record no actions: a summary holds nothing to replay"}, nil
	case d.Name == coffee.Domain:
		return &harness.Reference{Unverifiable: "coffee has no reference replay here (no NeMo scenario uses it)"}, nil
	}
	return &harness.Reference{Unverifiable: d.Name + " has no reference replay here"}, nil
}

// evaTools is the eva_airline replay.ToolBuilder: its tools on the
// replay's agent state.
func evaTools(env replay.Env) (replay.ToolMap, error) {
	tools, err := evaairline.NewTools(env.Agent, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	m := replay.ToolMap{}
	return m, m.Add(tools...)
}

// evaCalls are the eva_airline action types whose record holds the
// arguments of its tool's call, each with the tool and the argument
// names the record carries (an argument recorded as null was not given).
var evaCalls = map[string]struct {
	tool string
	args []string
}{
	evaairline.ActionCancelReservation:   {evaairline.NameCancelReservation, []string{"confirmation_number", "journey_id", "cancellation_reason"}},
	evaairline.ActionProcessRefund:       {evaairline.NameProcessRefund, []string{"confirmation_number", "refund_amount", "refund_type"}},
	evaairline.ActionAssignSeat:          {evaairline.NameAssignSeat, []string{"confirmation_number", "passenger_id", "journey_id", "seat_preference", "flight_number"}},
	evaairline.ActionAddBaggageAllowance: {evaairline.NameAddBaggageAllowance, []string{"confirmation_number", "journey_id", "num_bags", "flight_number"}},
	evaairline.ActionAddMealRequest:      {evaairline.NameAddMealRequest, []string{"confirmation_number", "passenger_id", "journey_id", "meal_type", "flight_number"}},
	evaairline.ActionAddToStandby:        {evaairline.NameAddToStandby, []string{"confirmation_number", "journey_id", "passenger_ids"}},
	evaairline.ActionIssueTravelCredit:   {evaairline.NameIssueTravelCredit, []string{"confirmation_number", "passenger_id", "amount", "credit_reason"}},
	evaairline.ActionIssueHotelVoucher:   {evaairline.NameIssueHotelVoucher, []string{"confirmation_number", "passenger_id", "num_nights"}},
	evaairline.ActionIssueMealVoucher:    {evaairline.NameIssueMealVoucher, []string{"confirmation_number", "passenger_id", "voucher_reason"}},
	evaairline.ActionTransferToAgent:     {evaairline.NameTransferToAgent, []string{"confirmation_number", "transfer_reason", "issue_summary"}},
}

// decodeEvaAction turns an eva_airline action record — {"action_type",
// then the call's values, flat: what the tool wrote, not its arguments} —
// into the call that made it (harness.Reference.Decode). Every record but
// rebook_flight's holds its call's arguments (assign_seat's flight_number
// is the flight the tool resolved, which the call names explicitly to the
// same effect). rebook_flight's holds the old and new journeys, the
// rebooking type and the fare classes; the change fee waiver, which the
// tool requires, changes no DB value (false is replayed), and a new fare
// class equal to the original is the default. A
// partial rebook records no flight_number, only partial_rebook: true; the
// replaced flight is one of the old journey's, whose id names its flights
// (FL_<flight>_…_<date>, as every shipped journey does), so the record
// stands for one call per flight and the verification tries each.
func decodeEvaAction(record any) ([]harness.Call, error) {
	rec, ok := record.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the record is a %T, not a dict", record)
	}
	typ, _ := rec["action_type"].(string)
	if typ == evaairline.ActionRebookFlight {
		return decodeEvaRebook(rec)
	}
	c, ok := evaCalls[typ]
	if !ok {
		return nil, fmt.Errorf("no eva_airline tool records action_type %q", rec["action_type"])
	}
	args := map[string]any{}
	for _, k := range c.args {
		if v := rec[k]; v != nil {
			args[k] = v
		}
	}
	return []harness.Call{{Name: c.tool, Arguments: args}}, nil
}

// decodeEvaRebook is decodeEvaAction of a rebook_flight record.
func decodeEvaRebook(rec map[string]any) ([]harness.Call, error) {
	args := map[string]any{"waive_change_fee": false} // required; it changes no DB value
	for from, to := range map[string]string{"confirmation_number": "confirmation_number", "old_journey_id": "journey_id", "new_journey_id": "new_journey_id", "rebooking_type": "rebooking_type"} {
		if v := rec[from]; v != nil {
			args[to] = v
		}
	}
	if fc := rec["new_fare_class"]; fc != nil {
		if s, ok := fc.(string); !ok || s != rec["original_fare_class"] {
			args["new_fare_class"] = fc
		}
	}
	if rec["partial_rebook"] != true {
		return []harness.Call{{Name: evaairline.NameRebookFlight, Arguments: args}}, nil
	}
	old, _ := rec["old_journey_id"].(string)
	parts := strings.Split(old, "_")
	if len(parts) < 3 || parts[0] != "FL" {
		return nil, fmt.Errorf("a partial rebook of journey %q, whose id names no flights", old)
	}
	var out []harness.Call
	for _, f := range parts[1 : len(parts)-1] {
		a := make(map[string]any, len(args)+1)
		for k, v := range args {
			a[k] = v
		}
		a["flight_number"] = f
		out = append(out, harness.Call{Name: evaairline.NameRebookFlight, Arguments: a})
	}
	return out, nil
}
