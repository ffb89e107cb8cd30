// Package harness scores a text-mode run of a NeMo scenario exactly as
// NVIDIA NeMo labs-Voice-Agent's runner does (nemo_voice_agent/evaluation/
// runner.py run_dynamic_evaluation at 1a83139; line numbers below are of
// that file unless named).
//
//   - Run is what the bridge pulled: per side the llm_context.json text, the
//     get_scenario_summary answer {actions, db_hash, db} and the token usage
//     (n_calls, prompt, completion); the <final_response> texts, transcript
//     turns, latencies, stop_reason and durations.
//   - The prediction is bridge.py _save_final_response: when the merged
//     summary has an action list (the user side's actions appended with
//     side "user", as run_scenario merges them) it is [{"actions": [...]}]
//     with side defaulted to "agent"; otherwise each <final_response>
//     json.loads'd or {"message": text}. Pull wins whenever its list is not
//     None, even when empty.
//   - ACTION_MATCH (465–480) is utils.check_if_task_success of the
//     reference answer against the prediction — list-of-one unwrapped, a
//     single reference matched against the last of several predictions,
//     dict keys as a subset, lists matched order-free one to one, scalars as
//     floats with numpy.isclose when both convert, else as str; "N/A"
//     without a reference; --strict-match or disallow_extra_items require
//     equal lengths. The tau2-style compare_args matcher (_match_action) is
//     not what the runner uses.
//   - DB_STATE_MATCH (623–642) is applicable when the scenario has an
//     expected DB (metadata expected_db_hash = get_dict_hash of it); it is
//     the agent summary's db_hash == that hash, False when no hash came.
//   - DB_STATE_ASSERTION (666–694) runs each assertion through
//     db_state_predicates.evaluate_db_state_assertion against the pulled
//     db / user_db with the predicates registered for the scenario's tool
//     domain (Options.Predicates); the verdicts and pass rate go into
//     metrics, and the signal passes at a rate of exactly 1.0.
//   - NL_ASSERTION and JUDGE_PASSED (495–577) need Options.Judge, given
//     utils.LLMJudge.judge_scenario's inputs (JudgeRequest, with NeMo's
//     SCENARIO_PROMPT and the XML-tagged user content); its verdict is
//     normalised as judge_scenario does (score via float(), missing
//     verdicts failed, passed only when true) and any judge error scores 0
//     with every assertion failed. judge_passed is score ≥ JudgeThreshold
//     (0.9). With no judge (--judge-url "") judge_score, judge_passed and
//     nl_assertion_pass_rate are absent and both signals not applicable.
//   - CLEAN_EXIT (586) is stop_reason == "[EXIT]".
//   - The composite (704–744, classes.py Scenario.compute_is_successful) is
//     the strict AND of the applicable whitelisted signals, "N/A" when none
//     applies; is_task_successful ignores clean_exit and is written only when
//     is_successful is a bool. success_breakdown lists, in signal_checks
//     order, the whitelisted signals that passed, failed, were not
//     applicable, and the others that had a value (excluded).
//   - The turn gate (446–451, 719–730): with MinAgentTurns > 0 (NeMo's
//     default 3) an agent n_calls below it writes insufficient_agent_turns
//     and forces is_successful and is_task_successful to false.
//   - Metrics marshals as metrics.json — json.dump(metrics, indent=2): the
//     runner's keys in its insertion order, optional keys only where it sets
//     them, Python's number forms (0 for a zero duration, floats in repr),
//     non-ASCII escaped; AllMetricsJSON is all_metrics.json.
//   - RunWriter writes NeMo's run layout, DIR/eval_<timestamp>/<scenario>/
//     (metrics.json, final_agent_response.json, final_scenario_db_hash.txt,
//     judge_result.json, bot_logs_{agent,user}/llm_context.json,
//     conversation_log.txt and .seglst.json in bridge.py's formats,
//     scenario_config/ from the shipped record, and two additions of
//     ours: pulled_summary.json, the summaries and <final_response> texts
//     the runner reads from the bridge's memory, and db_diff.json, on a DB mismatch with both DBs known): each scenario
//     directory built under a temporary name and renamed into place, then
//     its results.jsonl line appended in one write and fsynced. Finish
//     writes all_metrics.json, all_summary.txt (RunAggregator and the
//     summary writer, runner.py 43–212 and 791–1000, checked byte for
//     byte against NeMo's own code), all_latencies.csv and report.html in
//     queue order, and rewrites results.jsonl in queue order, one line per
//     scenario. (NeMo's resumed run lists the loaded scenarios first; ours
//     keeps queue order, so a resumed run's files equal an uninterrupted
//     one's.)
//   - results.jsonl: a torn last line (no newline) is ignored and cut off
//     on resume; a corrupt whole line is an error; a scenario's last line
//     wins. ResumeRunWriter keeps the scenarios with a line, a metrics.json
//     and NeMo's resume rule passed (turns > 0, agent n_calls ≥
//     --min-agent-turns), moves other directories aside to
//     <name>.killed.<n> with __KILLED__, and removes temporary directories.
//     A line with harness_error (a scenario a bot failed) is not done.
//   - RenderReport is one self-contained page (inline CSS and a few lines
//     of script, no network) built with html/template: per-domain and
//     per-signal rates from the same Aggregator, an inline SVG bar chart,
//     and per scenario its signals, stop reason, tokens, transcript and
//     DB diff.
//   - A bot's error ends its scenario at once: an RTVI error event or an
//     error-response to a request of the run (NeMo's bridge ignores both
//     and waits out max_duration) stops the run with StopReasonBotError,
//     and both sides are still pulled.
//   - A scenario a bot failed or whose initialisation it refused (NeMo's
//     runner stops the whole run there) is scored from FailedRun: what
//     the harness had (turns, usage, durations, whatever was pulled),
//     stop reason StopReasonBotError/StopReasonBotFailed/StopReasonAborted
//     unless the run had stopped, every signal read from what there is;
//     metrics.json then ends with harness_error (our addition: status and
//     reason) and is_successful and is_task_successful are false. Resume
//     runs it again.
//   - With SessionOptions.Verify (our addition; NeMo trusts the summary),
//     VerifySummaries replays the actions each bot's summary reports with
//     the domain's Reference (its tools, hooks and starting DBs; both
//     sides in the run's order for telecom) and checks each side's
//     replayed hash against its reported db_hash, and a DB sent with
//     include_db against its hash; metrics.json then ends with
//     summary_verified (true, false, or "N/A" when skipped: unverifiable
//     domain, fresh ids, unknown order) and summary_verification (the
//     reason), after harness_error. NeMo's keys and verdicts are
//     unchanged; report.html flags a summary not reproducible from its
//     actions.
//   - Bounds (SessionOptions.Budgets, Budgets): what the bots of a
//     scenario can make the harness read, hold and write is bounded — a
//     turn's text, a connection's bytes, what is held of each side
//     (turns, final responses, action records, queued events), each file
//     written from a bot's data, the nesting of its JSON (no deeper than
//     Python's json.loads reads) — and a passed budget fails that
//     scenario alone, naming it (an error wrapping bridge.ErrBudget). The
//     whole scenario, preparation to last pull, takes at most its duration
//     bound plus ScenarioGrace. Every file is valid UTF-8: a lone
//     surrogate is written \udXXX.
//   - Score never panics: a judge's panic is a judge error, a predicate's a
//     predicate error; it returns an error only for a reference answer or
//     context it cannot read, or success_signals that are empty or unknown
//     (where the runner raises).
package harness
