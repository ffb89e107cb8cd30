"""What every tool of the bot shares: its schema, argument checks, delivery.

A tool is a name the model sees, a pipecat ``FunctionSchema`` and a plain
function ``run(state, args) -> result``. Schemas are data: the tau2 tools'
names, descriptions, properties and required lists are read from the
repository's ``tool_schemas.jsonl`` files (what the Python original presents
to the model), never written here. Arguments are checked with a pydantic
model made from the same schema (unknown keys refused, pydantic's lax
conversions), and a refused call answers the structured validation error.

``pipecat_handler`` is the pipecat side: one result per call through
``result_callback`` (a raised exception becomes ``{"error": str(e)}``; an
empty result gets the non-empty envelope, so pipecat does not replace it with
"COMPLETED"), then the tool's after-result hook (the end tool's ``<exit>``).
"""

import dataclasses
import json
import os
from collections.abc import Awaitable, Callable
from typing import Any

from pipecat.adapters.schemas.function_schema import FunctionSchema
from pydantic import BaseModel, ConfigDict, ValidationError, create_model

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SCHEMA_FILES = (
    os.path.join(REPO, "domains", "tau2", "tau2data", "tool_schemas.jsonl"),
    os.path.join(REPO, "domains", "nemo", "nemodata", "tool_schemas.jsonl"),
)

# Test-only switch: the named tool's dict results have their top-level keys
# reversed, to show that a comparison of contexts catches key order.
REORDER_ENV = "PIPECATBOT_REORDER_RESULT"


@dataclasses.dataclass
class Tool:
    """One tool as the bot registers it with pipecat."""

    name: str
    schema: FunctionSchema
    run: Callable[[dict], Any]
    after_result: Callable[[], Awaitable[None]] | None = None


_schemas: dict[tuple[str, str], dict] = {}


def schema_record(registry_domain: str, name: str) -> dict:
    """The original's presentation of tool ``name`` in ``registry_domain``."""
    if not _schemas:
        for path in SCHEMA_FILES:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    rec = json.loads(line)
                    _schemas.setdefault((rec["registry_domain"], rec["name"]), rec)
    return _schemas[(registry_domain, name)]


def function_schema(rec: dict) -> FunctionSchema:
    return FunctionSchema(name=rec["name"], description=rec["description"],
                          properties=rec["properties"], required=rec["required"])


_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool}


def _field_type(prop: dict, name: str):
    kind = prop.get("type")
    if kind == "array":
        return list[_field_type(prop.get("items") or {}, name + "_item")]
    if kind == "object" and "properties" in prop:
        return params_model(name, prop["properties"], prop.get("required") or [], forbid_extra=False)
    return _TYPES.get(kind, Any)


def params_model(name: str, properties: dict, required: list, forbid_extra: bool = True) -> type[BaseModel]:
    """A pydantic model of a tool's arguments, fields in the schema's order
    (so ``model_dump()`` records them in that order)."""
    fields = {}
    for key, prop in properties.items():
        t = _field_type(prop, key.title().replace("_", ""))
        fields[key] = (t, ...) if key in required else (t | None, None)
    config = ConfigDict(extra="forbid") if forbid_extra else ConfigDict()
    return create_model(name, __config__=config, **fields)


def validation_error(exc: ValidationError) -> dict:
    return {
        "status": "error",
        "error_type": "validation_error",
        "message": "Tool arguments failed validation.",
        "details": [
            {"field": ".".join(str(p) for p in e.get("loc", ())), "error": e.get("msg", ""), "type": e.get("type", "")}
            for e in exc.errors()
        ],
    }


def typed(rec: dict, work: Callable[[BaseModel], Any]) -> Callable[[dict], Any]:
    """``run`` for a tool whose arguments are checked against its schema."""
    model = params_model(rec["name"] + "Params", rec["properties"], rec["required"])

    def run(args: dict):
        try:
            p = model.model_validate(args)
        except ValidationError as exc:
            return validation_error(exc)
        return work(p)

    return run


def empty_envelope(result):
    """A falsy result in the envelope that keeps it visible to the model."""
    if result:
        return result
    if isinstance(result, list):
        return {"status": "success", "results": [], "count": 0, "message": "No matching records found."}
    if isinstance(result, dict):
        return {"status": "success", "results": {}, "message": "No matching records found."}
    return {"status": "success", "result": result, "message": "Completed with no data returned."}


def _reordered(name: str, result):
    if os.environ.get(REORDER_ENV) == name and isinstance(result, dict):
        return dict(reversed(list(result.items())))
    return result


def pipecat_handler(tool: Tool):
    """The function pipecat calls for ``tool``: deliver once, then the hook."""

    async def handler(params):
        try:
            result = tool.run(dict(params.arguments or {}))
        except Exception as e:  # noqa: BLE001 - every failure is a result for the model
            await params.result_callback({"error": str(e)})
            return
        await params.result_callback(empty_envelope(_reordered(tool.name, result)))
        if tool.after_result is not None:
            await tool.after_result()

    return handler


def not_found(message: str) -> dict:
    return {"status": "error", "error_type": "not_found", "message": message}


def value_error(message: str) -> dict:
    return {"status": "error", "error_type": "value_error", "message": message}


def db_not_initialized() -> dict:
    return {
        "status": "error",
        "error_type": "db_not_initialized",
        "message": "Scenario database not loaded. This indicates a fixture-loading bug.",
    }
