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
//     With Trials n, each scenario runs n times into trial_1 … trial_n;
//     [ReadTrials] gives pass@1, pass^k and the flaky share (trials.json).
//     With Shards, one shard of the runs; [Merge] joins the shards.
//   - A scenario a bot failed (an error event, a refused request, a closed
//     connection, unreadable frames, a missed handshake) is written as
//     failed (harness_error) and the run goes on; other errors stop it.
//     A bot busy with another scenario (a pool's) has the run re-queued.
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
//   - [Metrics] marshals as the runner's metrics.json, byte for byte;
//     results files are rewritten atomically in queue order, so a resumed
//     run ends with the files of an uninterrupted one.
//   - With SessionOptions.Verify, [VerifySummaries] replays each bot's
//     actions and checks its hashes (summary_verified; verdicts unchanged).
//   - [Budgets] bound what bots make the harness read, hold and write (past
//     one, that scenario fails); a scenario lasts at most its duration + 8 s.
//   - Each relayed turn is timed to the other bot's first speech: the
//     agent's in metrics latencies, both sides' in latency_detail.json.
//   - cost.json: each role's tokens, call by call (the judge's metered by
//     [ModelJudge]), priced by [Options].Prices ([ParsePrices]); unknown
//     usage or price is null with its reason, never 0.
//   - [RenderReport] rebuilds a run directory's report.html: per scenario
//     its trajectory (tool calls, results, latency) and cost, failed and
//     flaky filters; a run of several trials gets the trials' page on top.
//   - [Compare] pairs two run directories (ours or NeMo's runner's) by
//     scenario and trial and tests the difference (exact McNemar; with
//     trials, paired permutation); [Comparison.Gate] decides.
//   - Configuration is by options structs ([DefaultSessionOptions]); zero
//     fields take NeMo's defaults where documented.
package harness
