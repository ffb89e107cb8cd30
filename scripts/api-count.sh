#!/usr/bin/env bash
# Prints the number of exported identifiers (package-level names and the
# exported methods of exported types) of each library package — every
# package but commands, examples/, deploy/ and any internal/ directory —
# and their total, the domain packs (domains/) counted apart. -v lists them.
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./internal/cmd/apicount . "$@"
