"""The shared state a tool works on, and the RTVI messages tools send.

``ToolEnv`` is one bot's shared state (a dict, cleared in place for each
scenario, never replaced) plus the RTVI processor. Write tools append their
action record to ``state["actions"]`` and announce it with an
``action-applied`` server message; the end tools send ``<exit>`` as an RTVI
server message with ``push_transport_message`` (an urgent frame, written
to the client ahead of queued speech), as the Python original does.
"""

import asyncio

import pipecat.processors.frameworks.rtvi.models as RTVI
from loguru import logger


class ToolEnv:
    def __init__(self, state: dict, rtvi=None):
        self.state = state
        self.rtvi = rtvi

    @property
    def db(self):
        """The scenario's DB (None, or an empty dict, when none is loaded)."""
        return self.state.get("db")

    def record(self, action: dict) -> None:
        """Append a write's action record and announce it (fire and forget)."""
        self.state.setdefault("actions", []).append(action)
        if self.rtvi is None or self.state.get("__rtvi__") is None:
            return
        data = {"type": "action-applied", "action": action,
                "tool_domain": self.state.get("__tool_domain__", "default")}
        try:
            asyncio.get_running_loop().create_task(self.server_message(data))
        except RuntimeError:  # no loop: a replay outside the bot
            pass

    async def server_message(self, data) -> None:
        """Send ``data`` as an RTVI server-message, urgently."""
        if self.rtvi is None:
            return
        try:
            await self.rtvi.push_transport_message(RTVI.ServerMessage(data=data), exclude_none=True)
        except Exception as e:  # noqa: BLE001 - a failed push is logged, never raised into the tool
            logger.warning(f"server-message push failed: {type(e).__name__}: {e}")

    async def exit(self, text: str) -> None:
        """Send ``<exit>text</exit>``: the harness ends the conversation."""
        await self.server_message(RTVI.TextMessageData(text=f"<exit>{text}</exit>"))
