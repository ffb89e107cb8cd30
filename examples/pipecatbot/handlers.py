"""The six RTVI client messages of the evaluation bridge, for a pipecat bot.

Written from the repository's reference notes on NeMo's handlers (shared
state, answers and failure texts), not from NeMo's code. One
``on_client_message`` handler dispatches ``data.t``: a handler's return
value is the server-response's ``d``; an exception escaping it becomes an
error-response ``"<ExceptionClass>: <message>"``, an unknown ``t`` the
error-response ``"unknown message type: <t>"``.

- reset -> true: both aggregators back to the last prompt, services reset.
- update_system_prompt {prompt, tools, add_suffix, tool_domain} -> true or
  false: a new prompt; the shared state cleared in place, with the RTVI
  processor and the tool domain in it; the scenario's tools (the JSON
  string ``{name: kwargs}``) built and registered, replacing the last ones.
- apply_initialization {domain, shared_state_init, actions} ->
  {success, errors}: the init merged into the state; ``db_path`` loaded
  under the data root unless a ``db`` came inline.
- apply_sync_delta {domain, delta} -> {success, errors}: dotted paths set
  in the DB (a failure is logged, as in NeMo, not reported).
- get_context_history -> {"context": "<Python literal of the messages>"},
  after waiting (at most 3 s) for calls still in progress.
- get_scenario_summary {include_db} -> {actions, db_hash} (+ db).
"""

import asyncio
import copy
import json

from loguru import logger
from pipecat.adapters.schemas.tools_schema import ToolsSchema

import tools as toolbox
from dbfiles import DataRoot
from dbhash import get_dict_hash
from sanitize import sanitize

# Initialisation functions by domain ({name: fn(db, **arguments)}): none of
# the domains this bot plays has any.
INIT_FUNCTIONS: dict = {}


def _type_name(value) -> str:
    return type(value).__name__


class Bot:
    """The pipecat objects the handlers work on, and the bot's shared state."""

    def __init__(self, *, rtvi, llm, context, user_agg, assistant_agg, prompt: str, data: DataRoot,
                 resettable=()):
        self.rtvi = rtvi
        self.llm = llm
        self.context = context
        self.user_agg = user_agg
        self.assistant_agg = assistant_agg
        self.data = data
        self.original_messages = [{"role": "system", "content": prompt}]
        self.resettable = list(resettable)
        self.state: dict = {}  # cleared in place, never replaced: tools hold it
        self.env = toolbox.ToolEnv(self.state, rtvi)
        self.registered: list = []

    # -- plumbing ---------------------------------------------------------
    async def _reset_aggregators(self, messages):
        await self.user_agg.reset()
        await self.assistant_agg.reset()
        self.user_agg.set_messages(copy.deepcopy(messages))
        self.assistant_agg.set_messages(copy.deepcopy(messages))

    def _reset_services(self):
        for service in self.resettable:
            reset = getattr(service, "reset", None)
            if service is not None and reset is not None:
                reset()

    def install_tools(self, built: list):
        """Register ``built`` (replacing the last set) and the catch-all."""
        for name in self.registered:
            self.llm.unregister_function(name)
        self.registered = []
        for tool in built:
            self.llm.register_function(tool.name, toolbox.pipecat_handler(tool))
            self.registered.append(tool.name)
        self.llm.register_function(None, toolbox.unknown_tool_handler([t.name for t in built]))
        self.registered.append(None)
        self.context.set_tools(ToolsSchema(standard_tools=[t.schema for t in built]))

    # -- the six handlers -------------------------------------------------
    async def reset(self, args):
        try:
            await self._reset_aggregators(self.original_messages)
            self._reset_services()
            return True
        except Exception as e:  # noqa: BLE001
            logger.warning(f"reset failed: {e!r}")
            return False

    async def update_system_prompt(self, args):
        try:
            prompt = args.get("prompt", "")
            if not prompt:
                logger.warning("update_system_prompt without a prompt")
                return False
            messages = [{"role": "system", "content": prompt}]
            self.original_messages[:] = messages
            await self._reset_aggregators(messages)
            domain = args.get("tool_domain", "default")
            self.state.clear()
            self.state["__rtvi__"] = self.rtvi
            self.state["__tool_domain__"] = domain
            tools_json = args.get("tools", "{}")
            if tools_json:
                spec = json.loads(tools_json)
                if not isinstance(spec, dict):
                    raise TypeError(f"tools must decode to a dict, got {_type_name(spec)}")
                built = [toolbox.build(name, domain, self.env) for name in spec]
                self.install_tools([t for t in built if t is not None])
            self._reset_services()
            return True
        except Exception as e:  # noqa: BLE001
            logger.warning(f"update_system_prompt failed: {e!r}")
            return False

    async def apply_initialization(self, args):
        try:
            domain = args.get("domain", "default")
            actions = args.get("actions") or []
            if not isinstance(actions, list):
                return {"success": False, "errors": [f"`actions` payload must be a list, got {_type_name(actions)}."]}
            try:
                init = json.loads(args.get("shared_state_init", "{}"))
            except json.JSONDecodeError as e:
                return {"success": False, "errors": [f"Invalid shared_state_init JSON: {e}"]}
            if not isinstance(init, dict):
                return {"success": False, "errors": [f"shared_state_init must decode to a dict, got {_type_name(init)}."]}
            self.state.update(init)
            if "db_path" in self.state:
                path = self.state.pop("db_path")
                if "db" not in self.state:
                    self.state["db"] = self.data.load(path)
            db = self.state.get("db")
            if actions and db is None:
                return {"success": False, "errors": [
                    f"No shared_state['db'] available; cannot apply {len(actions)} initialization action(s). "
                    "Bridge must send db_path (or inline db) in shared_state_init."]}
            errors = []
            registered = INIT_FUNCTIONS.get(domain, {})
            for i, action in enumerate(actions):
                name = action.get("func_name")
                fn = registered.get(name)
                if fn is None:
                    errors.append(f"[action {i}] No initialization function '{name}' registered under "
                                  f"domain='{domain}'. Available: {sorted(registered)}.")
                    continue
                try:
                    fn(db, **(action.get("arguments") or {}))
                except Exception as e:  # noqa: BLE001
                    errors.append(f"[action {i}] '{name}' raised: {type(e).__name__}: {e}")
            return {"success": not errors, "errors": errors}
        except Exception as e:  # noqa: BLE001
            return {"success": False, "errors": [f"{type(e).__name__}: {e}"]}

    async def apply_sync_delta(self, args):
        try:
            delta = args.get("delta") or {}
            if not isinstance(delta, dict):
                return {"success": False, "errors": [f"`delta` payload must be a dict, got {_type_name(delta)}."]}
            db = self.state.get("db")
            if db is None:
                return {"success": False, "errors": [
                    f"No shared_state['db'] available; cannot apply sync delta with {len(delta)} key(s). "
                    "update_system_prompt didn't seed the DB on this bot."]}
            try:
                for path, value in delta.items():
                    *head, last = path.split(".")
                    node = db
                    for key in head:
                        node = node[key]
                    node[last] = value
            except Exception as e:  # noqa: BLE001 - logged and swallowed, as NeMo's dispatcher does
                logger.warning(f"apply_sync_delta failed on domain={args.get('domain')}: {e!r}")
            return {"success": True, "errors": []}
        except Exception as e:  # noqa: BLE001
            return {"success": False, "errors": [f"{type(e).__name__}: {e}"]}

    async def get_context_history(self, args):
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 3.0
        while getattr(self.assistant_agg, "has_function_calls_in_progress", False):
            if loop.time() >= deadline:
                logger.warning("function calls still in progress after 3s; returning context anyway (may be stale)")
                break
            await asyncio.sleep(0.05)
        try:
            return {"context": str(sanitize(list(self.assistant_agg.messages)))}
        except Exception as e:  # noqa: BLE001
            logger.warning(f"get_context_history failed: {e!r}")
            return {"context": []}

    async def get_scenario_summary(self, args):
        try:
            include_db = bool(args.get("include_db", False))
            db = self.state.get("db") or {}
            out = {"actions": self.state.get("actions") or [], "db_hash": get_dict_hash(db) if db else None}
            if include_db:
                out["db"] = db or None
            return out
        except Exception as e:  # noqa: BLE001
            logger.warning(f"get_scenario_summary failed: {e!r}")
            return {"actions": [], "db_hash": None}

    def install(self):
        """Answer the client messages on ``self.rtvi``."""
        table = {
            "reset": self.reset,
            "update_system_prompt": self.update_system_prompt,
            "apply_initialization": self.apply_initialization,
            "apply_sync_delta": self.apply_sync_delta,
            "get_context_history": self.get_context_history,
            "get_scenario_summary": self.get_scenario_summary,
        }

        @self.rtvi.event_handler("on_client_message")
        async def on_client_message(rtvi, msg):
            handler = table.get(msg.type)
            if handler is None:
                logger.warning(f"unknown client message type: {msg.type}")
                await rtvi.send_error_response(msg, f"unknown message type: {msg.type}")
                return
            try:
                result = await handler(msg.data or {})
            except Exception as e:  # noqa: BLE001
                logger.exception(f"client message {msg.type} failed")
                await rtvi.send_error_response(msg, f"{type(e).__name__}: {e}")
                return
            await rtvi.send_server_response(msg, result)
