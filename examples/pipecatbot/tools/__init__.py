"""The bot's tools, by registry domain and the name the model sees.

``build(name, domain, env)`` makes the tool that update_system_prompt's tool
map names, looked up in ``domain`` and then in ``default`` (where the
harness tools live), as the Go bots' registry does. A name the scenario
offers that this bot does not play still gets its schema (the model sees
what the original presents) and answers that it is not implemented; a name
no schema knows is skipped, and the catch-all answers it as unknown.
"""

from loguru import logger

from . import airline, common, retail
from .base import Tool, function_schema, pipecat_handler, schema_record
from .env import ToolEnv

FACTORIES = {
    "tau2_airline": {
        "GetUserDetailsTool": lambda env: common.get_user_details("tau2_airline", env),
        "CalculateTool": lambda env: common.calculate("tau2_airline", env),
        "TransferToHumanAgentsTool": lambda env: common.transfer_to_human_agents("tau2_airline", env),
        **airline.TOOLS,
    },
    "tau2_retail": {
        "GetUserDetailsTool": lambda env: common.get_user_details("tau2_retail", env),
        "CalculateTool": lambda env: common.calculate("tau2_retail", env),
        "TransferToHumanAgentsTool": lambda env: common.transfer_to_human_agents("tau2_retail", env),
        **retail.TOOLS,
    },
    "default": {
        "EndConversationTool": lambda env: common.end_conversation("default", env),
    },
}


def _not_implemented(domain: str, name: str) -> Tool | None:
    try:
        rec = schema_record(domain, name)
    except KeyError:
        return None

    def run(args):
        return {"status": "error", "error_type": "not_implemented",
                "message": f"{name} is not implemented by examples/pipecatbot"}

    return Tool(rec["name"], function_schema(rec), run)


def build(name: str, domain: str, env: ToolEnv) -> Tool | None:
    """The tool ``name`` of ``domain`` (or of ``default``), or None."""
    for d in (domain, "default"):
        factory = FACTORIES.get(d, {}).get(name)
        if factory is not None:
            return factory(env)
    tool = _not_implemented(domain, name)
    if tool is None:
        logger.warning(f"no tool {name!r} in domain {domain!r} or 'default'; the catch-all answers it")
    return tool


def unknown_tool_handler(available: list[str]):
    """The catch-all: a call to a tool the model was not given."""

    async def handler(params):
        await params.result_callback({
            "status": "error",
            "error_type": "unknown_tool",
            "message": f"There is no tool named '{params.function_name}'. Use one of the available tools instead.",
            "available_tools": list(available),
        })

    return handler


__all__ = ["Tool", "ToolEnv", "build", "pipecat_handler", "unknown_tool_handler"]
