#!/bin/sh
# sandmux doctor: reports what a launch here would really get, and agrees
# with what a launch does.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
out=$("$SANDMUX" doctor 2>&1); rc=$?
same "doctor: exit 0 when every profile can start" "$rc" "0"
contains "doctor: Landlock ABI" "$out" "landlock:        ABI"
contains "doctor: seccomp and user notification" "$out" "user notification: yes"
contains "doctor: namespaces" "$out" "namespaces:      user yes, mount yes, pid yes, net yes"
for p in workspace read-only strict devbox off; do
	contains "doctor: a line for $p" "$out" "  $p "
done
contains "doctor: strict has no network" "$(echo "$out" | grep '^  strict')" "loopback only"
contains "doctor: devbox has the host network" "$(echo "$out" | grep '^  devbox')" "host network"
same "doctor: the trial launches create nothing in the workspace" "$(ls -A | grep -v '^\.t$')" ""
mkdir -p .sandmux
echo '{"unknownKey": 1}' >.sandmux/sandbox.json
out=$("$SANDMUX" doctor 2>&1)
contains "doctor: warnings of the sources here" "$out" "unknownKey"
t_dir home
mkdir -p "$home/.sandmux"
echo '{"profiles": {"mine": {"extends": "workspace"}}}' >"$home/.sandmux/sandbox.json"
echo '{"profiles": {"mine": {"extends": "strict"}}}' >.sandmux/sandbox.json
out=$(HOME="$home" "$SANDMUX" doctor 2>&1)
contains "doctor: a profile defined differently per user and per repo is a conflict" "$out" "profiles.mine: defined differently"
refuse "doctor: extra arguments are refused" "$SANDMUX" doctor --bogus
exit $T_FAILED
