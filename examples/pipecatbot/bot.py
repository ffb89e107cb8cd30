"""A text-only pipecat evaluation bot: pipecat's own RTVI, context and LLM.

    websocket in (protobuf frames) -> RTVIProcessor -> user aggregator
    -> OpenAILLMService -> SilentTTSService -> websocket out -> assistant aggregator

What is pipecat's: the transport (SingleClientWebsocketServerTransport with
ProtobufFrameSerializer), the RTVI processor and observer (client-ready ->
bot-ready, send-text -> a user turn, every server event), the context
aggregator pair (the chat context the harness pulls), OpenAILLMService (the
streaming request, function calling, token-usage metrics). What is ours: the
six client-message handlers (handlers.py), the tools (tools/), the DB hash
(dbhash.py), and a TTS that speaks silence so that pipecat's output
transport emits the speaking events (textmode_tts.py). The order of the
pipeline is that of NeMo's evaluation bot, without VAD, STT and turn
taking: text arrives as RTVI send-text.

    python bot.py --port 8765 --llm-url http://127.0.0.1:8000/v1 --data DATA_ROOT

db_path values resolve under --data (default: $EVAL_DATA_ROOT). The bot
serves one client at a time for its whole life; the context and the shared
state outlive connections (the harness connects twice per scenario).
"""

import argparse
import asyncio
import os
import sys

from punkt_data import ensure_punkt_tab

ensure_punkt_tab()  # before pipecat.utils.string is imported: it looks for punkt_tab at import

from loguru import logger  # noqa: E402
from pipecat.pipeline.pipeline import Pipeline  # noqa: E402
from pipecat.pipeline.worker import PipelineParams, PipelineWorker  # noqa: E402
from pipecat.processors.aggregators.llm_context import LLMContext  # noqa: E402
from pipecat.processors.aggregators.llm_response_universal import (  # noqa: E402
    LLMContextAggregatorPair,
    LLMUserAggregatorParams,
)
from pipecat.processors.frameworks.rtvi import RTVIObserver, RTVIProcessor  # noqa: E402
from pipecat.serializers.protobuf import ProtobufFrameSerializer  # noqa: E402
from pipecat.services.openai.llm import OpenAILLMService  # noqa: E402
from pipecat.transports.websocket.server import (  # noqa: E402
    SingleClientWebsocketServerParams,
    SingleClientWebsocketServerTransport,
)
from pipecat.turns.user_turn_strategies import ExternalUserTurnStrategies  # noqa: E402
from pipecat.workers.runner import WorkerRunner  # noqa: E402

from dbfiles import DataRoot  # noqa: E402
from handlers import Bot  # noqa: E402
from textmode_tts import SilentTTSService  # noqa: E402


async def serve(a: argparse.Namespace) -> None:
    transport = SingleClientWebsocketServerTransport(
        host=a.host,
        port=a.port,
        params=SingleClientWebsocketServerParams(
            serializer=ProtobufFrameSerializer(),
            audio_in_enabled=False,
            audio_out_enabled=True,  # the silent speech is what makes the speaking events
            add_wav_header=False,
            session_timeout=None,
            audio_out_end_silence_secs=0,
        ),
    )
    llm = OpenAILLMService(
        api_key=os.environ.get(a.llm_key_env) or "EMPTY",
        base_url=a.llm_url,
        settings=OpenAILLMService.Settings(model=a.model, temperature=0.6, top_p=0.95, seed=42),
    )
    context = LLMContext(messages=[{"role": "system", "content": a.prompt}])
    # External turn strategies: text turns come from RTVI send-text; the
    # default strategies would load a local smart-turn model.
    pair = LLMContextAggregatorPair(
        context, user_params=LLMUserAggregatorParams(user_turn_strategies=ExternalUserTurnStrategies())
    )
    user_agg, assistant_agg = pair.user(), pair.assistant()
    tts = SilentTTSService()
    rtvi = RTVIProcessor()
    bot = Bot(rtvi=rtvi, llm=llm, context=context, user_agg=user_agg, assistant_agg=assistant_agg,
              prompt=a.prompt, data=DataRoot(a.data), resettable=[tts])
    bot.install()

    pipeline = Pipeline([transport.input(), rtvi, user_agg, llm, tts, transport.output(), assistant_agg])
    worker = PipelineWorker(
        pipeline,
        params=PipelineParams(enable_metrics=True, enable_usage_metrics=True),
        observers=[RTVIObserver(rtvi)],  # PipelineWorker answers client-ready with bot-ready
        idle_timeout_secs=None,
        cancel_on_idle_timeout=False,
    )

    @transport.event_handler("on_client_disconnected")
    async def on_disconnected(transport, client):
        # The pipeline, its context and the shared state live on: the
        # harness prepares a scenario on one connection and runs it on the next.
        tts.reset()

    runner = WorkerRunner(handle_sigint=True, handle_sigterm=True)
    await runner.add_workers(worker)
    await runner.run()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--llm-url", default="http://127.0.0.1:8000/v1", help="OpenAI-compatible base URL")
    ap.add_argument("--llm-key-env", default="OPENAI_API_KEY", help="variable holding the API key (unset: EMPTY)")
    ap.add_argument("--model", default="standin")
    ap.add_argument("--data", default=os.environ.get("EVAL_DATA_ROOT", "data"), help="data root of db_path values")
    ap.add_argument("--prompt", default="You are a helpful agent.", help="system prompt until update_system_prompt")
    ap.add_argument("--log-level", default="WARNING")
    a = ap.parse_args()
    logger.remove()
    logger.add(sys.stderr, level=a.log_level)
    asyncio.run(serve(a))


if __name__ == "__main__":
    main()
