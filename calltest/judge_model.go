package calltest

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/voiceeval/schematools/agent"
)

// judgePrompt is the system prompt of [ModelJudge]: schematools' own
// (judge_prompt.txt), since ElevenLabs publishes none for its llm
// evaluation. It asks for the verdict format [parseVerdict] reads.
//
//go:embed judge_prompt.txt
var judgePrompt string

// ErrVerdict is wrapped by the error for a judge's answer that is not a
// verdict; the check is then Unknown, never a pass.
var ErrVerdict = errors.New("calltest: not a verdict")

// The verdicts a judge answers.
const (
	verdictPass = "pass"
	verdictFail = "fail"
)

// JudgeOptions configure [ModelJudge]; a nil *JudgeOptions is the zero
// value.
type JudgeOptions struct {
	// Prompt replaces the default system prompt, schematools' own
	// (calltest/judge_prompt.txt; ElevenLabs publishes none), when not
	// "". It must ask for the format ModelJudge reads.
	Prompt string
}

// ModelJudge returns a [Judge] that asks m, one call per llm check, with no
// tools: the system prompt, then one user message holding the question as
// JSON ({"criterion", "path", "value", "call", "conversation"}). The answer
// must be one JSON object {"verdict": "pass"|"fail", "reason": string},
// optionally inside one Markdown code fence; anything else (text around
// it, another verdict word, a missing reason, another key) is an error
// wrapping [ErrVerdict]. An answer it cannot read, or a model error, is
// the judge's error, so the check is Unknown. The judge is safe for
// concurrent use when m is.
func ModelJudge(m agent.Model, opts *JudgeOptions) Judge {
	prompt := judgePrompt
	if opts != nil && opts.Prompt != "" {
		prompt = opts.Prompt
	}
	return JudgeFunc(func(ctx context.Context, q Question) (bool, string, error) {
		body, err := judgeQuestion(q)
		if err != nil {
			return false, "", err
		}
		resp, err := m.Complete(ctx, agent.Request{Messages: []agent.Message{
			{Role: agent.RoleSystem, Content: prompt},
			{Role: agent.RoleUser, Content: body},
		}})
		if err != nil {
			return false, "", fmt.Errorf("calltest: judge model: %w", err)
		}
		return parseVerdict(resp.Text)
	})
}

// judgeQuestion writes q as the judge's user message.
func judgeQuestion(q Question) (string, error) {
	conv := q.History
	if conv == nil {
		conv = []Turn{}
	}
	args := q.Call.Arguments
	if args == nil {
		args = map[string]any{}
	}
	b, err := json.Marshal(struct {
		Criterion    string `json:"criterion"`
		Path         string `json:"path"`
		Value        any    `json:"value"`
		Call         Call   `json:"call"`
		Conversation []Turn `json:"conversation"`
	}{q.Criterion, q.Path, q.Value, Call{Name: q.Call.Name, Arguments: args}, conv})
	if err != nil {
		return "", fmt.Errorf("calltest: judge question: %w", err)
	}
	return string(b), nil
}

// parseVerdict reads a judge's answer: one JSON object
// {"verdict": "pass"|"fail", "reason": string}, with white space around it
// and optionally inside one Markdown code fence (```json … ```), which
// models add though told not to. It returns whether the verdict is pass and
// the reason. Anything else is an error wrapping [ErrVerdict]: no object,
// text before or after it, a verdict other than the two lowercase words, a
// missing or non-string reason, a key given twice, a key other than
// verdict and reason. Nothing unreadable is a pass.
func parseVerdict(text string) (pass bool, reason string, err error) {
	s := unfence(strings.TrimSpace(text))
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return false, "", verdictErr(text, "not a JSON object")
	}
	fields := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false, "", verdictErr(text, "malformed JSON")
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return false, "", verdictErr(text, "malformed JSON")
		}
		if key != "verdict" && key != "reason" {
			return false, "", verdictErr(text, fmt.Sprintf("unexpected key %q", key))
		}
		if _, dup := fields[key]; dup {
			return false, "", verdictErr(text, fmt.Sprintf("key %q given twice", key))
		}
		fields[key] = raw
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return false, "", verdictErr(text, "malformed JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return false, "", verdictErr(text, "text after the object")
	}
	verdict, ok := jsonString(fields["verdict"])
	if !ok {
		return false, "", verdictErr(text, `"verdict" missing or not a string`)
	}
	if reason, ok = jsonString(fields["reason"]); !ok {
		return false, "", verdictErr(text, `"reason" missing or not a string`)
	}
	switch verdict {
	case verdictPass:
		return true, reason, nil
	case verdictFail:
		return false, reason, nil
	}
	return false, "", verdictErr(text, fmt.Sprintf("verdict %q is neither %q nor %q", verdict, verdictPass, verdictFail))
}

// jsonString decodes raw when it is a JSON string (not null).
func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// unfence removes one Markdown code fence around s, if there is one.
func unfence(s string) string {
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s
	}
	inner := s[3 : len(s)-3]
	nl := strings.IndexByte(inner, '\n')
	if nl < 0 {
		return s
	}
	if lang := strings.TrimSpace(inner[:nl]); lang != "" && lang != "json" {
		return s
	}
	return strings.TrimSpace(inner[nl+1:])
}

// verdictErr says why text is not a verdict, quoting a bounded part of it.
func verdictErr(text, why string) error {
	const limit = 200
	q := text
	if len(q) > limit {
		q = strings.ToValidUTF8(q[:limit], "") + "…"
	}
	return fmt.Errorf("%w: %s: %q", ErrVerdict, why, q)
}
