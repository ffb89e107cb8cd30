package harness

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// scenarioJudgePrompt is NeMo's LLMJudge.SCENARIO_PROMPT, the system
// prompt of judge_scenario (prompts/NOTICE gives its origin).
//
//go:embed prompts/scenario_judge.txt
var scenarioJudgePrompt string

// JudgeRequest is what NeMo's judge_scenario is given, and the chat
// messages it sends.
type JudgeRequest struct {
	// Reference and Prediction are json.dumps(normalized, indent=2) of
	// reference_answer.json and final_agent_response.json; nil when the
	// file is absent.
	Reference, Prediction *string
	// Conversation is the transcript, set only with
	// --judge-include-conversation.
	Conversation []Turn
	// AgentContext and UserContext are the llm_context.json texts, nil
	// when absent.
	AgentContext, UserContext []byte
	// NLAssertions are the scenario's assertions (nil: none).
	NLAssertions []string
	// SystemPrompt and UserContent are the two messages to send
	// (NeMo's scenario judge prompt and the XML-tagged sections).
	SystemPrompt, UserContent string
}

// Judge is an LLM judge. It returns the verdict object the model answered
// — {"score", "reason", "nl_assertion_verdicts": [{"index", "passed",
// "reason"}]} as JSON text (ModelJudge finds it in a reply) — or an
// error, which scores 0 as NeMo's judge_scenario does.
type Judge interface {
	Judge(ctx context.Context, req JudgeRequest) (json.RawMessage, error)
}

// JudgeFunc adapts a function to Judge.
type JudgeFunc func(ctx context.Context, req JudgeRequest) (json.RawMessage, error)

// Judge calls f.
func (f JudgeFunc) Judge(ctx context.Context, req JudgeRequest) (json.RawMessage, error) {
	return f(ctx, req)
}

var (
	fenced   = regexp.MustCompile("(?s)```(?:json)?\\s*(\\{.*?\\})\\s*```")
	scoreObj = regexp.MustCompile(`\{[^{}]*"score"\s*:\s*[\d.]+[^{}]*\}`)
)

// parseVerdict is LLMJudge._parse_response on the message content: the
// content as JSON, else the first ```json fenced object, else the first
// flat object with a numeric "score".
func parseVerdict(content string) (json.RawMessage, error) {
	if _, err := pyvalue.Loads([]byte(content)); err == nil {
		return json.RawMessage(content), nil
	}
	for _, re := range []*regexp.Regexp{fenced, scoreObj} {
		m := re.FindStringSubmatch(content)
		if m == nil {
			continue
		}
		text := m[len(m)-1]
		if _, err := pyvalue.Loads([]byte(text)); err != nil {
			return nil, err // json.loads raises: no further fallback in NeMo
		}
		return json.RawMessage(text), nil
	}
	//lint:ignore ST1005 NeMo's text, which lands in judge_result.json's reason
	return nil, fmt.Errorf("Could not parse judgement JSON from LLM response: %s", content)
}

// judgeRequest builds judge_scenario's sections.
func judgeRequest(ref, pred *string, conv []Turn, agentCtx, userCtx []byte, nl []string) (JudgeRequest, bool, error) {
	req := JudgeRequest{Reference: ref, Prediction: pred, Conversation: conv, NLAssertions: nl, SystemPrompt: scenarioJudgePrompt}
	var sections []string
	if ref != nil {
		sections = append(sections, "<reference>\n"+*ref+"\n</reference>")
	}
	if pred != nil {
		sections = append(sections, "<prediction>\n"+*pred+"\n</prediction>")
	}
	if len(conv) > 0 {
		lines := make([]string, len(conv))
		for i, t := range conv {
			lines[i] = "[" + t.Role + "]: " + t.Text
		}
		sections = append(sections, "<conversation>\n"+strings.Join(lines, "\n")+"\n</conversation>")
	}
	if len(nl) > 0 {
		lines := make([]string, len(nl))
		for i, a := range nl {
			lines[i] = strconv.Itoa(i+1) + ". " + a
		}
		sections = append(sections, "<nl_assertions>\n"+strings.Join(lines, "\n")+"\n</nl_assertions>")
	}
	agentText, agentOK, err := contextText(agentCtx)
	if err != nil {
		return req, false, err
	}
	userText, userOK, err := contextText(userCtx)
	if err != nil {
		return req, false, err
	}
	if agentOK {
		req.AgentContext = agentCtx
		sections = append(sections, "<agent_context_history>\n"+agentText+"\n</agent_context_history>")
	}
	if userOK {
		req.UserContext = userCtx
		sections = append(sections, "<user_context_history>\n"+userText+"\n</user_context_history>")
	}
	req.UserContent = strings.Join(sections, "\n\n")
	evidence := (pred != nil && pyvalue.Strip(*pred) != "") || len(conv) > 0 || agentOK || userOK
	return req, evidence, nil
}

// contextText is json.dumps(json.load(llm_context.json), indent=2) and
// whether the loaded value is truthy.
func contextText(b []byte) (string, bool, error) {
	if b == nil {
		return "", false, nil
	}
	v, err := pyvalue.Loads(b)
	if err != nil {
		return "", false, fmt.Errorf("harness: llm_context.json: %w", err)
	}
	if !pyvalue.Truthy(v) {
		return "", false, nil
	}
	out, err := dumpIndent(v, 2)
	return string(out), true, err
}

// judgeOutcome is judge_scenario's returned dict (judge_result.json) and
// the two values the runner takes from it.
type judgeOutcome struct {
	result   pyvalue.Dict
	score    float64
	verdicts []any // the normalised nl_assertion_verdicts (nil without assertions)
}

func set(d pyvalue.Dict, key string, v any) pyvalue.Dict {
	for i := range d {
		if d[i].Key == key {
			d[i].Value = v
			return d
		}
	}
	return append(d, pyvalue.Item{Key: key, Value: v})
}

func failedVerdicts(nl []string, reason string) []any {
	out := make([]any, len(nl))
	for i, a := range nl {
		out[i] = pyvalue.Dict{{Key: "index", Value: i + 1}, {Key: "assertion", Value: a}, {Key: "passed", Value: false}, {Key: "reason", Value: reason}}
	}
	return out
}

const noEvidence = "No observed agent evidence was provided. At least one of prediction, conversation, " +
	"agent_context_history, user_context_history, or context_history is required."

// runJudge is LLMJudge.judge_scenario around j.
func runJudge(ctx context.Context, j Judge, req JudgeRequest, evidence bool) judgeOutcome {
	nl := req.NLAssertions
	input := pyvalue.Dict{{Key: "system_prompt", Value: req.SystemPrompt}, {Key: "user_content", Value: req.UserContent}}
	fail := func(reason, verdictReason string) judgeOutcome {
		d := pyvalue.Dict{{Key: "score", Value: 0.0}, {Key: "reason", Value: reason}, {Key: "judge_input", Value: input}}
		var vs []any
		if len(nl) > 0 {
			vs = failedVerdicts(nl, verdictReason)
			d = append(d, pyvalue.Item{Key: "nl_assertion_verdicts", Value: vs},
				pyvalue.Item{Key: "nl_assertion_pass_count", Value: 0},
				pyvalue.Item{Key: "nl_assertion_total", Value: len(nl)},
				pyvalue.Item{Key: "nl_assertion_pass_rate", Value: 0.0})
		}
		return judgeOutcome{result: d, score: 0, verdicts: vs}
	}
	if !evidence {
		return fail(noEvidence, noEvidence)
	}
	if req.UserContent == "" {
		return judgeOutcome{result: pyvalue.Dict{{Key: "score", Value: 0.0}, {Key: "reason", Value: "No judge evidence was provided."}}}
	}
	out, err := judgeOnce(ctx, j, req)
	if err != nil {
		// The error may quote the reply, which a Go judge can hand over
		// as bytes that are not UTF-8; Python's would be a decoded str.
		msg := strings.ToValidUTF8(err.Error(), "\uFFFD")
		return fail("Error: "+msg, "Judge error: "+msg)
	}
	out.result = set(out.result, "judge_input", input)
	if len(nl) == 0 {
		return out
	}
	raw, _ := out.result.Get("nl_assertion_verdicts")
	byIndex := map[int]any{}
	if list, ok := raw.([]any); ok {
		for _, v := range list {
			if !isDict(v) {
				continue
			}
			iv, _ := dictGet(v, "index")
			n, err := pyvalue.Int(iv)
			if err != nil {
				continue
			}
			if k, ok := n.Int64(); ok && k >= 1 && int(k) <= len(nl) {
				byIndex[int(k)] = v
			}
		}
	}
	passes := 0
	vs := make([]any, len(nl))
	for i := 1; i <= len(nl); i++ {
		v, ok := byIndex[i]
		passed := false
		var reason any = "Missing verdict; treated as failed."
		if ok {
			p, _ := dictGet(v, "passed")
			passed = p == true
			reason = ""
			if r, ok := dictGet(v, "reason"); ok {
				reason = r
			}
		}
		if passed {
			passes++
		}
		vs[i-1] = pyvalue.Dict{{Key: "index", Value: i}, {Key: "assertion", Value: nl[i-1]}, {Key: "passed", Value: passed}, {Key: "reason", Value: reason}}
	}
	out.result = set(out.result, "nl_assertion_verdicts", vs)
	out.result = set(out.result, "nl_assertion_pass_count", passes)
	out.result = set(out.result, "nl_assertion_total", len(nl))
	out.result = set(out.result, "nl_assertion_pass_rate", float64(passes)/float64(len(nl)))
	out.verdicts = vs
	return out
}

// judgeOnce calls the judge and reads score and reason as NeMo does:
// float(result["score"]), reason defaulting to "".
func judgeOnce(ctx context.Context, j Judge, req JudgeRequest) (out judgeOutcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("judge panicked: %v", r)
		}
	}()
	judgeMeterOf(ctx).consult()
	raw, err := j.Judge(ctx, req)
	if err != nil {
		return out, err
	}
	v, err := pyvalue.Loads(raw)
	if err != nil {
		return out, err
	}
	d, ok := v.(pyvalue.Dict)
	if !ok {
		return out, errors.New("the judge's verdict is not a JSON object")
	}
	d = d.Items()
	s, ok := d.Get("score")
	if !ok {
		return out, errors.New("'score'")
	}
	score, err := pyvalue.Float(s)
	if err != nil {
		return out, err
	}
	d = set(d, "score", score)
	if _, ok := d.Get("reason"); !ok {
		d = set(d, "reason", "")
	}
	return judgeOutcome{result: d, score: score}, nil
}
