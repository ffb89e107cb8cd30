package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// BotPair is one agent bot and one user-simulator bot, by RTVI WebSocket
// URL. A pair runs one scenario at a time.
type BotPair struct {
	AgentURL, UserURL string
	// Prepare, when set, is called before each run of a scenario on the
	// pair (a run a busy bot refused is run again: Prepare again), with
	// the run's trial (1 to EvaluateOptions.Trials): in-process bots arm
	// their scripted models with it. An error stops the evaluation.
	Prepare func(ctx context.Context, sc *Scenario, trial int) error
}

// EvaluateOptions configure Evaluate.
type EvaluateOptions struct {
	// OutputDir receives the run as OutputDir/eval_<timestamp>; ResumeDir
	// is a run directory to finish instead (only the scenarios without a
	// finished result run). Give exactly one.
	OutputDir, ResumeDir string
	// Bots are the bot pairs; as many scenarios run at once as there are
	// pairs. At least one.
	Bots []BotPair
	// Session are each scenario's options (Score.MinAgentTurns is also
	// the resume and all_summary.txt rule). Shadow, Verify and
	// ScenarioDirectory are set per scenario by Evaluate.
	Session SessionOptions
	// References, when set, returns a tool domain's references: shadow
	// turns the cross-side sync on (a two-sided domain), verify the
	// summary verification; nil for none. It is called once per domain
	// of the queue, before any scenario runs.
	References func(domain string) (shadow, verify *Reference, err error)
	// Argv and Args, when Argv is not nil, are appended to the run's
	// run_args.json as one invocation record (run_evaluation.py's:
	// started_at, argv, parsed_args in Args' order, the queue's names;
	// a truthy judge_api_key is written as "<redacted>").
	Argv []string
	Args []Arg
	// Progress, when set, gets one line per finished scenario
	// ("[i/n] name verdict seconds", "name#trial" with trials), one per
	// run refused by a busy bot ("name busy, retried: …") and the resume
	// count.
	Progress io.Writer
	// Shards > 1 runs one shard of the evaluation, Shard (0 to Shards-1):
	// a deterministic part of the (scenario, trial) runs, each domain
	// dealt evenly, so that Shards processes given the same queue and
	// settings run every run once (a batch engine's array: a Kubernetes
	// Indexed Job's JOB_COMPLETION_INDEX, a Slurm array). The shard's run
	// directory holds only its runs and shard.json; [Merge] makes one run
	// of the shards'.
	Shard, Shards int
	// Trials runs every scenario this many times, each run from a fresh
	// Prepare; 0 or 1 is once, in NeMo's layout. With more, the run
	// directory holds trial_1 … trial_<Trials>, each a run in NeMo's
	// layout whose results.jsonl lines also carry "trial", and the trial
	// statistics at its top (see [ReadTrials]). With ResumeDir, 0 keeps
	// the run's trials and more adds trials to it.
	Trials int
	// Resolve makes each bot URL's host name a pool (ws:// URLs only): a
	// run resolves it and dials one of its addresses for both of the
	// scenario's connections, which must reach the same bot (a
	// Kubernetes headless Service in front of a Deployment: one address
	// per pod). Pair p of shard s takes address s×len(Bots)+p of the
	// sorted list (modulo its length), the next one after each busy
	// refusal; a name that does not resolve fails the run as a bot
	// failure.
	Resolve bool
}

// Arg is one parsed command-line setting of run_args.json's parsed_args:
// its name as argparse names it ("_" for "-") and its value (a string,
// bool, int or float64; durations in seconds).
type Arg struct {
	Name  string
	Value any
}

// Evaluation is what Evaluate did.
type Evaluation struct {
	// Dir is the run directory.
	Dir string
	// Scenarios is the queue's length and Trials the runs of each;
	// NotSuccessful counts the runs made now that were not successful (a
	// bot failure included).
	Scenarios, Trials, NotSuccessful int
}

// Evaluate runs the queued scenarios over the bot pairs and writes the
// run in NeMo's layout (run_evaluation.py's loop, in text):
//
//   - one directory per scenario, results.jsonl as scenarios finish, and
//     at the end all_metrics.json, all_summary.txt, all_latencies.csv and
//     report.html, results.jsonl rewritten in queue order;
//   - a scenario a bot failed or that was aborted is written as failed,
//     with the reason in harness_error, and the run goes on; any other
//     error stops it (after the scenarios in flight) and is returned;
//   - but a run whose preparation a bot refused because it was busy with
//     another scenario (rtvi/rtviws runs one at a time: a pool's bot,
//     another harness's) is not written: it goes back to the queue,
//     behind the runs waiting, after a backoff (200 ms doubling to 2 s),
//     for a pair that has not refused it (any pair once all have); refused
//     5 times, it is written as failed, its refusals counted by bot;
//   - with ResumeDir, only the scenarios not finished run (NeMo's resume
//     rule), and the run-level files cover the whole queue;
//   - with Resolve, a bot URL's host name is a pool of bots, one per
//     address, and each run dials one address for both its connections.
func Evaluate(ctx context.Context, queue []*Scenario, o EvaluateOptions) (*Evaluation, error) {
	if (o.OutputDir == "") == (o.ResumeDir == "") {
		return nil, errors.New("harness: Evaluate: give exactly one of OutputDir and ResumeDir")
	}
	if len(o.Bots) == 0 {
		return nil, errors.New("harness: Evaluate: no bot pair")
	}
	if o.Resolve {
		for _, p := range o.Bots {
			if err := errors.Join(checkResolvable(p.AgentURL), checkResolvable(p.UserURL)); err != nil {
				return nil, err
			}
		}
	}
	names := make([]string, len(queue))
	byName := make(map[string]*Scenario, len(queue))
	for i, sc := range queue {
		names[i], byName[sc.Name] = sc.Name, sc
	}
	shadows, verifies := map[string]*Reference{}, map[string]*Reference{}
	if o.References != nil {
		sorted := slices.Clone(names)
		slices.Sort(sorted)
		done := map[string]bool{}
		for _, n := range sorted {
			d := byName[n].Domain
			if done[d] {
				continue
			}
			done[d] = true
			var err error
			if shadows[d], verifies[d], err = o.References(d); err != nil {
				return nil, err
			}
		}
	}
	minTurns := o.Session.Score.MinAgentTurns
	runs, err := openRuns(o, names)
	if err != nil {
		return nil, err
	}
	defer runs.Close()
	if o.Progress != nil && o.ResumeDir != "" {
		fmt.Fprintf(o.Progress, "resume: %d done, %d to run\n", runs.total-len(runs.toRun), len(runs.toRun))
	}
	if o.Argv != nil {
		args := make(pyvalue.Dict, len(o.Args))
		for i, a := range o.Args {
			args[i] = pyvalue.Item{Key: a.Name, Value: a.Value}
		}
		inv := invocation{StartedAt: time.Now().Format("2006-01-02T15:04:05"), Argv: o.Argv, ParsedArgs: args, ScenarioNames: names}
		if err := writeRunArgs(runs.dir, inv, o.ResumeDir != ""); err != nil {
			return nil, err
		}
	}

	jobs := newJobQueue(runs.toRun, len(o.Bots))
	var mu sync.Mutex
	done, failed := runs.total-len(runs.toRun), 0
	var firstErr error
	var wg sync.WaitGroup
	for i, p := range o.Bots {
		wg.Go(func() {
			for {
				job, more := jobs.next(ctx, i)
				if !more {
					return
				}
				start := time.Now()
				sc := byName[job.name]
				so := o.Session
				so.Shadow, so.Verify = shadows[sc.Domain], verifies[sc.Domain]
				pin := -1
				if o.Resolve {
					pin = o.Shard*len(o.Bots) + i + len(job.refusals)
				}
				ok, why, err := evaluateOne(ctx, runs.writers[job.trial-1], p, sc, job.trial, so, i, pin, job)
				retry := errors.Is(err, errBotBusy)
				mu.Lock()
				name := job.name
				if runs.trials > 1 {
					name += "#" + strconv.Itoa(job.trial)
				}
				if retry {
					// Not written: it goes back to the queue (busy.go).
					if o.Progress != nil {
						r := job.refusals[len(job.refusals)-1]
						fmt.Fprintf(o.Progress, "%s busy, retried: %s refused it (%d of %d, %.2fs): %s\n", name, r.bot, len(job.refusals), busyAttempts, time.Since(start).Seconds(), r.reason)
					}
					mu.Unlock()
					jobs.finish(job, true)
					continue
				}
				done++
				verdict := "pass"
				switch {
				case err != nil:
					verdict, failed = "error: "+err.Error(), failed+1
					if firstErr == nil {
						firstErr = err
					}
				case why != "":
					verdict, failed = "fail ("+why+")", failed+1
				case !ok:
					verdict, failed = "fail", failed+1
				}
				if o.Progress != nil {
					fmt.Fprintf(o.Progress, "[%d/%d] %s %s %.2fs\n", done, runs.total, name, verdict, time.Since(start).Seconds())
				}
				mu.Unlock()
				jobs.finish(job, false)
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := runs.Finish(minTurns); err != nil {
		return nil, err
	}
	return &Evaluation{Dir: runs.dir, Scenarios: len(names), Trials: runs.trials, NotSuccessful: failed}, nil
}

// evaluateOne runs one scenario on pair p (the pair-th; its URLs pinned to
// their pools' pin-th address when pin >= 0) and writes it; ok is
// is_successful, why the reason a bot failed it (harness_error), err
// what stops the run — or, wrapping errBotBusy, a busy refusal the job
// records, not written: the run goes back to the queue.
func evaluateOne(ctx context.Context, w *runWriter, p BotPair, sc *Scenario, trial int, o SessionOptions, pair, pin int, job *queuedJob) (ok bool, why string, err error) {
	if p.Prepare != nil {
		if err := p.Prepare(ctx, sc, trial); err != nil {
			return false, "", err
		}
	}
	o.ScenarioDirectory = w.ScenarioDir(sc.Name)
	start := time.Now()
	var res *ScenarioResult
	var runErr error
	if pin >= 0 {
		p, runErr = pinPair(ctx, p, pin)
	}
	if runErr != nil {
		res = &ScenarioResult{Scenario: sc.Name, status: statusFailed, Reason: runErr.Error()}
		runErr = fmt.Errorf("%w: %s: %w", ErrBotFailed, sc.Name, runErr)
	} else {
		res, runErr = RunScenario(ctx, sc, p.AgentURL, p.UserURL, o)
	}
	run, scored := res.Run, res.Result
	if errors.Is(runErr, errBotBusy) {
		if job.refused(pair, p, runErr) {
			return false, "", runErr
		}
		res.Reason = job.summary(res.Reason)
	}
	if runErr != nil {
		if !errors.Is(runErr, ErrBotFailed) && !errors.Is(runErr, ErrAborted) {
			return false, "", runErr
		}
		// The scenario is written as failed, with the reason, and the run
		// goes on (FailedRun).
		if run, err = failedRun(sc, res); err != nil {
			return false, "", err
		}
		run.ScenarioDirectory = o.ScenarioDirectory
		if run.LogStartTime == "" {
			run.LogStartTime, run.EndTime = pyISOFormat(start), pyISOFormat(time.Now())
		}
		if scored, err = Score(ctx, run, o.Score); err != nil {
			return false, "", err
		}
	}
	if err := w.WriteScenario(&scenarioOutput{Run: run, Result: scored, Config: sc.Config}); err != nil {
		return false, "", err
	}
	return scored.Metrics.IsSuccessful == true, scored.Metrics.HarnessError, nil
}
