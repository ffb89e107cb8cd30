package replay_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/replay"
)

// Checklist 74-83 (test_filtered_args): tau2 compare_args semantics.
func TestMatchCompareArgs(t *testing.T) {
	gold := func(name string, args map[string]any, compare []string) replay.Action {
		return replay.Action{Name: name, Arguments: args, CompareArgs: compare}
	}
	tests := []struct {
		name   string
		gold   replay.Action
		call   replay.Action
		ok     bool
		reason string
	}{
		{"name mismatch", gold("rebook", nil, nil), replay.Action{Name: "cancel"}, false, `name "cancel" is not "rebook"`},
		{"all args equal", gold("search", map[string]any{"origin": "JFK"}, nil), replay.Action{Name: "search", Arguments: map[string]any{"origin": "JFK"}}, true, ""},
		{"all args differ", gold("search", map[string]any{"origin": "JFK"}, nil), replay.Action{Name: "search", Arguments: map[string]any{"origin": "LAX"}}, false, `argument "origin" is "LAX", want "JFK"`},
		{"empty compare matches any args", gold("transfer_to_human_agents", map[string]any{"summary": "a"}, []string{}), replay.Action{Name: "transfer_to_human_agents", Arguments: map[string]any{}}, true, ""},
		{"empty compare never collapses to all", gold("transfer_to_human_agents", map[string]any{"summary": "a"}, []string{}), replay.Action{Name: "transfer_to_human_agents", Arguments: map[string]any{"summary": "b"}}, true, ""},
		{"subset ignores others", gold("x", map[string]any{"user_id": "u1"}, []string{"user_id"}), replay.Action{Name: "x", Arguments: map[string]any{"user_id": "u1", "extra": 1}}, true, ""},
		{"subset differs", gold("x", map[string]any{"user_id": "u1"}, []string{"user_id"}), replay.Action{Name: "x", Arguments: map[string]any{"user_id": "u2"}}, false, `argument "user_id" is "u2", want "u1"`},
		{"numbers by value", gold("x", map[string]any{"n": json.Number("2")}, nil), replay.Action{Name: "x", Arguments: map[string]any{"n": 2.0}}, true, ""},
		{"extra argument", gold("x", map[string]any{}, nil), replay.Action{Name: "x", Arguments: map[string]any{"n": 1}}, false, `argument "n" is not expected`},
		{"missing argument", gold("x", map[string]any{"n": 1}, nil), replay.Action{Name: "x"}, false, `argument "n" is missing`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, reason := replay.MatchCompareArgs(tt.gold, tt.call)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.reason, reason)
		})
	}
}

func TestMatchRecords(t *testing.T) {
	rec := func(name string, args map[string]any) map[string]any {
		return map[string]any{"action_type": name, "name": name, "arguments": args, "side": "agent"}
	}
	reference := []map[string]any{
		rec("refuel_data", map[string]any{"gb_amount": json.Number("2.0"), "line_id": "L1"}),
		rec("toggle_roaming", map[string]any{}),
	}
	actual := []map[string]any{
		rec("get_details", map[string]any{}),
		rec("toggle_roaming", map[string]any{"extra": true}),
		rec("refuel_data", map[string]any{"gb_amount": "2", "line_id": "L1", "note": "x"}),
	}
	rep := replay.MatchRecords(reference, actual, replay.MatchOptions{})
	assert.True(t, rep.Matched, "%+v", rep)
	assert.Equal(t, [][2]int{{0, 2}, {1, 1}}, rep.Pairs)

	// Each actual record is used once; every miss has a reason.
	rep = replay.MatchRecords([]map[string]any{reference[1], reference[1]}, actual, replay.MatchOptions{})
	assert.False(t, rep.Matched)
	assert.Equal(t, []replay.Mismatch{{Index: 1, Reason: `actual record 0: action_type: "get_details" is not "toggle_roaming"`}}, rep.Mismatches)

	rep = replay.MatchRecords(reference, nil, replay.MatchOptions{})
	assert.Len(t, rep.Mismatches, 2)
	assert.Equal(t, "there are no actual records", rep.Mismatches[0].Reason)

	// Scalars: numbers are close, true is 1, strings as Python's str().
	near := replay.MatchRecords([]map[string]any{{"v": 1.0, "b": true, "s": "Hello, World", "n": nil}},
		[]map[string]any{{"v": 1.000001, "b": json.Number("1"), "s": "hello world", "n": nil}}, replay.MatchOptions{IgnoreCase: true, IgnorePunctuation: true})
	assert.True(t, near.Matched, "%+v", near)
	far := replay.MatchRecords([]map[string]any{{"v": 1.0}}, []map[string]any{{"v": 1.1}}, replay.MatchOptions{})
	assert.Equal(t, `actual record 0: v: 1.1 is not close to 1`, far.Mismatches[0].Reason)

	// Lists are order-independent subsets.
	lists := replay.MatchRecords([]map[string]any{{"l": []any{"b", "a"}}}, []map[string]any{{"l": []any{"a", "c", "b"}}}, replay.MatchOptions{})
	assert.True(t, lists.Matched)
	lists = replay.MatchRecords([]map[string]any{{"l": []any{"a", "a"}}}, []map[string]any{{"l": []any{"a"}}}, replay.MatchOptions{})
	assert.Equal(t, `actual record 0: l: item 1 ("a") has no match`, lists.Mismatches[0].Reason)
}

// Values that are not numbers compare as Python's str() of them, with
// Python's str.lower() for IgnoreCase.
func TestMatchPythonStr(t *testing.T) {
	cases := []struct {
		ref, act any
		opts     replay.MatchOptions
		want     bool
	}{
		{"[1, 'a']", []any{json.Number("1"), "a"}, replay.MatchOptions{}, true},
		{"None", nil, replay.MatchOptions{}, true},
		{"true", true, replay.MatchOptions{IgnoreCase: true}, true},
		{"i\u0307", "\u0130", replay.MatchOptions{IgnoreCase: true}, true}, // "İ".lower() is "i̇"
		{"i", "\u0130", replay.MatchOptions{IgnoreCase: true}, false},
		{"ss", "SS", replay.MatchOptions{IgnoreCase: true}, true},
	}
	for _, c := range cases {
		rep := replay.MatchRecords([]map[string]any{{"v": c.ref}}, []map[string]any{{"v": c.act}}, c.opts)
		assert.Equal(t, c.want, rep.Matched, "%#v vs %#v", c.ref, c.act)
	}
}

// Strings count as numbers exactly when Python's float() accepts them.
func TestMatchPythonFloatStrings(t *testing.T) {
	cases := []struct {
		ref, act any
		want     bool
	}{
		{" 1_000.5 ", 1000.5, true},
		{"_1_", 1.0, false},
		{"1__0", 10.0, false},
		{"0x1p4", 16.0, false},
		{"Infinity", "inf", true},
		{math.Inf(1), math.Inf(1), true},
		{"nan", "nan", false},   // np.isclose(nan, nan) is false
		{"-nan", "-nan", false}, // float("-nan") is nan too, never close
		{"١٢", 12, true},        // float() reads any Unicode decimal digits
		{"𝟙", json.Number("1"), true},
		{"\u00a012\u2003", 12.0, true}, // and strips Unicode whitespace
		{"\x1c1.5", 1.5, false},        // but not \x1c, which str.strip drops
	}
	for _, c := range cases {
		rep := replay.MatchRecords([]map[string]any{{"v": c.ref}}, []map[string]any{{"v": c.act}}, replay.MatchOptions{})
		assert.Equal(t, c.want, rep.Matched, "%#v vs %#v", c.ref, c.act)
	}
}
