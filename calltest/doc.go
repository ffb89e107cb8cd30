// Package calltest checks an agent's tool calls ("given this conversation,
// the next step calls book_table with party_size 6"). It reads ElevenLabs'
// tool-test JSON as it is, defines what ElevenLabs leaves vague, and goes
// beyond it. The full semantics and the ElevenLabs notes:
// docs/parity/calltest.md.
//
// The contract:
//
//   - A [Test] is a conversation ([Turn]s, ending on the turn before the
//     call under test), [Expectation]s with [ParamCheck]s ([Present],
//     [Equals], [ExactText], [Matches], [Judged], [AnyOf], [Near],
//     [Validates], [Satisfies]), a mode and optional call counts; the
//     agent's [Step] is zero or more [Call]s with decoded arguments.
//   - [Check] gives a [Result] with a reason per failed check; [Require]
//     fails a Go test with a readable report; [Repeat] runs a test n
//     times against an [Agent] ([Repeated]: pass count, pass^k, pass@k).
//   - An invalid test is an error wrapping [ErrInvalidTest], never a
//     failed run; with [Options].Tools an unknown tool or a path outside
//     its schema is invalid too.
//   - Paths use dot notation ("items.0.sku"); a missing path fails with
//     code "missing".
//   - exact in ElevenLabs mode ([ExactText]) compares canonical text ("6"
//     matches 6); native [Equals] is typed equality (6 == 6.0, "6" != 6
//     unless the schema says number).
//   - llm checks ask the [Judge] in Options; no judge, or a judge error,
//     makes the check [Unknown], never a silent pass.
//   - Expectations are assigned to calls by an optimal matching, never
//     greedily, so the status does not depend on their order; ties are
//     broken deterministically.
//   - Modes ([Test].Mode): superset (default), unordered, subset,
//     in-order, exact-order. An absent expectation fails when any call
//     names its tool.
//   - A result is [Fail] if anything failed, else [Unknown] if a matched
//     check was Unknown, else [Pass]; every failure says why, with types.
//   - Check never modifies the test and may run concurrently; a Judge,
//     custom function or Agent given to Repeat with several workers must
//     be safe for concurrent use.
//
// Loading and models:
//
//   - [LoadSuite] reads a directory of ElevenLabs tests, [LoadTools] the
//     tools they declare; [RunSuite] runs a suite and writes each test's
//     summary, its failure reasons as ElevenLabs' condition_result lists
//     them.
//   - [ModelAgent] puts an agent.Model behind an [Agent]: one model call,
//     calls decoded, nothing executed.
//   - [ModelJudge] asks a model with calltest's own prompt ([JudgeOptions]
//     replaces it); it reads {"verdict": "pass"|"fail", "reason": …}
//     strictly, anything else is [ErrVerdict].
package calltest
