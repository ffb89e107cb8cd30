"""The bot's tau2 tools replay the train tasks as the Python original did.

For every train task of the conformance vectors (gold_replay_*.train.jsonl,
made by running NeMo's tools) whose actions all use tools this bot plays:
each result, as ``json.dumps`` writes it (key order included) and each
action record. The initial and final DB hashes are checked for the tasks
TestPipecatBot plays (cmd/evaluate/testdata/pipecat/scenarios.txt);
with PIPECATBOT_ALL_HASHES=1, for every task, and after each write too (a
Python hash of a tau2 DB takes about 0.3 s here).
"""

import json
import os
import re
import unittest

import dbhash
import tools
from dbfiles import DataRoot
from tools.env import ToolEnv

HERE = os.path.dirname(__file__)
REPO = os.path.join(HERE, "..", "..", "..")
VECTORS = os.path.join(REPO, "internal", "conformance", "testdata")
DATA = DataRoot(os.path.join(REPO, "domains", "tau2", "tau2data"))
DB_PATHS = {"tau2_airline": "airline/db.json", "tau2_retail": "retail/db.json"}
NOT_PLAYED = ("is not implemented by examples/pipecatbot",)
SCENARIOS = os.path.join(REPO, "cmd", "evaluate", "testdata", "pipecat", "scenarios.txt")


def hashed_tasks() -> set:
    """The (domain, task id) pairs whose hashes are checked."""
    with open(SCENARIOS, encoding="utf-8") as f:
        names = [line.split("#")[0].strip() for line in f]
    return {tuple(n.split("__", 1)) for n in names if n}


def class_name(action: str) -> str:
    """get_user_details -> GetUserDetailsTool (the name the model sees)."""
    return "".join(part.title() for part in action.split("_")) + "Tool"


def playable(domain: str, task: dict) -> bool:
    names = {class_name(a["name"]) for a in task["per_action"]}
    return all(n in tools.FACTORIES[domain] for n in names)


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


class GoldReplay(unittest.TestCase):
    def replay(self, domain: str, vectors: str) -> int:
        played = 0
        every = os.environ.get("PIPECATBOT_ALL_HASHES") == "1"
        hashed = hashed_tasks()
        with open(os.path.join(VECTORS, vectors), encoding="utf-8") as f:
            tasks = [json.loads(line) for line in f]
        for task in tasks:
            if not playable(domain, task):
                continue
            played += 1
            with self.subTest(domain=domain, task=task["task_id"]):
                state = {"db": DATA.load(DB_PATHS[domain])}
                env = ToolEnv(state)
                check = every or (domain, task["task_id"]) in hashed
                if check:
                    self.assertEqual(dbhash.get_dict_hash(state["db"]), task["initial_db_hash"])
                for step in task["per_action"]:
                    tool = tools.build(class_name(step["name"]), domain, env)
                    before = len(state.get("actions") or [])
                    result = tool.run(dict(step["arguments"]))
                    self.assertEqual(dumps(result), dumps(step["result"]), step["action_id"])
                    records = (state.get("actions") or [])[before:]
                    want = [{k: v for k, v in r.items() if k != "side"} for r in step["records_appended"]]
                    self.assertEqual(dumps(records), dumps(want), step["action_id"])
                    if records and every:
                        self.assertEqual(dbhash.get_dict_hash(state["db"]), step["db_hash_after"], step["action_id"])
                if check:
                    self.assertEqual(dbhash.get_dict_hash(state["db"]), task["final_db_hash"])
        return played

    def test_airline(self):
        self.assertGreaterEqual(self.replay("tau2_airline", "gold_replay_airline.train.jsonl"), 6)

    def test_retail(self):
        self.assertGreaterEqual(self.replay("tau2_retail", "gold_replay_retail.train.jsonl"), 20)


class Calculate(unittest.TestCase):
    def run_expr(self, expression):
        return tools.build("CalculateTool", "tau2_retail", ToolEnv({})).run({"expression": expression})

    def test_values_and_errors(self):
        self.assertEqual(self.run_expr("1 + 1"), {"status": "success", "result": "2.0"})
        self.assertEqual(self.run_expr("(10 - 2.5) / 3"), {"status": "success", "result": "2.5"})
        self.assertEqual(self.run_expr(" 2**3"), {"status": "success", "result": "8.0"})
        self.assertEqual(self.run_expr("1/0")["message"], "Invalid expression: division by zero")
        self.assertEqual(self.run_expr("1 +")["message"], "Invalid expression: invalid syntax (<string>, line 1)")
        self.assertEqual(self.run_expr("abs(1)")["message"], "Invalid characters in expression")
        self.assertTrue(re.match(r"Invalid expression: ", self.run_expr("9**9**9")["message"]))


class Arguments(unittest.TestCase):
    def test_unknown_and_missing_arguments_are_refused(self):
        env = ToolEnv({"db": {"users": {}}})
        got = tools.build("GetUserDetailsTool", "tau2_retail", env).run({"user": "x"})
        self.assertEqual(got["error_type"], "validation_error")
        self.assertEqual([d["field"] for d in got["details"]], ["user_id", "user"])

    def test_a_tool_the_bot_does_not_play_says_so(self):
        got = tools.build("BookReservationTool", "tau2_airline", ToolEnv({})).run({})
        self.assertIn(NOT_PLAYED[0], got["message"])
        self.assertIsNone(tools.build("NoSuchTool", "tau2_airline", ToolEnv({})))


if __name__ == "__main__":
    unittest.main()
