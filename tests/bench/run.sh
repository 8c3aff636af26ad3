#!/bin/sh
# `make bench`: every benchmark in tests/bench/, one after another. They
# print numbers side by side and assert nothing (timings are never tests).
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
export SANDMUX="${SANDMUX:-$top/sandmux}"
for b in tests/bench/*.sh; do
	[ "$b" = tests/bench/run.sh ] && continue
	echo "== $b"
	sh "$b" || echo "# $b failed"
done
