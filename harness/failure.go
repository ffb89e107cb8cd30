package harness

import "fmt"

// Our stop reasons, beside the bridge's (as StopReasonTurnLimit is):
//
//   - stopReasonBotError: a bot reported an error during the run (an RTVI
//     error event: a turn that failed, its model's error, text it refused)
//     or refused one of the run's requests (an error-response to the
//     kickoff, a relayed turn or a sync delta); the run ends at once;
//   - stopReasonBotFailed: a bot failed otherwise (it closed the
//     connection, sent what cannot be read, did not answer a handshake or
//     a pull);
//   - stopReasonAborted: a bot refused the scenario's initialisation.
const (
	stopReasonBotError  = "[BOT_ERROR]"
	stopReasonBotFailed = "[BOT_FAILED]"
	stopReasonAborted   = "[ABORTED]"
)

// failedRun returns the run of a scenario RunScenario did not score (a
// bot failed it, or refused its initialisation), for Score, so that it is
// written and counted as failed with its reason and the run goes on —
// NeMo's runner, which has no such case, would stop the whole run:
//
//   - the run is what the harness had when the bot failed (res.Run: the
//     turns, the usage, the stop reason, whatever was pulled), or only the
//     scenario when nothing ran; a run that had not stopped gets
//     StopReasonBotFailed (StopReasonAborted when aborted);
//   - Run.Failure is "<status>: <reason>": Score then scores every signal
//     from what there is (no pulled hash fails DB_STATE_MATCH, no turns
//     trip the turn gate), writes the failure as harness_error and makes
//     is_successful and is_task_successful false whatever the signals
//     gave: a scenario a bot failed is never a success.
//
// Resume runs such a scenario again (ResumeRunWriter).
func failedRun(sc *Scenario, res *ScenarioResult) (*Run, error) {
	if res == nil || res.status == statusScored {
		return nil, fmt.Errorf("harness: FailedRun of %s: the scenario was scored", sc.Name)
	}
	run := &Run{Scenario: *sc}
	if res.Run != nil {
		r := *res.Run
		run = &r
	}
	if run.StopReason == "" {
		run.StopReason = stopReasonBotFailed
		if res.status == statusAborted {
			run.StopReason = stopReasonAborted
		}
	}
	run.Failure = fmt.Sprintf("%s: %s", res.status, res.Reason)
	return run, nil
}
