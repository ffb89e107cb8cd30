"""A text-mode TTS stand-in: pipecat's own TTS path, with silence for audio.

pipecat emits the RTVI speaking events from the output transport, not from the
LLM: BaseOutputTransport pushes BotStartedSpeakingFrame on the first
TTSAudioRawFrame it plays and BotStoppedSpeakingFrame on the TTSStoppedFrame
that follows it (transports/base_output.py, MediaSender._handle_bot_speech /
_handle_frame), and RTVIObserver turns those frames, and each TTSTextFrame
pushed out of the transport, into bot-started-speaking / bot-tts-text /
bot-stopped-speaking. A TTSService subclass whose run_tts yields a short
silent TTSAudioRawFrame reuses all of that unchanged: the base class
aggregates LLM text into sentences, pushes TTSStartedFrame, our audio, the
TTSTextFrame (push_text_frames=True) and TTSStoppedFrame (push_stop_frames).
"""

from collections.abc import AsyncGenerator

from pipecat.frames.frames import Frame, TTSAudioRawFrame
from pipecat.services.settings import TTSSettings
from pipecat.services.tts_service import TTSService
from pipecat.utils.text import base_text_aggregator as _agg
from pipecat.utils.text.base_text_aggregator import Aggregation, BaseTextAggregator

# pipecat 1.13 renamed AggregationType to TextType (the old name warns).
SENTENCE = (getattr(_agg, "TextType", None) or _agg.AggregationType).SENTENCE


class WholeResponseAggregator(BaseTextAggregator):
    """Holds an LLM response's text until the response ends (flush): one
    TTSTextFrame, so one bot-tts-text, per response, with its own spacing —
    what the Go bot sends. (Sentence aggregation sends one per sentence with
    the separating space stripped, and the bridge glues them as sent:
    "Hi!" + "How can I help?" -> "Hi!How can I help?".)"""

    def __init__(self):
        super().__init__(aggregation_type=SENTENCE)
        self._buf = ""

    @property
    def text(self) -> Aggregation:
        return Aggregation(text=self._buf, type=SENTENCE)

    async def aggregate(self, text: str):
        self._buf += text
        return
        yield  # an async generator that yields nothing

    async def flush(self):
        t, self._buf = self._buf.strip(), ""
        return Aggregation(text=t, type=SENTENCE) if t else None

    async def handle_interruption(self):
        self._buf = ""

    async def reset(self):
        self._buf = ""


class SilentTTSService(TTSService):
    """A TTS service that "speaks" each response as a short silence.

    ``whole_response`` replaces the base class's sentence aggregator (a
    private attribute, ``_text_aggregator``: there is no public parameter
    for it in pipecat 1.6) so that a response is one TTSTextFrame.
    """

    def __init__(self, *, silence_secs: float = 0.02, secs_per_char: float = 0.0,
                 whole_response: bool = True, **kwargs):
        kwargs.setdefault("push_start_frame", True)
        kwargs.setdefault("push_stop_frames", True)
        kwargs.setdefault("settings", TTSSettings(model=None, voice=None, language=None))
        super().__init__(**kwargs)
        self._silence_secs = silence_secs
        self._secs_per_char = secs_per_char  # > 0: "speak" for as long as a voice would
        if whole_response:
            self._text_aggregator = WholeResponseAggregator()

    def can_generate_metrics(self) -> bool:
        return False

    def reset(self) -> None:
        """Drop text held for the response being spoken (the handlers'
        service reset, and a client's disconnect)."""
        if isinstance(self._text_aggregator, WholeResponseAggregator):
            self._text_aggregator._buf = ""

    async def run_tts(self, text: str, context_id: str) -> AsyncGenerator[Frame | None, None]:
        secs = max(self._silence_secs, self._secs_per_char * len(text))
        n = max(2, int(self.sample_rate * secs) * 2)  # 16-bit mono
        yield TTSAudioRawFrame(b"\x00" * n, self.sample_rate, 1, context_id=context_id)
