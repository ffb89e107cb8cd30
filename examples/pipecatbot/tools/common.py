"""Tools both tau2 domains have, and the harness's end tool.

- get_user_details: the user record as the data file has it (the user id
  is matched lower-cased), or not_found "User <id> not found".
- calculate: the arithmetic of an expression made of digits, "+-*/", ".",
  parentheses and spaces, evaluated as Python evaluates it, rounded to 2
  places and given as a string. Evaluated on the parsed tree, not with
  eval; a power whose exponent is over 10,000 is refused.
- transfer_to_human_agents: recorded like a write; then ``<exit>Transfer
  complete.</exit>``.
- EndConversationTool (domain ``default``): ``{"success": true, "message":
  "Exit message sent."}``, then, once that result is delivered,
  ``<exit>The task is finished.</exit>``.
"""

import ast
import operator

from .base import Tool, db_not_initialized, function_schema, not_found, schema_record, typed, value_error


def find_user(db: dict, user_id):
    """The user whose id is ``user_id`` lower-cased, or None."""
    users = db.get("users") or {}
    return users.get(user_id.lower() if user_id else user_id)


def get_user_details(domain: str, env) -> Tool:
    rec = schema_record(domain, "GetUserDetailsTool")

    def work(p):
        db = env.db
        if not db:
            return db_not_initialized()
        user = find_user(db, p.user_id)
        return not_found(f"User {p.user_id} not found") if user is None else user

    return Tool(rec["name"], function_schema(rec), typed(rec, work))


_ALLOWED = set("0123456789+-*/(). ")
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Pow: operator.pow}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}


def _evaluate(node):
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and isinstance(right, (int, float)) and abs(right) > 10_000:
            raise ValueError("exponent too large")
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand))
    if isinstance(node, ast.Tuple):
        return tuple(_evaluate(e) for e in node.elts)
    if isinstance(node, ast.Call):
        raise TypeError(f"'{type(_evaluate(node.func)).__name__}' object is not callable")
    raise TypeError("unsupported expression")


def calculate(domain: str, env) -> Tool:
    rec = schema_record(domain, "CalculateTool")

    def work(p):
        if not all(c in _ALLOWED for c in p.expression):
            return value_error("Invalid characters in expression")
        try:
            result = round(float(_evaluate(ast.parse(p.expression.lstrip(" \t"), "<string>", mode="eval"))), 2)
        except Exception as e:  # noqa: BLE001 - reported to the model
            return value_error(f"Invalid expression: {e}")
        return {"status": "success", "result": str(result)}

    return Tool(rec["name"], function_schema(rec), typed(rec, work))


def transfer_to_human_agents(domain: str, env) -> Tool:
    rec = schema_record(domain, "TransferToHumanAgentsTool")

    def work(p):
        env.record({"action_type": "transfer_to_human_agents", "name": "transfer_to_human_agents",
                    "arguments": p.model_dump(), "result": {"message": "Transfer successful"}})
        return {"status": "success", "message": "Transfer successful"}

    async def after():
        await env.exit("Transfer complete.")

    return Tool(rec["name"], function_schema(rec), typed(rec, work), after)


def end_conversation(domain: str, env) -> Tool:
    rec = schema_record("default", "EndConversationTool")

    async def after():
        await env.exit("The task is finished.")

    return Tool(rec["name"], function_schema(rec),
                lambda args: {"success": True, "message": "Exit message sent."}, after)
