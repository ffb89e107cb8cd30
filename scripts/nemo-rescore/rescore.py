#!/usr/bin/env python3
"""Re-score a schematools run directory with NVIDIA NeMo labs-Voice-Agent's own runner.

    python rescore.py --nemo /path/to/labs-Voice-Agent RUN_DIR [--jsonl OUT]

RUN_DIR is what harness.RunWriter wrote (eval_<ts>/ with one directory per
scenario). For every scenario directory with a metrics.json, this script
calls NeMo's run_dynamic_evaluation itself, unchanged, on that one scenario
(NeMo's own Scenario object from get_eval_scenario). Only the network is
replaced: the bridge is NeMo's VoiceAgentEvaluationBridge with its
websocket methods overridden so that, instead of talking to bots, they hand
back what the Go run pulled (pulled_summary.json, metrics.json's turns,
latencies, token_usage and stop_reason, the bot_logs contexts). NeMo's
run_scenario then merges the summaries and writes final_agent_response.json
and final_scenario_db_hash.txt with its own code, and NeMo's runner scores
them — ACTION_MATCH, DB_STATE_MATCH, DB_STATE_ASSERTION, the judge (replayed
from judge_result.json where the Go run had one), CLEAN_EXIT, the composite
and the --min-agent-turns gate — and writes its own metrics.json. Those
verdicts are compared with the Go metrics.json; the script prints one line
per scenario and exits 1 on any mismatch (2 on an error).

See README.md beside this file for how to get the NeMo checkout.
"""

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NEMO_COMMIT = "1a83139"

# metrics.json keys compared, in the order the runner writes them. A key the
# runner did not write must be absent on both sides.
VERDICT_KEYS = (
    "stop_reason",
    "clean_exit",
    "insufficient_agent_turns",
    "is_action_match",
    "judge_score",
    "judge_passed",
    "db_state_match",
    "db_state_actual_hash",
    "nl_assertion_pass_rate",
    "db_state_assertion_verdicts",
    "db_state_assertion_pass_rate",
    "success_breakdown",
    "is_successful",
    "is_task_successful",
)

# Files of the scenario directory that NeMo's bridge and runner write from the
# replayed inputs and that must equal the Go run's byte for byte (where the Go
# run has them).
COMPARED_FILES = (
    "final_agent_response.json",
    "final_scenario_db_hash.txt",
)

ABSENT = "<absent>"


def die(msg):
    """Report an error that stops the run before any scoring (exit status 2)."""
    print(f"rescore: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--nemo", required=True, help="a checkout (or extracted tree) of labs-Voice-Agent at 1a83139")
    p.add_argument("run_dir", help="the run directory (eval_<timestamp>/) harness.RunWriter wrote")
    p.add_argument("--scenarios", default="", help="comma-separated scenario names (default: every one in the run)")
    p.add_argument("--min-agent-turns", type=int, default=None, help="default: run_args.json's, else NeMo's 3")
    p.add_argument(
        "--judge-threshold", default=None, help="a float or 'none'; default: run_args.json's, else NeMo's 0.9"
    )
    p.add_argument("--strict-match", action="store_true", default=None)
    p.add_argument("--judge-include-conversation", action="store_true", default=None)
    p.add_argument(
        "--today",
        default="",
        help="the date NeMo's tools take for today (YYYY-MM-DD); default: each scenario's start "
        "(conversation_log.txt), else the run directory's eval_<YYYYMMDD> name",
    )
    p.add_argument("--jsonl", default="", help="write NeMo's verdicts here, one line per scenario")
    p.add_argument("--keep", default="", help="keep NeMo's output directories under this directory")
    p.add_argument("--allow-other-commit", action="store_true", help="do not refuse a checkout at another commit")
    return p.parse_args(argv)


def check_checkout(nemo, allow_other):
    runner = os.path.join(nemo, "nemo_voice_agent", "evaluation", "runner.py")
    if not os.path.isfile(runner):
        die(f"{runner} not found: --nemo must be the root of a labs-Voice-Agent checkout")
    if os.path.exists(os.path.join(nemo, ".git")):
        try:
            head = subprocess.run(
                ["git", "-C", nemo, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError) as e:
            die(f"cannot read the checkout's commit: {e}")
        if not head.startswith(NEMO_COMMIT) and not allow_other:
            die(f"{nemo} is at {head[:12]}, not {NEMO_COMMIT} (--allow-other-commit to go on)")


def run_options(run_dir, args):
    """The scoring flags: the command line's, else run_args.json's last invocation, else NeMo's defaults."""
    parsed = {}
    path = os.path.join(run_dir, "run_args.json")
    if os.path.exists(path):
        with open(path) as f:
            invocations = json.load(f).get("invocations") or []
        if invocations:
            parsed = invocations[-1].get("parsed_args") or {}

    def pick(cli, key, default):
        if cli is not None:
            return cli
        return parsed.get(key, default)

    threshold = pick(args.judge_threshold, "judge_threshold", 0.9)
    if isinstance(threshold, str):
        threshold = None if threshold.lower() == "none" else float(threshold)
    return {
        "min_agent_turns": int(pick(args.min_agent_turns, "min_agent_turns", 3)),
        "judge_threshold": threshold,
        "strict_match": bool(pick(args.strict_match, "strict_match", False)),
        "judge_include_conversation": bool(pick(args.judge_include_conversation, "judge_include_conversation", False)),
    }


def scenario_names(run_dir, only):
    if not os.path.isdir(run_dir):
        die(f"{run_dir} is not a directory")
    names = []
    for entry in sorted(os.listdir(run_dir)):
        d = os.path.join(run_dir, entry)
        if entry.startswith(".") or ".killed." in entry or not os.path.isdir(d):
            continue
        if os.path.isfile(os.path.join(d, "metrics.json")):
            names.append(entry)
    if only:
        wanted = [n for n in only.split(",") if n]
        missing = [n for n in wanted if n not in names]
        if missing:
            die(f"no scenario directory with a metrics.json for {missing}")
        names = wanted
    if not names:
        die(f"{run_dir} holds no scenario directory with a metrics.json")
    return names


def load_json(path, default=None):
    if not os.path.exists(path):
        return default
    with open(path) as f:
        return json.load(f)


_RealDate = datetime.date


class _PinnedDate(_RealDate):
    """datetime.date with today() pinned (NeMo's telecom tools and init functions read date.today())."""

    pinned = None

    @classmethod
    def today(cls):
        d = cls.pinned or _RealDate.today()
        return cls(d.year, d.month, d.day)


def pin_today(day):
    """Make date.today() in NeMo's code return day (a datetime.date).

    tau2_telecom_tools and tau2_telecom_init_functions date bills,
    suspensions and contract ends by date.today(), both in the bots (so in
    the pulled DB) and in the runner's gold replay (expected_scenario_db):
    NeMo's runner, run the day the bots ran, replays on that day, and so
    does this. The init functions import date inside the function, so the
    datetime module's own attribute is replaced too (a subclass: every
    other use of date is unchanged); so is every NeMo module's date.
    """
    _PinnedDate.pinned = _RealDate(day.year, day.month, day.day)
    datetime.date = _PinnedDate
    for name, mod in list(sys.modules.items()):
        if name.startswith("nemo_voice_agent.") and getattr(mod, "date", None) is _RealDate:
            mod.date = _PinnedDate


def run_day(scen_dir, run_dir, today):
    """The day the scenario ran: --today, else conversation_log.txt's Start Time, else eval_<YYYYMMDD>."""
    if today:
        return _RealDate.fromisoformat(today)
    path = os.path.join(scen_dir, "conversation_log.txt")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.startswith("Start Time: "):
                    return datetime.datetime.fromisoformat(line[len("Start Time: "):].strip()).date()
    base = os.path.basename(os.path.normpath(run_dir))
    if base.startswith("eval_"):
        try:
            return datetime.datetime.strptime(base[5:13], "%Y%m%d").date()
        except ValueError:
            pass
    return _RealDate.today()


def read_inputs(scen_dir):
    """What the Go run's bridge pulled, from the scenario directory."""
    metrics = load_json(os.path.join(scen_dir, "metrics.json"))
    pulled = load_json(os.path.join(scen_dir, "pulled_summary.json"))
    if pulled is None:
        raise ValueError(
            "no pulled_summary.json (the run predates it): the summaries the runner scores are not in the artifacts"
        )
    contexts = {}
    for side in ("agent", "user"):
        path = os.path.join(scen_dir, f"bot_logs_{side}", "llm_context.json")
        # The bridge's get_context_history answer: {"context": repr(list)},
        # which _save_bot_server_history eval()s back. {} when the Go run
        # wrote no file (NeMo then writes "[]").
        contexts[side] = {"context": repr(load_json(path))} if os.path.exists(path) else {}
    return {
        "metrics": metrics,
        "pulled": pulled,
        "contexts": contexts,
        "judge_result": load_json(os.path.join(scen_dir, "judge_result.json")),
    }


def make_bridge_class(bridge_mod, inputs):
    """NeMo's VoiceAgentEvaluationBridge with only its network methods replaced."""
    base = bridge_mod.VoiceAgentEvaluationBridge
    m = inputs["metrics"]

    class ReplayBridge(base):
        # prepare_for_scenario runs unchanged around these: it sets the
        # output directory and include_db_in_summary from the scenario.
        async def connect(self, *a, **k):
            return None

        async def disconnect(self, *a, **k):
            return None

        async def update_user_prompt(self, *a, **k):
            return None

        async def update_agent_prompt(self, *a, **k):
            return None

        async def _apply_initialization(self, *a, **k):
            return None

        async def _setup_cross_side_sync(self, *a, **k):
            return None

        # run_scenario runs unchanged around the two websocket threads: it
        # merges the summaries and writes the artifacts with NeMo's code.
        def user_websocket_thread(self, duration):
            self.user_context_history = inputs["contexts"]["user"]
            self.user_scenario_summary = inputs["pulled"].get("user") or {}

        def agent_websocket_thread(self, duration):
            self.agent_context_history = inputs["contexts"]["agent"]
            # None when no summary came: run_scenario turns it into {}.
            self.scenario_summary = inputs["pulled"].get("agent")
            self.token_usage = m["token_usage"]
            self.stop_reason = m["stop_reason"]
            self.metrics.turns = list(m.get("turns") or [])
            self.metrics.latencies = [
                bridge_mod.ResponseLatency(
                    user_stop_time=0.0,
                    agent_start_time=0.0,
                    latency_ms=lat["latency_ms"],
                    user_transcript=lat["user_transcript"],
                    agent_transcript=lat["agent_transcript"],
                )
                for lat in m.get("latencies") or []
            ]
            self.metrics.agent_final_response = list(inputs["pulled"].get("final_responses") or [])

    return ReplayBridge


def make_judge(utils_mod, judge_result):
    """NeMo's LLMJudge, its HTTP call answered with the Go run's judge verdict."""
    if judge_result is None:
        return None
    answer = {k: judge_result[k] for k in ("score", "reason", "nl_assertion_verdicts") if k in judge_result}

    class _Response:
        status_code = 200

        def raise_for_status(self):
            return None

        def json(self):
            return {"choices": [{"message": {"content": json.dumps(answer)}}]}

    judge = utils_mod.LLMJudge(url="replay://judge", model="replay", api_key="unused")
    judge._replay_response = _Response()
    return judge


def verdicts(metrics):
    present = {k: metrics[k] for k in VERDICT_KEYS if k in metrics}
    absent = [k for k in VERDICT_KEYS if k not in metrics]
    return present, absent


def rescore_one(name, scen_dir, work, opts, nemo_mods, day):
    runner, bridge_mod, utils_mod, get_eval_scenario, FileLogger = nemo_mods
    pin_today(day)
    scenario = get_eval_scenario(name)
    if scenario is None:
        raise ValueError("not one of NeMo's scenarios (get_eval_scenario returned None)")
    inputs = read_inputs(scen_dir)
    out_dir = os.path.join(work, name)
    os.makedirs(out_dir)
    judge = make_judge(utils_mod, inputs["judge_result"])
    log_path = os.path.join(work, name + ".log")
    runner.VoiceAgentEvaluationBridge = make_bridge_class(bridge_mod, inputs)
    real_post = utils_mod.requests.post
    if judge is not None:
        utils_mod.requests.post = lambda *a, **k: judge._replay_response
    try:
        with open(log_path, "w") as log, contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
            asyncio.run(
                runner.run_dynamic_evaluation(
                    user_url="replay://user",
                    agent_url="replay://agent",
                    output_dir=out_dir,
                    scenarios=[scenario],
                    pause_between_scenarios=0,
                    global_timestamp="rescore",
                    logger=FileLogger(os.path.join(out_dir, "evaluation_log.txt")),
                    judge=judge,
                    judge_threshold=opts["judge_threshold"],
                    judge_include_conversation=opts["judge_include_conversation"],
                    strict_match=opts["strict_match"],
                    min_agent_turns=opts["min_agent_turns"],
                )
            )
    except Exception as e:
        raise RuntimeError(f"NeMo's runner failed: {e!r} (log: {log_path})") from e
    finally:
        utils_mod.requests.post = real_post
    nemo_dir = os.path.join(out_dir, name)
    nemo_metrics = load_json(os.path.join(nemo_dir, "metrics.json"))
    if nemo_metrics is None:
        raise RuntimeError(f"NeMo's runner wrote no metrics.json (log: {log_path})")

    diffs = []
    go_v, go_absent = verdicts(inputs["metrics"])
    ne_v, ne_absent = verdicts(nemo_metrics)
    for k in VERDICT_KEYS:
        g, n = go_v.get(k, ABSENT), ne_v.get(k, ABSENT)
        if g != n or type(g) is not type(n):
            diffs.append((k, g, n))
    for f in COMPARED_FILES:
        g_path, n_path = os.path.join(scen_dir, f), os.path.join(nemo_dir, f)
        g, n = read_bytes(g_path), read_bytes(n_path)
        if g != n:
            diffs.append((f, summarize(g), summarize(n)))
    # scenario_config/ is Scenario.save's output on both sides.
    g_cfg, n_cfg = os.path.join(scen_dir, "scenario_config"), os.path.join(nemo_dir, "scenario_config")
    if os.path.isdir(g_cfg):
        for f in sorted(set(os.listdir(g_cfg)) | set(os.listdir(n_cfg))):
            g = read_bytes(os.path.join(g_cfg, f))
            n = read_bytes(os.path.join(n_cfg, f))
            if g != n:
                diffs.append(("scenario_config/" + f, summarize(g), summarize(n)))
    if inputs["judge_result"] is not None:
        n_judge = load_json(os.path.join(nemo_dir, "judge_result.json"))
        g_in, n_in = inputs["judge_result"].get("judge_input"), (n_judge or {}).get("judge_input")
        if g_in != n_in:
            diffs.append(("judge_result.json judge_input", summarize(g_in), summarize(n_in)))
    return {"scenario": name, "verdicts": ne_v, "absent": ne_absent}, go_v, diffs


def read_bytes(path):
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        return f.read()


def summarize(v, limit=80):
    if v is None:
        return ABSENT
    s = v.decode("utf-8", "replace") if isinstance(v, bytes) else json.dumps(v, ensure_ascii=False)
    s = s.replace("\n", "\\n")
    return s if len(s) <= limit else s[: limit - 3] + "..."


def show(v):
    """A compared value for the mismatch list: as JSON, ABSENT and summaries as they are."""
    if isinstance(v, str) and (v == ABSENT or v.endswith("...") or "\\n" in v):
        return v
    return json.dumps(v, ensure_ascii=False)


def cell(v):
    if v is ABSENT or v == ABSENT:
        return "-"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def import_nemo(nemo):
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.abspath(nemo))
    import stubs

    stubs.install()
    from loguru import logger

    # NeMo's modules log through loguru; each scenario's log goes to a file
    # (setup_logging adds the redirected stderr), none to the terminal.
    logger.remove()
    from nemo_voice_agent.evaluation import bridge as bridge_mod
    from nemo_voice_agent.evaluation import runner
    from nemo_voice_agent.evaluation import utils as utils_mod
    from nemo_voice_agent.evaluation.scenarios import get_eval_scenario
    from nemo_voice_agent.utils import FileLogger

    return runner, bridge_mod, utils_mod, get_eval_scenario, FileLogger


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    check_checkout(args.nemo, args.allow_other_commit)
    run_dir = os.path.abspath(args.run_dir)
    opts = run_options(run_dir, args)
    names = scenario_names(run_dir, args.scenarios)
    with contextlib.redirect_stdout(sys.stderr):
        nemo_mods = import_nemo(args.nemo)

    work = args.keep or tempfile.mkdtemp(prefix="nemo-rescore-")
    os.makedirs(work, exist_ok=True)
    cols = ("scenario", "is_successful", "is_task_successful", "is_action_match", "db_state_match",
            "db_state_assertion_pass_rate", "clean_exit", "insufficient_agent_turns", "stop_reason")
    heads = ("scenario", "success", "task", "action", "db_match", "db_assert", "clean_exit", "stalled", "stop")
    rows, lines, failed, errors = [], [], [], []
    for name in names:
        try:
            scen_dir = os.path.join(run_dir, name)
            day = run_day(scen_dir, run_dir, args.today)
            line, go_v, diffs = rescore_one(name, scen_dir, work, opts, nemo_mods, day)
        except Exception as e:
            print(f"rescore: {name}: {e}", file=sys.stderr)
            errors.append(name)
            rows.append((name,) + ("?",) * (len(cols) - 1) + (f"ERROR {e}",))
            continue
        lines.append(line)
        v = line["verdicts"]
        rows.append((name,) + tuple(cell(v.get(c, ABSENT)) for c in cols[1:]) + ("ok" if not diffs else "MISMATCH",))
        if diffs:
            failed.append((name, diffs))

    heads = heads + ("vs Go",)
    widths = [max(len(str(r[i])) for r in rows + [heads]) for i in range(len(heads))]
    fmt = "  ".join("{:<%d}" % w for w in widths)
    print(f"NeMo's verdicts (run_dynamic_evaluation at {NEMO_COMMIT}; flags {json.dumps(opts)}):")
    print(fmt.format(*heads))
    for r in rows:
        print(fmt.format(*r))
    for name, diffs in failed:
        print(f"\n{name}: differs from the Go metrics.json")
        for k, g, n in diffs:
            print(f"  {k}: go={show(g)}  nemo={show(n)}")
    if args.jsonl:
        with open(args.jsonl, "w") as f:
            for line in lines:
                f.write(json.dumps(line, sort_keys=False) + "\n")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n{len(names)} scenario(s): {len(names) - len(failed) - len(errors)} equal, "
          f"{len(failed)} differ, {len(errors)} error(s)")
    if errors:
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
