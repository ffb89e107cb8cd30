// Command evaluate runs NeMo scenarios against a pair of RTVI bots and
// writes the run in NeMo's layout (harness.Evaluate: one directory per
// scenario, results.jsonl, all_metrics.json, report.html), as NeMo's
// run_evaluation.py does, in text.
//
//	go run . -scenarios tau2_retail__0,tau2_airline__7 -out DIR
//	go run . -domain all-gold -parallel 4 -out DIR
//	go run . -scenarios ... -agent-url ws://127.0.0.1:8765 -user-url ws://127.0.0.1:8766 -out DIR
//	go run . -domain qa -llm-url http://127.0.0.1:8000/v1 -llm-model M -judge-url http://127.0.0.1:8000/v1/chat/completions -judge-model J -out DIR
//	go run . -domain qa -agent-llm-url URL -agent-llm-model A -user-llm-url URL2 -user-llm-model U -user-llm-provider anthropic -prices prices.json -out DIR
//	go run . -scenarios ... -resume DIR/eval_<timestamp>
//
// With no bot URLs it runs the repository's Go bots in-process
// (rtvi/rtviws servers over loopback WebSockets, one pair per parallel
// slot), driven by scripted stand-in models: the agent plays the
// scenario's gold calls — a tau2 task's (domains/tau2script) or an
// eva_airline gold path (domains/evascript) — and the user
// simulator answers every turn with one scripted text, except in tau2
// telecom, where it also performs the task's user-side gold actions on
// the phone, in the task's order (tau2script's Dual). -domain all-gold
// runs every scenario with such a script: all 278 tau2 airline, retail and
// telecom scenarios and the eva_airline ones with a gold path. For two-
// sided domains (telecom) the harness keeps NeMo's shadow DBs and pushes
// the cross-side sync deltas, for in-process and external bots alike.
// With -llm-url and -llm-model the in-process bots are driven by a real
// model instead (by default an OpenAI-compatible server, through the
// official openai-go SDK: provider/openai; -llm-provider anthropic or
// gemini takes those adapters), both roles on the same server, and any
// scenario can run; -llm-timeout bounds each request attempt (60 s) and
// -llm-max-tokens, when not 0, is sent as max_completion_tokens
// (anthropic: max_tokens, gemini: maxOutputTokens).
//
// A model per role: -agent-llm-url, -agent-llm-model,
// -agent-llm-provider, -agent-llm-key-env, -agent-llm-timeout and
// -agent-llm-max-tokens (and the same with -user-llm-) set one bot's
// model, each flag overriding its -llm- default for that bot alone; both
// in-process bots run on models or neither does. The key variable is
// -<role>-llm-key-env, else -llm-key-env when given, else the provider's
// (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY). With external bots
// (-agent-url), -agent-llm-model and -user-llm-model (or -llm-model) only
// name their models for cost.json.
//
// Every scenario directory gets a cost.json (harness's): each role's
// model, tokens and calls one by one — the judge's apart from metrics.json,
// which keeps NeMo's keys — and, with -prices FILE, a JSON price table
// ({"model": {"input": $, "cached_input": $, "output": $}} per million
// tokens, checked strictly before the run), their cost; the run gets
// cost_summary.json and cost_summary.txt, per domain and in all. Usage a
// model did not report, or a model the table lacks, is an unknown cost
// (null, with the reason; the command warns before the run), never 0.
//
// With -judge-url and -judge-model, NeMo's judge scores NL_ASSERTION and
// JUDGE_PASSED (harness.ModelJudge on provider/openai, with NeMo's
// sampling defaults: -judge-temperature 1.0, -judge-top-p 0.95,
// -judge-seed 42, -judge-max-tokens 100000, thinking on); -judge-url takes
// NeMo's form, the chat completions endpoint. -judge-provider anthropic
// or gemini puts the judge on that adapter (-judge-url the server's root),
// sending only the -judge-* sampling and max-tokens flags given: NeMo's
// defaults are its vLLM server's. Without them (unlike NeMo,
// whose --judge-url defaults to localhost:8000) there is no judge, and
// those signals are scored as NeMo scores them with --judge-url "".
//
// It is in the cmd module, which may require the provider SDKs (the core
// module does not): from the repository root, go run ./cmd/evaluate ….
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/nemo/nemoeval"
	"github.com/voiceeval/schematools/domains/nemo/scenarios"
	"github.com/voiceeval/schematools/harness"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// flags are the command's settings.
type flags struct {
	scenarios, domain, out, resume, agentURLs, userURLs string
	parallel, minAgentTurns, maxTurns                   int
	timeout, kickoff, settle                            time.Duration
	verify                                              bool
	trials                                              int
	shard                                               string
	shards                                              int
	shardIndex, shardCount                              int // resolved from -shard / -shards and the environment
	resolve                                             bool
	budgets                                             harness.Budgets
	llm                                                 llmFlags
	judge                                               judgeFlags
	roles                                               roleModels
	// argv is the command line, for run_args.json.
	argv []string
	// mutate breaks the in-process gold scripts (tests only).
	mutate mutator
}

func parse(args []string, stderr io.Writer) (flags, error) {
	var f flags
	fs := flag.NewFlagSet("evaluate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.scenarios, "scenarios", "", "comma-separated scenario names")
	fs.StringVar(&f.domain, "domain", "", "run every scenario whose name starts with DOMAIN__ (e.g. tau2_airline), or all-gold: every scenario with a gold stand-in (all tau2 airline, retail and telecom tasks, and the eva_airline scenarios with a gold path)")
	fs.StringVar(&f.out, "out", "", "output directory; the run goes to DIR/eval_<timestamp>")
	fs.StringVar(&f.resume, "resume", "", "run directory (DIR/eval_<timestamp>) to finish: only scenarios without a finished result run")
	fs.StringVar(&f.agentURLs, "agent-url", "", "comma-separated agent bot URLs (ws://…); empty: in-process Go bots with gold stand-ins")
	fs.StringVar(&f.userURLs, "user-url", "", "comma-separated user-simulator bot URLs, as many as -agent-url")
	fs.IntVar(&f.parallel, "parallel", 1, "scenarios run at once (in-process: bot pairs started; with URLs: at most the number of pairs)")
	fs.IntVar(&f.minAgentTurns, "min-agent-turns", 3, "agent LLM calls below which a scenario is failed (0 disables)")
	fs.IntVar(&f.maxTurns, "max-turns", 0, "stop a run after this many turns (0: no bound)")
	fs.DurationVar(&f.timeout, "timeout", 0, "bound on each run's conversation (0: the scenario's max_duration)")
	fs.DurationVar(&f.kickoff, "kickoff-delay", 0, "wait before the agent's Hello (0: NeMo's 1s with URLs, none in-process)")
	fs.DurationVar(&f.settle, "exit-settle", 0, "wait after the agent's <exit> (0: NeMo's 0.5s with URLs, 50ms in-process)")
	fs.IntVar(&f.trials, "trials", 1, "runs of every scenario, each from a fresh start; more than 1: DIR/eval_<timestamp>/trial_<n> in NeMo's layout and trials.json, trials_summary.txt at the top (pass@1, pass^k, flaky scenarios)")
	fs.StringVar(&f.shard, "shard", "", "run shard I/N of the evaluation (I from 0): a deterministic part of the (scenario, trial) runs, in -out DIR/shard-I-of-N, resumed when it exists; merge the shards with cmd/merge")
	fs.IntVar(&f.shards, "shards", 0, "run one shard of N, its index from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN (a Slurm array)")
	fs.BoolVar(&f.resolve, "resolve", false, "each -agent-url / -user-url host name is a pool of bots, one per address it resolves to (a Kubernetes headless Service in front of a Deployment): a run dials one address for both its connections; the URL lists are used -parallel pairs at a time, repeated as needed (ws:// only)")
	fs.BoolVar(&f.verify, "verify", true, "check that each bot's summary is reproducible from the actions it reports (metrics summary_verified; NeMo's verdicts unchanged)")
	budgetFlags(fs, &f.budgets)
	fs.StringVar(&f.llm.url, "llm-url", "", "OpenAI-compatible server of the in-process bots' model (e.g. http://127.0.0.1:8000/v1); empty: gold stand-ins")
	fs.StringVar(&f.llm.model, "llm-model", "", "model name for -llm-url")
	fs.StringVar(&f.llm.keyEnv, "llm-key-env", "OPENAI_API_KEY", "environment variable holding -llm-url's API key (unset: \"EMPTY\")")
	fs.DurationVar(&f.llm.timeout, "llm-timeout", 60*time.Second, "bound of each -llm-url request attempt")
	fs.IntVar(&f.llm.maxTokens, "llm-max-tokens", 0, "max_completion_tokens of each -llm-url request; 0: none sent")
	fs.Float64Var(&f.llm.temperature, "llm-temperature", -1, "sampling temperature of each -llm-url request; negative: none sent (the server's)")
	fs.IntVar(&f.llm.seed, "llm-seed", -1, "sampling seed of each -llm-url request; negative: none sent")
	fs.IntVar(&f.llm.toolSteps, "llm-tool-steps", 0, "model calls of a bot turn that may call tools; the next forbid them (tool_choice \"none\"), so a model calling tool after tool ends its turn in words; 0: no bound, as pipecat")
	fs.StringVar(&f.llm.textCalls, "llm-text-calls", textCallsKeep, "a tool call the model writes as JSON text: keep (spoken as text, as pipecat does) or repair (made a call)")
	fs.StringVar(&f.judge.url, "judge-url", "", "OpenAI-compatible judge endpoint, as NeMo's --judge-url (http://host:8000/v1/chat/completions or its /v1 base); empty: no judge")
	fs.StringVar(&f.judge.model, "judge-model", "", "judge model name (NeMo's default is nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-NVFP4)")
	fs.StringVar(&f.judge.keyEnv, "judge-api-key-name", "JUDGE_API_KEY", "environment variable holding the judge's API key (unset: \"EMPTY\")")
	fs.DurationVar(&f.judge.timeout, "judge-timeout", 120*time.Second, "judge request timeout")
	fs.Float64Var(&f.judge.temperature, "judge-temperature", 1.0, "judge sampling temperature")
	fs.Float64Var(&f.judge.topP, "judge-top-p", 0.95, "judge nucleus sampling top_p")
	fs.IntVar(&f.judge.seed, "judge-seed", 42, "judge sampling seed")
	fs.IntVar(&f.judge.maxTokens, "judge-max-tokens", 100000, "judge max_tokens (thinking included)")
	fs.Float64Var(&f.judge.threshold, "judge-threshold", 0.9, "judge score at or above which judge_passed")
	fs.BoolVar(&f.judge.includeConversation, "judge-include-conversation", false, "give the judge the transcript too")
	roleFlags(fs, &f)
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	f.roles.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.roles.set[fl.Name] = true })
	f.argv = append([]string{"evaluate"}, args...)
	switch {
	case (f.out == "") == (f.resume == ""):
		return f, errors.New("give exactly one of -out and -resume")
	case (f.scenarios == "") == (f.domain == ""):
		return f, errors.New("give exactly one of -scenarios and -domain")
	case (f.agentURLs == "") != (f.userURLs == ""):
		return f, errors.New("give both -agent-url and -user-url, or neither")
	case f.parallel < 1:
		return f, errors.New("-parallel must be at least 1")
	case f.minAgentTurns < 0 || f.maxTurns < 0 || f.timeout < 0:
		return f, errors.New("-min-agent-turns, -max-turns and -timeout must not be negative")
	case f.resolve && f.agentURLs == "":
		return f, errors.New("-resolve needs -agent-url and -user-url")
	case f.llm.url != "" && f.agentURLs != "":
		return f, errors.New("-llm-url drives the in-process bots: give it without -agent-url and -user-url")
	}
	if err := checkModelFlags(&f); err != nil {
		return f, err
	}
	var err error
	if f.shardIndex, f.shardCount, err = resolveShard(f.shard, f.shards, os.Getenv); err != nil {
		return f, err
	}
	if f.shardCount > 1 && f.resume != "" {
		return f, errors.New("a shard resumes its own directory under -out: give -out, not -resume")
	}
	if err := checkBudgets(f.budgets); err != nil {
		return f, err
	}
	return f, nil
}

// allGold is the -domain value that selects every scenario the in-process
// bots have gold scripts for.
const allGold = "all-gold"

// selectScenarios resolves -scenarios or -domain to names, in order.
func selectScenarios(f flags, g *golds) ([]string, error) {
	if f.scenarios != "" {
		var out []string
		for n := range strings.SplitSeq(f.scenarios, ",") {
			if n = strings.TrimSpace(n); n != "" && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
		return out, nil
	}
	names, err := scenarios.Names()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		p, _, _ := strings.Cut(n, "__")
		switch {
		case f.domain == allGold:
			if _, _, err := g.scripts(n); err == nil {
				out = append(out, n)
			}
		case p == f.domain:
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no scenario in domain %q", f.domain)
	}
	return out, nil
}

func splitURLs(s string) []string {
	var out []string
	for u := range strings.SplitSeq(s, ",") {
		if u = strings.TrimSpace(u); u != "" {
			out = append(out, u)
		}
	}
	return out
}

func run(args []string, stdout, stderr io.Writer) int {
	f, err := parse(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "evaluate:", err)
		}
		return 2
	}
	if err := evaluate(context.Background(), f, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "evaluate:", err)
		return 1
	}
	if rss, ok := peakRSS(); ok {
		fmt.Fprintf(stderr, "evaluate: peak RSS %d MiB\n", rss>>20)
	}
	return 0
}

// evaluate runs the selected scenarios and writes the run.
func evaluate(ctx context.Context, f flags, stdout, stderr io.Writer) error {
	var g golds
	queue, err := selectScenarios(f, &g)
	if err != nil {
		return err
	}
	shipped := make(map[string]*scenarios.Scenario, len(queue))
	today := time.Now()
	for _, n := range queue {
		s, err := scenarios.Get(n)
		if err != nil {
			return err
		}
		// Telecom's expected DBs are the day's, as NeMo builds them.
		if shipped[n], err = nemoeval.Dated(ctx, s, today); err != nil {
			return err
		}
	}
	inProcess := f.agentURLs == ""
	if inProcess && f.roles.agent.url == "" {
		for _, n := range queue {
			if _, _, err := g.scripts(n); err != nil {
				return err
			}
		}
	}
	refs, err := referencesFor(shipped, f.verify)
	if err != nil {
		return err
	}
	pairs, cleanup, err := startPairs(ctx, f, inProcess)
	if err != nil {
		return err
	}
	defer cleanup()

	o := harness.DefaultSessionOptions()
	o.Score.MinAgentTurns = f.minAgentTurns
	o.Score.Predicates = predicates()
	if o.Score.Judge, err = judge(ctx, f.judge, f.roles.set); err != nil {
		return err
	}
	costOptions(&o.Score, f, stderr)
	threshold := f.judge.threshold
	o.Score.JudgeThreshold = &threshold
	o.Score.JudgeIncludeConversation = f.judge.includeConversation
	o.MaxTurns, o.MaxDuration, o.KickoffDelay, o.ExitSettle = f.maxTurns, f.timeout, f.kickoff, f.settle
	o.Budgets = f.budgets
	if inProcess {
		if o.KickoffDelay == 0 {
			o.KickoffDelay = -1
		}
		if o.ExitSettle == 0 {
			o.ExitSettle = 50 * time.Millisecond
		}
	}
	bots := make([]harness.BotPair, len(pairs))
	for i, p := range pairs {
		bots[i] = harness.BotPair{AgentURL: p.agentURL, UserURL: p.userURL}
		if p.agent != nil {
			bots[i].Prepare = func(_ context.Context, sc *harness.Scenario, trial int) error {
				return p.arm(&g, sc.Name, trial, f.mutate)
			}
		}
	}
	hq := make([]*harness.Scenario, len(queue))
	for i, n := range queue {
		sc := nemoeval.Scenario(shipped[n])
		sc.Config = shipped[n].Config
		hq[i] = &sc
	}
	eo := harness.EvaluateOptions{
		OutputDir: f.out, ResumeDir: f.resume, Bots: bots, Session: o,
		References: refs.of, Argv: f.argv, Args: invocation(f), Progress: stderr, Trials: f.trials, Resolve: f.resolve,
	}
	if f.shardCount > 1 {
		if eo.ResumeDir, err = shardDir(f.out, f.shardIndex, f.shardCount); err != nil {
			return err
		}
		eo.OutputDir, eo.Shard, eo.Shards = "", f.shardIndex, f.shardCount
	}
	ev, err := harness.Evaluate(ctx, hq, eo)
	if err != nil {
		return err
	}
	if ev.Trials > 1 {
		fmt.Fprintf(stdout, "%s: %d scenarios, %d trials, %d runs not successful\n", ev.Dir, ev.Scenarios, ev.Trials, ev.NotSuccessful)
		return nil
	}
	fmt.Fprintf(stdout, "%s: %d scenarios, %d not successful\n", ev.Dir, ev.Scenarios, ev.NotSuccessful)
	return nil
}

// invocation is this command's run_args.json parsed_args: the flags, by
// their names with "_" for "-" as argparse names them, in the order they
// are defined; durations in seconds.
func invocation(f flags) []harness.Arg {
	args := []harness.Arg{
		{Name: "scenarios", Value: f.scenarios}, {Name: "domain", Value: f.domain},
		{Name: "out", Value: f.out}, {Name: "resume", Value: f.resume},
		{Name: "agent_url", Value: f.agentURLs}, {Name: "user_url", Value: f.userURLs},
		{Name: "parallel", Value: f.parallel}, {Name: "min_agent_turns", Value: f.minAgentTurns},
		{Name: "max_turns", Value: f.maxTurns}, {Name: "timeout", Value: f.timeout.Seconds()},
		{Name: "kickoff_delay", Value: f.kickoff.Seconds()}, {Name: "exit_settle", Value: f.settle.Seconds()},
		{Name: "verify", Value: f.verify},
		{Name: "max_turn_bytes", Value: f.budgets.TurnBytes}, {Name: "max_stream_bytes", Value: f.budgets.StreamBytes},
		{Name: "max_held_bytes", Value: f.budgets.HeldBytes}, {Name: "max_file_bytes", Value: f.budgets.FileBytes},
		{Name: "max_depth", Value: f.budgets.Depth},
	}
	if f.trials > 1 { // NeMo's runner has no trials: its keys stay its own
		args = append(args, harness.Arg{Name: "trials", Value: f.trials})
	}
	if f.shardCount > 1 {
		args = append(args, harness.Arg{Name: "shard", Value: fmt.Sprintf("%d/%d", f.shardIndex, f.shardCount)})
	}
	if f.resolve {
		args = append(args, harness.Arg{Name: "resolve", Value: true})
	}
	return args
}

// arm sets the scripts of scenario name on the pair's in-process models:
// its gold scripts, or what mutate makes of them.
func (p *pair) arm(g *golds, name string, trial int, mutate mutator) error {
	agentTurns, userTurns, err := g.scripts(name)
	if err != nil {
		return err
	}
	sc := scripts{agent: agentTurns, user: userTurns}
	if mutate != nil {
		sc = mutate(name, trial, sc)
	}
	p.agent.Arm(sc.agent, sc.stall)
	p.user.Arm(sc.user, false)
	return nil
}

// startPairs returns the bot pairs: the URL lists paired up, or one
// in-process pair per parallel slot.
func startPairs(ctx context.Context, f flags, inProcess bool) ([]*pair, func(), error) {
	if !inProcess {
		as, us := splitURLs(f.agentURLs), splitURLs(f.userURLs)
		if len(as) != len(us) {
			return nil, nil, fmt.Errorf("%d agent URLs but %d user URLs", len(as), len(us))
		}
		var out []*pair
		for i := range as {
			out = append(out, &pair{agentURL: as[i], userURL: us[i]})
		}
		if f.resolve {
			// Pools by name: -parallel pairs, the list repeated; the
			// harness gives each pair (and each shard) its own addresses.
			for i := len(out); i < f.parallel; i++ {
				out = append(out, out[i%len(as)])
			}
			return out[:f.parallel], func() {}, nil
		}
		// A shard starts at its own pairs: shard i of a pool shared by the
		// shards takes pairs i×parallel on (wrapping), so shards of one
		// evaluation use disjoint bots when the pool has room for them.
		if f.shardCount > 1 && len(out) > 0 {
			start := (f.shardIndex * f.parallel) % len(out)
			out = append(out[start:], out[:start]...)
		}
		return out[:min(len(out), f.parallel)], func() {}, nil
	}
	root, err := os.MkdirTemp("", "evaluate-data-")
	if err != nil {
		return nil, nil, err
	}
	var servers []*botServer
	cleanup := func() {
		for _, s := range servers {
			s.close()
		}
		os.RemoveAll(root)
	}
	if err := domains.WriteDataRoot(root); err != nil {
		cleanup()
		return nil, nil, err
	}
	logger := slog.New(slog.DiscardHandler)
	var out []*pair
	for range f.parallel {
		agentModel, userModel := &agenttest.Model{Fallback: agentFallback}, &agenttest.Model{Fallback: userFallback}
		var am, um agent.Model = agentModel, userModel
		toolSteps := 0
		if f.roles.agent.url != "" {
			// Real models play both roles (each its own, -agent-llm-* and
			// -user-llm-* over -llm-*); there is no script to arm.
			var errA, errU error
			am, errA = llmModel(ctx, f.roles.agent)
			um, errU = llmModel(ctx, f.roles.user)
			if err := errors.Join(errA, errU); err != nil {
				cleanup()
				return nil, nil, err
			}
			agentModel, userModel = nil, nil
			toolSteps = f.llm.toolSteps
		}
		a, err := serveBot(am, toolSteps, root, logger)
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		servers = append(servers, a)
		u, err := serveBot(um, toolSteps, root, logger)
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		servers = append(servers, u)
		out = append(out, &pair{agentURL: a.url, userURL: u.url, agent: agentModel, user: userModel})
	}
	return out, cleanup, nil
}
