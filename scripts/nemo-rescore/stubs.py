"""Stand-ins for the modules NeMo's evaluation code imports but scoring never uses.

NeMo's runner imports its bridge, and the scenario classes import
nemo_voice_agent.utils; between them they pull in pipecat, soxr, websockets,
librosa and (through the pipecat services) torch and the NeMo
toolkit. None of them is touched while a run is scored: they move audio and
serve models. install() puts a permissive stand-in on the import path for
each of those packages — every attribute is a class that can be called,
subclassed, used as a decorator or read further — so NeMo's own modules
import unchanged. The parts scoring does use (numpy, loguru, requests, python-dotenv,
pydantic for the tools' parameters, omegaconf and PyYAML for eva's agent
config) are real, pinned in requirements.txt.
"""

import importlib.abc
import importlib.machinery
import sys
import types

# Top-level packages replaced by stand-ins.
STUBBED = (
    "pipecat",
    "soxr",
    "websockets",
    "librosa",
    "torch",
    "torchaudio",
    "nemo",
    "soundfile",
    "openai",
    "vllm",
    "transformers",
    "fastapi",
    "uvicorn",
    "python_weather",
)

# Modules of nemo_voice_agent itself replaced by stand-ins: the model
# services (they import torch and the NeMo toolkit at module level).
STUBBED_OWN = ("nemo_voice_agent.pipecat", "nemo_voice_agent.vllm")


class _Meta(type):
    def __getattr__(cls, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _make(name)

    def __getitem__(cls, item):
        return cls

    def __or__(cls, other):
        return cls

    def __ror__(cls, other):
        return cls


class _Stub(metaclass=_Meta):
    """Anything: callable, subclassable, awaitable as nothing."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return _Stub()

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Stub()


def _make(name):
    return _Meta(name, (_Stub,), {})


class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        value = _make(name)
        setattr(self, name, value)
        return value


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        m = _StubModule(spec.name)
        m.__path__ = []  # a package: submodules import too
        return m

    def exec_module(self, module):
        pass


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        top = fullname.split(".", 1)[0]
        own = any(fullname == p or fullname.startswith(p + ".") for p in STUBBED_OWN)
        if top in STUBBED or own:
            return importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=True)
        return None


def install():
    """Put the stand-ins first on sys.meta_path (idempotent)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
