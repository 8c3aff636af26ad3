#!/bin/sh
# Emulator throughput: builds tests/bench/vt_bench.c against the pty/
# objects and runs it (our vt vs libvterm's screen layer, 5 MB at 200x50).
# Run from the top of the repository after `make`.
set -e
out=build/bench
mkdir -p "$out"
cc -O2 -std=c11 -D_GNU_SOURCE -I. -o "$out/vt_bench" tests/bench/vt_bench.c \
	build/pty/*.o $(pkg-config --cflags --libs vterm)
"$out/vt_bench" "${1:-5}" "${2:-50}" "${3:-200}"
