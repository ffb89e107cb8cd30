#!/usr/bin/env bash
# Checks that the conformance tests take their counts from the vector files:
# runs the packages that read the NeMo vectors against (1) a copy of the
# in-repo vectors in which every NeMo JSON-lines file holds each record twice
# (a larger set, as a regenerated one would be) — this must pass — and
# (2) the same copy with one expected DB hash changed — this must fail.
# Usage: scripts/check-larger-vectors.sh [go test flags...]
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

pkgs=(./domains/nemo/... ./cmd/evalreplay/ ./internal/conformance/)
# cmd/rtvibot: only its test that reads the vectors (the others are the
# bot's own, minutes of them).
rtvibot_vectors='^TestEvaScenarioByDBPathAndInline$'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cp -r internal/conformance/testdata "$tmp/larger"
for f in "$tmp"/larger/nemo/*.jsonl; do
	cat "$f" "$f" >"$f.2" && mv "$f.2" "$f"
done
echo "== larger set ($(wc -l <"$tmp/larger/nemo/eva_airline_calls.jsonl") eva call scripts, $(wc -l <"$tmp/larger/nemo/other_domain_calls.jsonl") other-domain scripts): must pass"
SCHEMATOOLS_CONFORMANCE_DIR="$tmp/larger" go test -count=1 "$@" "${pkgs[@]}"
SCHEMATOOLS_CONFORMANCE_DIR="$tmp/larger" go test -count=1 "$@" -run "$rtvibot_vectors" -v ./cmd/rtvibot/ | grep -E '^(--- |ok|FAIL|PASS)'

cp -r "$tmp/larger" "$tmp/broken"
# Change the last expected_db_hash of the gold paths: one hex digit flipped.
python3 - "$tmp/broken/nemo/eva_airline_gold_paths.jsonl" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
m = list(re.finditer(r'"expected_db_hash": ?"([0-9a-f])', s))[-1]
d = "0" if m.group(1) != "0" else "1"
s = s[:m.start(1)] + d + s[m.end(1):]
open(p, "w").write(s)
PY
echo "== the same set with one expected hash changed: must fail"
if SCHEMATOOLS_CONFORMANCE_DIR="$tmp/broken" go test -count=1 "$@" ./domains/nemo/evaairline/ >"$tmp/broken.out" 2>&1; then
	cat "$tmp/broken.out"
	echo "FAIL: a changed expected hash went unnoticed"
	exit 1
fi
echo "as it must, the conformance test refused it: $(grep -m1 -oE 'expected: *"[0-9a-f]{64}"' "$tmp/broken.out" || echo "(see the test output)")"
echo "ok: the larger set passes and a changed hash fails"
