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
# The release version every module requires its siblings at: the version
# go.work points at the core module's directory.
version=$(sed -n 's#^[[:space:]]*github.com/voiceeval/schematools \(v[^ ]*\) => \./$#\1#p' go.work)
if [ -z "$version" ]; then
	echo "tidy.sh: go.work names no version of the core module" >&2
	exit 1
fi
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
		# A sibling required for the first time comes in at the zero
		# pseudo-version (the replace has none): require the release.
		for p in "${paths[@]}"; do
			if grep -q "^[[:space:]]*$p v0.0.0-00010101000000-000000000000" go.mod; then
				go mod edit "-require=$p@$version"
			fi
		done
	)
done
