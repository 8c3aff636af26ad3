#!/bin/sh
# Capture mode without user namespaces: the overlays cannot be mounted, so
# the command does not run, even where the weaker sandbox is allowed, and
# one line says why. And chmod, which Landlock does not mediate and which
# no read-only mount refuses there, is still the observer's to refuse in
# the weaker sandbox (the full sandbox leaves it to its mounts).
. "$TESTS/sandbox/nons.inc"
out_dir=$(t_tmpdir)
chmod 777 "$out_dir"
# made by the sandbox's own uid, outside any sandbox: its owner may chmod it
weak sh -c "echo x > '$out_dir/f' && chmod 644 '$out_dir/f'"
(cd "$ws" && weak "$SANDMUX" run --config "$ws/.t/policy.json" -- chmod 777 "$out_dir/f") >/dev/null 2>&1
same "weaker sandbox: chmod outside the writable paths is refused" "$(stat -c %a "$out_dir/f")" "644"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["outsideWrites"] = "capture"
json.dump(d, open(sys.argv[1], "w"))' "$ws/.t/policy.json"
out=$(wrun -- sh -c 'echo ran > ran' 2>&1)
rc=$?
same "capture without user namespaces: the run fails" "$rc" "1"
contains "capture without user namespaces: it says why" "$out" "needs overlayfs in a user namespace"
refuse "capture without user namespaces: nothing ran" test -e "$ws/ran"
exit $T_FAILED
