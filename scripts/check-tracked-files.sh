#!/usr/bin/env bash
# Fails when git tracks a build output: an executable binary (ELF, Mach-O,
# PE or WebAssembly, or any file with the executable bit that holds a NUL
# byte) anywhere, or a file larger than 4 MB outside the data directories
# named below. Run from anywhere inside the repository; .ci/run runs it.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

max_bytes=$((4 * 1024 * 1024))
# Vendored benchmark data and conformance vectors: large by nature, each with
# its NOTICE. A new data directory is added here on purpose, not by accident.
data_dirs=(
	domains/tau2/tau2data/
	domains/nemo/nemodata/
	internal/conformance/testdata/
)

in_data_dir() {
	local d
	for d in "${data_dirs[@]}"; do
		[[ $1 == "$d"* ]] && return 0
	done
	return 1
}

bad=0
while IFS= read -r -d '' entry; do
	mode=${entry%% *}
	path=${entry#*$'\t'}
	[ -f "$path" ] || continue
	magic=$(head -c 4 "$path" | od -An -tx1 | tr -d ' \n')
	case $magic in
	7f454c46 | cafebabe | feedface | feedfacf | cefaedfe | cffaedfe | 0061736d | 4d5a*)
		echo "tracked binary (magic $magic): $path"
		bad=1
		continue
		;;
	esac
	if [ "$mode" = 100755 ] && [ "$(head -c 65536 "$path" | tr -d '\000' | wc -c)" -ne "$(head -c 65536 "$path" | wc -c)" ]; then
		echo "tracked executable with binary content: $path"
		bad=1
		continue
	fi
	size=$(wc -c <"$path")
	if [ "$size" -gt "$max_bytes" ] && ! in_data_dir "$path"; then
		echo "tracked file of $size bytes (over 4 MB) outside the data directories: $path"
		bad=1
	fi
done < <(git ls-files -s -z | sed -z 's/^\([0-9]*\) [0-9a-f]* [0-9]*\t/\1 \t/')

if [ "$bad" -ne 0 ]; then
	echo "build outputs must not be tracked: git rm --cached them and extend .gitignore"
	exit 1
fi
echo "tracked files: no binaries, nothing over 4 MB outside the data directories"
