package calltest

// Unexported names the external tests reach.
var (
	JudgePrompt    = judgePrompt
	WriteRepeated  = writeRepeated
	Report         = report
	ErrNotExecuted = errNotExecuted
	ErrInvalidK    = errInvalidK
)

const (
	VerdictPass = verdictPass
	VerdictFail = verdictFail
)

func (r Repeated) Wilson(z float64) (lo, hi float64) { return r.wilson(z) }

// Unexported names of the ElevenLabs format and the judge the external
// tests reach.
var (
	LoadElevenLabs = loadElevenLabs
	ParseVerdict   = parseVerdict
)

// ConditionResult is ElevenLabs' result shape.
type ConditionResult = conditionResult

func (r Result) ConditionResult() ConditionResult { return r.conditionResult() }
