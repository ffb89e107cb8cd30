#!/bin/sh
# Regenerates the golden frame encodings in this directory: every
# <name>.txtpb (protobuf text format, one pipecat.Frame) is encoded by
# protoc into <name>.bin, which TestFrameGoldenVectors decodes and compares
# with rtvi's own encoder byte for byte. protoc is an encoder independent
# of rtvi, so the .bin files pin the wire format. It also writes
# frames.desc, the compiled schema (a FileDescriptorSet), which
# FuzzDecodeFrame loads into google.golang.org/protobuf's dynamicpb as a
# second, independent decoder to compare against.
#
# Run by hand from any directory after editing a .txtpb or frames.proto;
# the .bin files are committed and CI never runs this script. It needs
# protoc, from Debian's protobuf-compiler package (apt-get install
# protobuf-compiler; the files were produced with libprotoc 3.21.12).
#
# The decode direction was checked by hand (libprotoc 3.21.12): bytes
# written by rtvi's Frame.Marshal for six frames -- audio with pts 0,
# uint64/uint32 maxima and non-UTF-8 samples; audio with sample_rate only
# and no pts; text with "Grüß 👋 こんにちは"; an empty interruption member;
# a transcription with every field; a message holding RTVI client-ready
# JSON -- were piped into
#   protoc --decode=pipecat.Frame frames.proto
# which printed exactly the values encoded (pts: 0 shown, the absent pts
# and the zero scalars not shown, "interruption {}" for the empty member).
# Piping that text back through protoc --encode reproduced rtvi's bytes
# exactly in all six cases.
set -eu

cd "$(dirname "$0")"
protoc --descriptor_set_out=frames.desc frames.proto
echo "frames.proto -> frames.desc"
for src in *.txtpb; do
	out="${src%.txtpb}.bin"
	protoc --encode=pipecat.Frame frames.proto <"$src" >"$out"
	echo "$src -> $out"
done
