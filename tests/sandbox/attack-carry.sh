#!/bin/sh
# tests/sandbox/carry.inc in the full sandbox.
. "$TESTS/sandbox/common.inc"
what="full sandbox"
run() { sbx "$@"; }
. "$TESTS/sandbox/carry.inc"
exit $T_FAILED
