// Package calltest checks an agent's tool calls: "given this conversation
// so far, the agent's next step calls book_table with party_size 6", or
// "never transfers here". It reads ElevenLabs' tool-test JSON as it is,
// defines what ElevenLabs leaves vague, and goes beyond it.
//
// A [Test] is a conversation and [Expectation]s on the calls of the
// agent's next [Step], each with [ParamCheck]s built by [Present],
// [Equals], [ExactText], [Matches], [Judged], [AnyOf], [Near], [Validates]
// or [Satisfies]. [Check] gives a [Result] with a reason per failed check;
// [Require] fails a Go test with a readable [Report]; [Repeat] runs a test
// n times against an [Agent]; [LoadElevenLabs] reads ElevenLabs' format
// and [Result.ConditionResult] answers in it.
//
// # The contract
//
//   - A Test is a conversation ([Turn]s of role user or agent, not empty,
//     ending on the turn before the call under test — an agent-final
//     history is an invalid test), one or more Expectations, a mode and
//     optional per-tool call counts. The agent's Step is zero or more
//     [Call]s, whose arguments are decoded JSON (numbers as json.Number:
//     decode raw text with tool.DecodeArgs).
//   - An invalid test is an error wrapping [ErrInvalidTest], from Check
//     (checking against an empty Step only validates) or LoadElevenLabs,
//     never a failed run. With [Options.Tools], an unknown tool or a path
//     outside its schema is invalid too.
//   - Paths use dot notation; numeric segments index lists ("items.0.sku").
//     Bracket notation is refused with the dot form it meant. A missing
//     path fails with code "missing".
//   - anything: the argument is present (null counts as present).
//   - exact, ElevenLabs mode (default, [ExactText]): expected_value is a
//     string compared with the argument's canonical text: strings as they
//     are, whole numbers without ".0" (6 and 6.0 are "6"), other numbers in
//     shortest form, booleans "true"/"false", null "null", objects and
//     lists as compact JSON with sorted keys. So "6" matches 6.
//   - exact, native mode ([Equals]): typed equality — numbers by value
//     (6 == 6.0), a number never equals a string or a boolean; with
//     Options.Tools, an expected string is first coerced to the schema's
//     integer, number or boolean type. So "6" matches 6 only where the
//     schema says number.
//   - The expected values of native exact and one_of checks are any Go
//     values encoding/json can write, compared as the JSON they write
//     (numbers as json.Number, then by value as above): []string{"a"}
//     equals ["a"], uint(6) and int8(6) equal 6, float32(0.1) equals 0.1,
//     a struct equals the object of its json tags, a nil slice null. A
//     value it cannot write (a channel, a func, a complex number, NaN or an
//     infinity, anywhere inside) makes the test invalid, its type named.
//   - regex: RE2, matched anywhere in the canonical text (search) unless
//     FullMatch is set; an invalid pattern makes the test invalid.
//   - llm: the [Judge] in Options decides; with no judge, or a judge
//     error, the check is Unknown — never a silent pass.
//   - one_of, number (target with absolute or relative tolerance, min,
//     max), json_schema (the value validates against a schema; unsupported
//     keywords are refused, never ignored), custom (a Go function): native
//     extras.
//   - Expectations are assigned to calls by an optimal matching (as many
//     expectations met as possible, then as many fully passing, then the
//     least sum of call indexes), not greedily, so the status never
//     depends on the order of expectations. Among matchings equal on all
//     three the choice is deterministic: the Hungarian algorithm's,
//     augmenting the expectations in order, a lower call index winning a
//     tie (two identical expectations and one call: the first is met).
//   - Matching k expectations against n calls takes O(k²·n) time when
//     k <= n (O(k³) otherwise) and O(n) memory, so a looping agent's
//     thousands of calls are checked in milliseconds.
//   - Modes ([Test.Mode]): superset (default: every expectation met by a
//     distinct call, other calls allowed), unordered (one to one, no other
//     calls), subset (every call expected, expectations may go unmet),
//     in-order (expectations met in call order, others may come between),
//     exact-order (call i meets expectation i, same count).
//   - With one expectation and without AnyCallMatches, more than one call
//     fails the test, as in ElevenLabs; with AnyCallMatches any matching
//     call passes it.
//   - An absent expectation (ElevenLabs' verify_absence) fails when any call
//     names its tool; it takes no parameter checks.
//   - A result is Fail if anything failed, else Unknown if a matched check
//     was Unknown, else Pass. Every failed check says why, with types:
//     expected exact "6", got 6 (number).
//   - Check never modifies the test and may run concurrently on one test;
//     a Judge or custom function given to Repeat with several workers must
//     be safe for concurrent use, and so must the Agent.
//   - [Repeated] reports the pass count, pass^k and pass@k (draws without
//     replacement; PassHatK(1) is the pass rate), a Wilson interval, and
//     the failed runs grouped by their reason codes, most frequent first.
//   - [ModelAgent] puts an agent.Model behind an [Agent]: one model call on
//     the test's history (a system prompt optional), calls decoded with
//     tool.DecodeArgs, nothing executed; a model error or undecodable
//     arguments is the run's error, never a pass.
//   - [ModelJudge] asks a model with our own judge_prompt.txt (ElevenLabs
//     publishes none); [ParseVerdict] reads {"verdict": "pass"|"fail",
//     "reason": …} strictly, and anything else is [ErrVerdict], so the check
//     is Unknown.
package calltest
