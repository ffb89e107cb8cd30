package harness

import (
	"fmt"
	"strings"
	"time"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Names of the files the runner and the bridge write in a scenario
// directory and at run level (runner.py, bridge.py, run_evaluation.py).
const (
	fileMetrics             = "metrics.json"
	fileFinalAgentResponse  = "final_agent_response.json"
	fileFinalScenarioDBHash = "final_scenario_db_hash.txt"
	fileJudgeResult         = "judge_result.json"
	fileConversationLog     = "conversation_log.txt"
	fileSegLST              = "conversation_log.seglst.json"
	fileLLMContext          = "llm_context.json"
	dirBotLogsAgent         = "bot_logs_agent"
	dirBotLogsUser          = "bot_logs_user"
	dirScenarioConfig       = "scenario_config"
	// fileDBDiff is this harness's addition (NeMo's runner no longer
	// writes a DB diff): the dbhash.Compare tree of the expected and the
	// pulled DB, written on a DB_STATE_MATCH failure when both DBs are
	// known.
	fileDBDiff = "db_diff.json"

	fileAllMetrics   = "all_metrics.json"
	fileAllSummary   = "all_summary.txt"
	fileAllLatencies = "all_latencies.csv"
	fileRunArgs      = "run_args.json"
	// fileResults is this harness's addition: one JSON line per finished
	// scenario (ResultLine), the record resume reads.
	fileResults = "results.jsonl"
	// fileReport is this harness's addition: the self-contained HTML
	// report.
	fileReport = "report.html"
)

// The bridge's turn offsets (bridge.py __init__ defaults), added to a
// segment's start and end in conversation_log.txt and the segLST file.
const (
	// turnStartOffsetSecs is NeMo's -0.0; adding a negative zero leaves
	// every float as it is, which offsetSegment does.
	turnStartOffsetSecs = 0.0
	turnEndOffsetSecs   = -0.3
)

// Segment is one finalised speaker turn of the bridge (SegmentEntry):
// seconds since the routing threads started, the speaker ("user" or
// "agent") and the transcript ("[INTERRUPTED]" when no text came).
type Segment struct {
	Start, End float64
	Speaker    string
	Text       string
}

// sessionTimestamp is run_evaluation.py's session timestamp,
// datetime.now().strftime("%Y%m%d_%H%M%S"); the run directory is
// "eval_" + it.
func sessionTimestamp(t time.Time) string { return t.Format("20060102_150405") }

// pyISOFormat is Python's datetime.isoformat() of a naive local time:
// microseconds only when not zero.
func pyISOFormat(t time.Time) string {
	s := t.Format("2006-01-02T15:04:05")
	if us := t.Nanosecond() / 1000; us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	return s
}

// offsetSegment applies the bridge's offsets, falling back to the raw
// times when they leave no duration (_build_conversation_log, _save_seglst).
func offsetSegment(s Segment) (start, end float64) {
	start, end = s.Start, s.End+turnEndOffsetSecs // start + -0.0 is start
	if end <= start {
		start, end = s.Start, s.End
	}
	return start, end
}

// sortedSegments is sorted(segments, key=start_time): stable, by the raw
// start time.
func sortedSegments(segs []Segment) []Segment {
	out := append([]Segment(nil), segs...)
	// insertion sort keeps it stable without a closure allocation per call
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Start < out[j-1].Start; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// conversationLog returns conversation_log.txt as the bridge writes it:
// init_output_dir's header (start is its datetime.now().isoformat()),
// then, only when there are segments, _save_conversation_log's entries
// sorted by start time — "[start - end] (duration) ROLE: text", an agent
// entry after a user one followed by its response latency (the agent's
// start minus the last user end) — and the footer with end and the stop
// reason.
func conversationLog(start string, segs []Segment, end, stopReason string) []byte {
	var b strings.Builder
	rule := strings.Repeat("=", 80)
	b.WriteString("RTVI Evaluation Bridge - Conversation Log\n")
	b.WriteString(rule + "\n")
	b.WriteString("Start Time: " + start + "\n")
	b.WriteString(rule + "\n\n")
	if len(segs) == 0 {
		return []byte(b.String())
	}
	var lastUserEnd *float64
	for _, s := range sortedSegments(segs) {
		st, en := offsetSegment(s)
		fmt.Fprintf(&b, "[%7.3fs - %7.3fs] (%.3fs) %s: %s\n", st, en, en-st, strings.ToUpper(s.Speaker), s.Text)
		if s.Speaker == "user" {
			e := en
			lastUserEnd = &e
		} else if lastUserEnd != nil {
			fmt.Fprintf(&b, "  \u2192 Response latency: %.1fms\n", (st-*lastUserEnd)*1000)
		}
	}
	b.WriteString("\n\n" + rule + "\n")
	b.WriteString("End time: " + end + "\n")
	b.WriteString("Stop reason: " + stopReason + "\n")
	b.WriteString(rule + "\n")
	return []byte(b.String())
}

// segLST returns conversation_log.seglst.json (bridge.py _save_seglst):
// json.dump of the sorted segments as {session_id, words, speaker,
// start_time, end_time} with the offsets applied; nil without segments
// (the bridge writes no file then).
func segLST(sessionID string, segs []Segment) ([]byte, error) {
	if len(segs) == 0 {
		return nil, nil
	}
	if sessionID == "" {
		sessionID = "evaluation"
	}
	out := make([]any, 0, len(segs))
	for _, s := range sortedSegments(segs) {
		st, en := offsetSegment(s)
		out = append(out, dict("session_id", sessionID, "words", s.Text, "speaker", s.Speaker, "start_time", st, "end_time", en))
	}
	return dumpIndent(out, 2)
}

// finalDBHashText returns final_scenario_db_hash.txt (bridge.py
// _save_scenario_db): "db_hash: …" and "user_db_hash: …" lines for the
// hashes that came, nil when neither did (no file).
func finalDBHashText(r *Run) []byte {
	var lines []string
	if r.Agent.Summary != nil && r.Agent.Summary.DBHash != nil {
		lines = append(lines, "db_hash: "+*r.Agent.Summary.DBHash)
	}
	if r.User.Summary != nil && r.User.Summary.DBHash != nil {
		lines = append(lines, "user_db_hash: "+*r.User.Summary.DBHash)
	}
	if lines == nil {
		return nil
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// dict builds an ordered dict from key, value pairs.
func dict(kv ...any) pyvalue.Dict {
	d := make(pyvalue.Dict, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		d = append(d, pyvalue.Item{Key: kv[i].(string), Value: kv[i+1]})
	}
	return d
}
