#!/bin/sh
# Capture mode without user namespaces: the overlays cannot be mounted, so
# the command does not run, even where the weaker sandbox is allowed, and
# one line says why.
. "$TESTS/sandbox/nons.inc"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["outsideWrites"] = "capture"
json.dump(d, open(sys.argv[1], "w"))' "$ws/.t/policy.json"
out=$(wrun -- sh -c 'echo ran > ran' 2>&1)
rc=$?
same "capture without user namespaces: the run fails" "$rc" "1"
contains "capture without user namespaces: it says why" "$out" "needs overlayfs in a user namespace"
refuse "capture without user namespaces: nothing ran" test -e "$ws/ran"
exit $T_FAILED
