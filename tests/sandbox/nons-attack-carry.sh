#!/bin/sh
# tests/sandbox/carry.inc in the weaker sandbox (no user namespaces), where
# only the observer refuses.
. "$TESTS/sandbox/nons.inc"
what="weaker sandbox"
run() { wrun "$@"; }
. "$TESTS/sandbox/carry.inc"
exit $T_FAILED
