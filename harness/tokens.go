package harness

import "github.com/voiceeval/schematools/rtvi/bridge"

// tokensOfUsage is one side's token_usage from what its recorder counted:
// n_calls = the model calls, max(tokens entries, model responses), which
// is NeMo's n_calls when every call reported its usage; a response
// without a tokens entry and an entry lacking a count are calls without
// usage, which make prompt and completion unknown.
func tokensOfUsage(u bridge.Usage) Usage {
	return Usage{NCalls: u.Calls + u.Unreported, Prompt: u.Prompt, Completion: u.Completion,
		CallsWithoutUsage: u.Unreported + u.Partial}
}

// known says the prompt and completion counts are known: every call
// reported its usage.
func (t Usage) known() bool { return t.CallsWithoutUsage == 0 }

// add adds u's calls and counts to t.
func (t *Usage) add(u Usage) {
	t.NCalls += u.NCalls
	t.Prompt += u.Prompt
	t.Completion += u.Completion
	t.CallsWithoutUsage += u.CallsWithoutUsage
}

// tokensOfDict reads one side's token_usage back from a metrics dict, each
// count as NeMo's aggregator reads it (sub.get(key, 0)), except that a
// null prompt or completion is unknown: calls_without_usage of the calls
// (at least one) reported no usage.
func tokensOfDict(sub any) Usage {
	n, _ := dictGet(sub, "n_calls")
	p, hasP := dictGet(sub, "prompt")
	c, hasC := dictGet(sub, "completion")
	t := Usage{NCalls: pyInt(n), Prompt: pyInt(p), Completion: pyInt(c)}
	if (hasP && p == nil) || (hasC && c == nil) {
		w, _ := dictGet(sub, keyCallsWithoutUsage)
		t.CallsWithoutUsage = max(pyInt(w), 1)
	}
	return t
}
