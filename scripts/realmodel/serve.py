#!/usr/bin/env python3
"""Serve a GGUF model on loopback with llama.cpp's own HTTP server, as the
xllamacpp wheel embeds it: /v1/chat/completions (streaming with usage,
non-streaming, tools), /v1/models, /health.

usage: serve.py MODEL.gguf [--host 127.0.0.1] [--port 8081] [--ctx 16384]
                [--parallel 2] [--threads 2] [--template FILE] [--alias NAME]

Blocks until SIGTERM or SIGINT.
"""
import argparse
import signal
import threading
import time

import xllamacpp


def main():
    ap = argparse.ArgumentParser(description="serve a GGUF model with llama.cpp's server")
    ap.add_argument("model")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8081)
    ap.add_argument("--ctx", type=int, default=32768, help="context tokens, shared by the slots (16,384 each of 2: a judge request holds both contexts)")
    ap.add_argument("--parallel", type=int, default=2, help="slots: requests served at once, each with its prompt cache")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--template", help="jinja chat template file (instead of the model's)")
    ap.add_argument("--alias", help="the model name the server reports")
    a = ap.parse_args()
    if a.host not in ("127.0.0.1", "localhost", "::1"):
        ap.error("the server has no API key: serve on loopback only")

    p = xllamacpp.CommonParams()
    p.model.path = a.model
    p.hostnames = [a.host]
    p.port = a.port
    p.n_ctx = a.ctx
    p.n_parallel = a.parallel
    p.cpuparams.n_threads = a.threads
    p.cpuparams_batch.n_threads = a.threads
    p.use_jinja = True
    p.warmup = False
    if a.alias:
        # The binding's type for the alias changed across versions.
        p.model_alias = a.alias if isinstance(p.model_alias, str) else type(p.model_alias)([a.alias])
    if a.template:
        with open(a.template) as f:
            p.chat_template = f.read()
    start = time.time()
    server = xllamacpp.Server(p)
    print(f"listening on {server.listening_address} (model loaded in {time.time() - start:.1f} s)", flush=True)
    done = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: done.set())
    done.wait()


if __name__ == "__main__":
    main()
