package harness

import "github.com/voiceeval/schematools/hooks"

// The six signals (scenarios/classes.py SuccessSignal), in the order the
// runner's signal_checks lists them; the values are metrics.json keys.
const (
	signalActionMatch      = "is_action_match"
	signalDBStateMatch     = "db_state_match"
	signalDBStateAssertion = "db_state_assertion"
	signalNLAssertion      = "nl_assertion"
	signalJudgePassed      = "judge_passed"
	signalCleanExit        = "clean_exit"
)

// signals lists the six signals in signal_checks order.
var signals = []string{signalActionMatch, signalDBStateMatch, signalDBStateAssertion, signalNLAssertion, signalJudgePassed, signalCleanExit}

// stopReasonExit and stopReasonTimeout are the bridge's stop reasons
// (bridge.py STOP_REASON_EXIT, STOP_REASON_TIMEOUT).
const (
	stopReasonExit    = "[EXIT]"
	stopReasonTimeout = "[TIMEOUT]"
)

// Assertion is one DB-state assertion (metadata db_state_assertions).
type Assertion struct {
	Side        string
	FuncName    string
	Arguments   map[string]any
	AssertValue any
	Message     *string
}

// Action is one initialisation action: the side that replays it ("user"
// or "agent"), the initialisation function and its keyword arguments (the
// JSON fields in that order, as apply_initialization carries them).
type Action struct {
	Side      string         `json:"side"`
	FuncName  string         `json:"func_name"`
	Arguments map[string]any `json:"arguments"`
}

// Scenario is what a run sets up and scoring reads of a scenario
// (domains/nemo/scenarios has every one of NeMo's; domains/nemo/nemoeval
// converts them).
type Scenario struct {
	Name string
	// Domain is the tool domain; DB-state predicates are looked up under
	// it.
	Domain string
	// SuccessSignals are the signals that decide is_successful, by their
	// metrics.json keys: "is_action_match", "db_state_match",
	// "db_state_assertion", "nl_assertion", "judge_passed", "clean_exit".
	SuccessSignals []string
	// ReferenceAnswer is reference_answer.json's text, "" when the
	// scenario has none.
	ReferenceAnswer string
	// ExpectedDBHash is get_dict_hash(expected_scenario_db) (metadata
	// expected_db_hash), "" when the scenario has no expected DB.
	ExpectedDBHash    string
	NLAssertions      []string
	DBStateAssertions []Assertion
	// The comparator's options (metadata.json).
	IgnoreCapitalization, IgnorePunctuation, CleanText, DisallowExtraItems bool

	// The setup RunScenario sends; scoring does not read it.

	// MaxDuration is the run length in seconds (max_duration).
	MaxDuration int
	// AgentPrompt and UserPrompt are the system prompts of the two bots.
	AgentPrompt, UserPrompt string
	// AgentTools and UserTools are the JSON texts of the {tool: kwargs}
	// maps that update_system_prompt carries ("{}" for none).
	AgentTools, UserTools string
	// SharedStateInitAgent and SharedStateInitUser are each side's
	// shared_state_init (nil sends {}).
	SharedStateInitAgent, SharedStateInitUser map[string]any
	// InitializationActions are the actions replayed before the run, each
	// with its side; nil when none.
	InitializationActions []Action

	// Config holds the scenario_config files by name, written to the
	// scenario's directory by Evaluate (nil: none); nothing reads it.
	Config map[string]string
}

// Summary is one side's get_scenario_summary answer.
type Summary struct {
	// Actions is the action log; nil when the answer had none (absent or
	// null), an empty non-nil slice for [].
	Actions []any
	// DBHash is db_hash, nil when absent or null.
	DBHash *string
	// DB is the DB sent with include_db (nil when not sent).
	DB map[string]any
}

// Usage is one side's token_usage: n_calls counts the model calls,
// prompt and completion sum their metrics tokens entries. When every call
// reported its usage, n_calls is NeMo's (the tokens entries).
type Usage struct {
	NCalls, Prompt, Completion int64
	// CallsWithoutUsage counts the calls that reported no usage (a
	// response without a tokens entry, or an entry lacking a count); when
	// it is not 0, Prompt and Completion are unknown (they sum only what
	// was reported) and metrics.json writes them as null.
	CallsWithoutUsage int64
}

// Side is what the bridge pulled from one bot and counted of its events.
type Side struct {
	// Context is llm_context.json's text (json.dump(context, indent=2));
	// nil when the runner would find no file.
	Context []byte
	// Summary is the get_scenario_summary answer, nil when none came.
	Summary *Summary
	Tokens  Usage
}

// Turn is one transcript turn of metrics "turns".
type Turn struct {
	Timestamp string // datetime.now().isoformat() at the turn's end
	Role      string // "user" or "agent"
	Text      string
}

// Latency is one measured response latency of metrics "latencies". In a
// text run (RunScenario) it is the time from the send-text that relayed
// the user's turn to the agent's first speech event (bot-started-speaking,
// or a bot-tts-text with text) after it.
type Latency struct {
	UserTranscript, AgentTranscript string
	LatencyMs                       float64
}

// Run is everything a scenario run produced, as the bridge pulls it.
type Run struct {
	Scenario    Scenario
	Agent, User Side
	// FinalResponses are the agent's <final_response> texts (the push
	// path, used when no action list was pulled).
	FinalResponses []string
	Turns          []Turn
	// Latencies are the agent's answers to the user's relayed turns:
	// from the send-text to the agent's first speech, in a text run.
	Latencies []Latency
	// StopReason is "[EXIT]" when the agent sent <exit>, else "[TIMEOUT]"
	// or another reason.
	StopReason string
	// DurationSeconds is the bridge's start-to-end time (0 when it never
	// started); ScenarioDuration the runner's wall time around
	// run_scenario.
	DurationSeconds, ScenarioDuration float64
	// ScenarioDirectory is <run>/<scenario>, written as metrics
	// scenario_directory.
	ScenarioDirectory string
	// Segments are the bridge's finalised turns with their times, for
	// conversation_log.txt and its segLST file.
	Segments []Segment
	// LogStartTime is the isoformat time conversation_log.txt's header
	// gives (when the scenario directory was prepared); EndTime the
	// scenario's end (metrics end_time), in its footer, both as Python's
	// datetime.isoformat() writes them.
	LogStartTime, EndTime string
	// Failure says why a bot failed the scenario ("<status>: <reason>",
	// as Evaluate records a failed run); "" for a run that was scored
	// normally.
	Failure string
	// Verification is the verdict on the pulled summaries
	// (VerifySummaries), written as summary_verified; nil when not
	// verified.
	Verification *Verification

	// latency is both sides' response times as RunScenario measured them
	// (latency_detail.json); nil when not measured.
	latency *latencyDetail
	// calls are both bots' model calls as RunScenario listed them from
	// their metrics events (cost.json); nil when not measured.
	calls *runCalls
}

// Options are the runner's scoring flags.
type Options struct {
	// Judge scores JUDGE_PASSED and NL_ASSERTION; nil is --judge-url "":
	// no judge_score, judge_passed or nl_assertion_pass_rate, those
	// signals not applicable.
	Judge Judge
	// JudgeThreshold is --judge-threshold (NeMo's default 0.9); nil means
	// None: judge_score is kept but judge_passed never set.
	JudgeThreshold *float64
	// JudgeIncludeConversation is --judge-include-conversation.
	JudgeIncludeConversation bool
	// MinAgentTurns is --min-agent-turns (NeMo's default 3; 0 disables).
	MinAgentTurns int
	// StrictMatch is --strict-match (disallow_extra_items on every
	// scenario).
	StrictMatch bool
	// Predicates holds the DB-state predicates by tool domain (for
	// tau2_telecom: telecom.Hooks().Predicates).
	Predicates map[string]map[string]hooks.Predicate
	// Prices, when set, prices the tokens of each role in the scenario's
	// cost.json (ParsePrices reads a table), by the model names below; a
	// model it does not hold, or usage a call did not report, leaves
	// that cost unknown (null, with the reason), never 0.
	Prices map[string]Price
	// AgentModel, UserModel and JudgeModel name the model each role ran,
	// as cost.json records them and Prices is looked up ("": not named).
	AgentModel, UserModel, JudgeModel string
}

// defaultJudgeThreshold is run_evaluation.py's --judge-threshold default.
const defaultJudgeThreshold = 0.9

// defaultMinAgentTurns is run_evaluation.py's --min-agent-turns default.
const defaultMinAgentTurns = 3

// defaultOptions are run_evaluation.py's defaults, without a judge.
func defaultOptions() Options {
	t := defaultJudgeThreshold
	return Options{JudgeThreshold: &t, MinAgentTurns: defaultMinAgentTurns}
}
