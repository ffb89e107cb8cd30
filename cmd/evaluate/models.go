package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/openai/openai-go/v3/option"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/cmd/internal/llmflags"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/provider/openai"
)

// modelFlags are a model server's settings.
type modelFlags struct {
	url, model, keyEnv string
	provider           string // openai ("" too), anthropic or gemini
}

// llmFlags are an in-process bot's model settings: -llm-* for both bots,
// and each role's as resolved (roleModels).
type llmFlags struct {
	modelFlags
	timeout     time.Duration // bound of each request attempt
	maxTokens   int           // max_completion_tokens (max_tokens, maxOutputTokens); 0: none sent
	temperature float64       // sent when not negative
	seed        int           // sent when not negative
	textCalls   string        // "keep" (pipecat's: spoken as text) or "repair" (agent.RepairTextCalls)
	toolSteps   int           // agent.Loop.ToolSteps of each bot turn; 0: no bound
}

// The -llm-text-calls values.
const (
	textCallsKeep   = "keep"
	textCallsRepair = "repair"
)

// judgeFlags are NeMo's judge settings (run_evaluation.py's --judge-*).
type judgeFlags struct {
	modelFlags
	timeout             time.Duration
	temperature, topP   float64
	seed, maxTokens     int
	threshold           float64
	includeConversation bool
}

// roleFlag are one role's -<role>-llm-* flags as given.
type roleFlag struct {
	url, model, provider, keyEnv string
	timeout                      time.Duration
	maxTokens                    int
}

// roleModels are the per-role model flags, what they resolve to, and the
// price table.
type roleModels struct {
	agentFlags, userFlags roleFlag
	// agent and user are each in-process bot's model settings: its
	// -<role>-llm-* flags where given, else -llm-*'s (resolveRoles).
	agent, user llmFlags
	pricesFile  string
	prices      map[string]harness.Price
	// set holds the flags given on the command line, by name.
	set map[string]bool
}

// roleFlags registers -llm-provider, -judge-provider, -prices and each
// role's -<role>-llm-url, -model, -provider, -key-env, -timeout and
// -max-tokens.
func roleFlags(fs *flag.FlagSet, f *flags) {
	fs.StringVar(&f.llm.provider, "llm-provider", llmflags.OpenAI, "adapter of -llm-url: openai (Chat Completions), anthropic (Messages API) or gemini")
	fs.StringVar(&f.judge.provider, "judge-provider", llmflags.OpenAI, "adapter of -judge-url: openai (NeMo's: Chat Completions, NeMo's sampling defaults), anthropic or gemini (only the -judge-* sampling and max-tokens flags given are sent)")
	fs.StringVar(&f.roles.pricesFile, "prices", "", `JSON price table, US dollars per million tokens: {"model": {"input": 2.5, "cached_input": 1.25, "output": 10}}; each scenario's cost.json and the run's cost_summary.json give the cost (unknown for a model not in it)`)
	for _, r := range []struct {
		name, who string
		rf        *roleFlag
	}{{"agent", "agent", &f.roles.agentFlags}, {"user", "user simulator", &f.roles.userFlags}} {
		p := r.name + "-llm-"
		fs.StringVar(&r.rf.url, p+"url", "", "the in-process "+r.who+"'s model server (default -llm-url)")
		fs.StringVar(&r.rf.model, p+"model", "", "the "+r.who+"'s model name (default -llm-model); with -agent-url and -user-url, names the external "+r.who+"'s model for cost.json")
		fs.StringVar(&r.rf.provider, p+"provider", "", "adapter of -"+p+"url: openai, anthropic or gemini (default -llm-provider)")
		fs.StringVar(&r.rf.keyEnv, p+"key-env", "", "environment variable holding -"+p+"url's API key (default -llm-key-env if given, else the provider's: OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY; unset: \"EMPTY\")")
		fs.DurationVar(&r.rf.timeout, p+"timeout", 0, "bound of each -"+p+"url request attempt (default -llm-timeout)")
		fs.IntVar(&r.rf.maxTokens, p+"max-tokens", 0, "max tokens of each -"+p+"url request; 0: none sent (default -llm-max-tokens)")
	}
}

// resolve is a role's model settings: its flags where given, else
// -llm-*'s; the key variable, unless given, is the provider's.
func (rm *roleModels) resolve(role string, def llmFlags, rf roleFlag) llmFlags {
	out, p := def, role+"-llm-"
	if rm.set[p+"url"] {
		out.url = rf.url
	}
	if rm.set[p+"model"] {
		out.model = rf.model
	}
	if rm.set[p+"provider"] {
		out.provider = rf.provider
	}
	if rm.set[p+"timeout"] {
		out.timeout = rf.timeout
	}
	if rm.set[p+"max-tokens"] {
		out.maxTokens = rf.maxTokens
	}
	switch {
	case rm.set[p+"key-env"]:
		out.keyEnv = rf.keyEnv
	case rm.set["llm-key-env"]:
	default:
		out.keyEnv = llmflags.KeyEnv(out.provider)
	}
	return out
}

// flagName is -<role>-llm-<name> when given, else -llm-<name>: the flag a
// role's setting came from.
func (rm *roleModels) flagName(role, name string) string {
	if rm.set[role+"-llm-"+name] {
		return "-" + role + "-llm-" + name
	}
	return "-llm-" + name
}

// llmModel is an in-process bot's model (the agent and the user
// simulator each have their own, each on its own context) on its
// provider's adapter (cmd/internal/llmflags; openai: the official
// openai-go SDK), each request bounded by the timeout and, when set, the
// max tokens; -llm-temperature and -llm-seed are sent when set (a real
// model in a test is then reproducible); with -llm-text-calls repair, a
// call the model writes as JSON text is made a call
// (agent.RepairTextCalls).
func llmModel(ctx context.Context, f llmFlags) (agent.Model, error) {
	s := llmflags.Settings{Provider: f.provider, URL: f.url, Model: f.model, APIKey: llmflags.APIKey(f.keyEnv),
		Timeout: timeoutOption(f.timeout), MaxTokens: f.maxTokens}
	if f.temperature >= 0 {
		s.Temperature = &f.temperature
	}
	if f.seed >= 0 {
		s.Seed = &f.seed
	}
	m, err := llmflags.New(ctx, s)
	if err != nil {
		return nil, err
	}
	if f.textCalls == textCallsRepair {
		m = agent.RepairTextCalls(m)
	}
	return m, nil
}

// judge returns the run's judge: nil without -judge-url and -judge-model
// (NeMo's --judge-url ""), else, on openai, NeMo's LLMJudge settings on
// provider/openai — one non-streaming request per scenario with its
// sampling settings and chat_template_kwargs {"enable_thinking": true}, as
// run_evaluation.py sends them. On anthropic or gemini (-judge-provider),
// whose APIs NeMo never calls, one non-streaming request with only the
// sampling and max-tokens flags given (NeMo's defaults are its vLLM
// server's: max_tokens 100000 and a seed are refused by other APIs).
func judge(ctx context.Context, f judgeFlags, set map[string]bool) (harness.Judge, error) {
	if f.url == "" || f.model == "" {
		return nil, nil
	}
	if f.provider != "" && f.provider != llmflags.OpenAI {
		s := llmflags.Settings{Provider: f.provider, URL: f.url, Model: f.model, APIKey: llmflags.APIKey(f.keyEnv),
			Timeout: timeoutOption(f.timeout), NoStreaming: true}
		if set["judge-max-tokens"] {
			s.MaxTokens = f.maxTokens
		}
		if set["judge-temperature"] {
			s.Temperature = &f.temperature
		}
		if set["judge-top-p"] {
			s.TopP = &f.topP
		}
		if set["judge-seed"] {
			s.Seed = &f.seed
		}
		m, err := llmflags.New(ctx, s)
		if err != nil {
			return nil, err
		}
		return harness.ModelJudge(m), nil
	}
	m := openai.New(f.model, &openai.Options{
		BaseURL:     llmflags.BaseURL(f.url),
		APIKey:      llmflags.APIKey(f.keyEnv),
		Timeout:     timeoutOption(f.timeout),
		NoStreaming: true,
		RequestOptions: []option.RequestOption{
			option.WithJSONSet("temperature", f.temperature),
			option.WithJSONSet("top_p", f.topP),
			option.WithJSONSet("seed", f.seed),
			option.WithJSONSet("max_tokens", f.maxTokens),
			option.WithJSONSet("chat_template_kwargs", map[string]any{"enable_thinking": true}),
		},
	})
	return harness.ModelJudge(m), nil
}

// timeoutOption is the adapters' Timeout for a -llm-timeout or
// -judge-timeout value: 0 or less is no bound (negative), as the flags
// have always meant.
func timeoutOption(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}

// checkModelFlags resolves each role's model (f.roles.agent, .user) and
// reports a setting given without its pair, out of range, or for bots it
// cannot drive; and reads -prices.
func checkModelFlags(f *flags) error {
	llm, j, rm := f.llm, f.judge, &f.roles
	external := f.agentURLs != ""
	switch {
	case (j.url == "") != (j.model == ""):
		return fmt.Errorf("give both -judge-url and -judge-model, or neither")
	case llm.timeout <= 0:
		return fmt.Errorf("-llm-timeout must be positive, not %v", llm.timeout)
	case llm.maxTokens < 0:
		return fmt.Errorf("-llm-max-tokens must be positive, or 0 to send none, not %d", llm.maxTokens)
	case llm.toolSteps < 0:
		return fmt.Errorf("-llm-tool-steps must be positive, or 0 for no bound, not %d", llm.toolSteps)
	case llm.textCalls != textCallsKeep && llm.textCalls != textCallsRepair:
		return fmt.Errorf("-llm-text-calls is keep or repair, not %q", llm.textCalls)
	case j.timeout <= 0 || j.maxTokens <= 0:
		return fmt.Errorf("-judge-timeout and -judge-max-tokens must be positive")
	}
	if err := llmflags.CheckProvider("-llm-provider", llm.provider); err != nil {
		return err
	}
	if err := llmflags.CheckProvider("-judge-provider", j.provider); err != nil {
		return err
	}
	if j.provider == llmflags.Anthropic && rm.set["judge-seed"] {
		return errors.New("-judge-seed: anthropic's API takes no seed")
	}
	rm.agent = rm.resolve("agent", llm, rm.agentFlags)
	rm.user = rm.resolve("user", llm, rm.userFlags)
	for _, r := range []struct {
		name string
		m    llmFlags
	}{{"agent", rm.agent}, {"user", rm.user}} {
		if external {
			for _, n := range []string{"url", "provider", "key-env", "timeout", "max-tokens"} {
				if rm.set[r.name+"-llm-"+n] {
					return fmt.Errorf("-%s-llm-%s is the in-process %s's: give it without -agent-url and -user-url (-%s-llm-model alone names an external bot's model)", r.name, n, r.name, r.name)
				}
			}
			continue
		}
		switch {
		case (r.m.url == "") != (r.m.model == ""):
			return fmt.Errorf("the %s's model needs a URL and a name: %s and %s", r.name, rm.flagName(r.name, "url"), rm.flagName(r.name, "model"))
		case r.m.url == "":
			continue
		case r.m.timeout <= 0:
			return fmt.Errorf("%s must be positive, not %v", rm.flagName(r.name, "timeout"), r.m.timeout)
		case r.m.maxTokens < 0:
			return fmt.Errorf("%s must be positive, or 0 to send none, not %d", rm.flagName(r.name, "max-tokens"), r.m.maxTokens)
		}
		if err := llmflags.CheckProvider(rm.flagName(r.name, "provider"), r.m.provider); err != nil {
			return err
		}
		if r.m.provider == llmflags.Anthropic && r.m.seed >= 0 {
			return fmt.Errorf("-llm-seed: anthropic's API takes no seed (the %s's model, %s anthropic)", r.name, rm.flagName(r.name, "provider"))
		}
	}
	if !external && (rm.agent.url == "") != (rm.user.url == "") {
		return errors.New("a model drives both in-process bots or neither: give -llm-url, or both -agent-llm-url and -user-llm-url")
	}
	if rm.pricesFile != "" {
		b, err := os.ReadFile(rm.pricesFile)
		if err != nil {
			return fmt.Errorf("-prices: %w", err)
		}
		if rm.prices, err = harness.ParsePrices(b); err != nil {
			return fmt.Errorf("-prices %s: %w", rm.pricesFile, err)
		}
	}
	return nil
}

// costOptions sets the models cost.json names and the price table, and
// warns of a role whose cost will be unknown for want of a price.
func costOptions(o *harness.Options, f flags, stderr io.Writer) {
	o.Prices = f.roles.prices
	o.AgentModel, o.UserModel = f.roles.agent.model, f.roles.user.model
	if o.Judge != nil {
		o.JudgeModel = f.judge.model
	}
	if o.Prices == nil {
		return
	}
	for _, r := range []struct{ role, model, flag string }{
		{"agent", o.AgentModel, "-agent-llm-model"}, {"user", o.UserModel, "-user-llm-model"}, {"judge", o.JudgeModel, ""},
	} {
		switch {
		case r.role == "judge" && o.Judge == nil:
		case r.model == "":
			fmt.Fprintf(stderr, "evaluate: the %s's model is not named (%s): its cost will be unknown\n", r.role, r.flag)
		default:
			if _, ok := o.Prices[r.model]; !ok {
				fmt.Fprintf(stderr, "evaluate: -prices has no price for the %s's model %q: its cost will be unknown\n", r.role, r.model)
			}
		}
	}
}
