// Package harness evaluates voice/LLM agents in text: it runs scenarios
// between an agent bot and a user-simulator bot over RTVI WebSockets,
// scores each run as NVIDIA NeMo labs-Voice-Agent's runner scores it, and
// writes the run in NeMo's layout. Parity notes: docs/parity/harness.md.
//
//   - [Evaluate] is the whole evaluation: a queue of [Scenario] values run
//     over [BotPair]s (one scenario per pair at a time; as many at once as
//     pairs), each written to OutputDir/eval_<timestamp>/<scenario>/ as it
//     finishes (metrics.json, final_agent_response.json, judge_result.json,
//     the contexts, the conversation log, scenario_config/), its
//     results.jsonl line appended; then all_metrics.json, all_summary.txt,
//     all_latencies.csv and report.html. [EvaluateOptions].ResumeDir
//     finishes a run instead: only scenarios without a finished result run.
//   - A scenario a bot failed (an error event, a refused request, a closed
//     connection, unreadable frames, a missed handshake) is written as
//     failed with metrics harness_error, and the run goes on; any other
//     error stops it and is returned.
//   - Domain knowledge comes in through options, never from imports:
//     DB-state predicates in [Options].Predicates, the cross-side sync and
//     the summary verification in [EvaluateOptions].References (a
//     [Reference]: a domain's replay tools, hooks and starting DBs).
//   - [RunScenario] runs and scores one scenario without writing it:
//     prepare both bots (reset, system prompts, initialisation), relay the
//     turns until the agent's <exit>, MaxTurns or the duration bound, pull
//     both contexts and summaries, [Score]. The returned error wraps
//     [ErrBotFailed] or [ErrAborted] when a bot failed it; the
//     [ScenarioResult] is never nil.
//   - [Score] reads a [Run] as NeMo does: the whitelisted success signals
//     (Scenario.SuccessSignals: "is_action_match", "db_state_match",
//     "db_state_assertion", "nl_assertion", "judge_passed", "clean_exit")
//     are ANDed into is_successful, "N/A" when none applies; the turn gate
//     (MinAgentTurns, NeMo's 3) fails a run with too few agent LLM calls.
//     It never panics; it errs only on a reference answer or context it
//     cannot read, or on empty or unknown success signals.
//   - The judge is a [Judge] ([JudgeFunc], or [ModelJudge] on any
//     agent.Model): given a [JudgeRequest], it returns the verdict object
//     (ModelJudge finds it in the model's reply as NeMo's LLMJudge does).
//     No judge: the judge signals are not applicable.
//   - [Metrics] marshals as metrics.json byte for byte as the runner
//     writes it (keys in its order, Python's number forms, non-ASCII
//     escaped); results files are rewritten atomically, in queue order,
//     so a resumed run ends with the files of an uninterrupted one.
//   - With SessionOptions.Verify, [VerifySummaries] replays each bot's
//     reported actions and checks the hashes it reports (metrics
//     summary_verified; NeMo's verdicts unchanged).
//   - [Budgets] bound what bots can make the harness read, hold and
//     write; a passed budget fails that scenario alone. A scenario takes
//     at most its duration bound plus 8 s of grace.
//   - A text run times each relayed turn to the other bot's first speech:
//     the agent's answers are metrics latencies (latency_stats,
//     all_latencies.csv), both sides' with LLM times latency_detail.json.
//   - Each scenario's cost.json holds the tokens of the agent, the user
//     simulator and the judge ([ModelJudge] meters its calls), call by
//     call, each role's model ([Options].AgentModel …) and, with
//     [Options].Prices ([ParsePrices]), their cost; cost_summary.json and
//     cost_summary.txt sum them per domain and for the run. Usage a call
//     did not report, or a model the table lacks, is an unknown cost (null,
//     with the reason), never 0; metrics.json keeps NeMo's keys.
//   - [RenderReport] rebuilds a run directory's report.html.
//   - Configuration is by options structs: [EvaluateOptions],
//     [SessionOptions] ([DefaultSessionOptions]), [Options], [Budgets],
//     [ReportOptions]; zero fields take NeMo's defaults where documented.
package harness
