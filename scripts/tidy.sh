#!/usr/bin/env bash
# Tidies every module of the workspace (go.work). A nested module requires
# the core and its siblings by their release version (docs/releasing.md),
# which no proxy serves before the release, and `go mod tidy` ignores
# go.work; so for the length of the tidy each module's go.mod points those
# requirements at the working tree with replace directives, which are
# dropped again after. Run it after adding or removing an import of a
# third-party module.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mapfile -t dirs < <(go work edit -json | sed -n 's/.*"DiskPath": "\(.*\)".*/\1/p')
declare -A paths
for d in "${dirs[@]}"; do
	paths[$d]=$(sed -n "s/^module //p" "$d/go.mod")
done
for d in "${dirs[@]}"; do
	echo "-- $d"
	(
		cd "$d"
		reps=()
		for o in "${dirs[@]}"; do
			[ "$o" = "$d" ] && continue
			rel=$(realpath --relative-to="$root/$d" "$root/$o")
			case "$rel" in .*) ;; *) rel="./$rel" ;; esac
			reps+=("-replace=${paths[$o]}=$rel")
		done
		go mod edit "${reps[@]}"
		trap 'go mod edit $(printf -- "-dropreplace=%s " "${paths[@]}")' EXIT
		GOWORK=off GOFLAGS=-mod=mod go mod tidy
	)
done
