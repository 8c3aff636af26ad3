#!/bin/sh
# A HOME under /tmp: the session temp dir (under ~/.sandmux/state/tmp/)
# is then itself under the /tmp that the sandbox covers; it must still be
# mounted there, and the command must still run.
. "$TESTS/lib.sh"
h=$(t_tmpdir); ws=$(t_tmpdir)
out=$(cd "$ws" && HOME="$h" "$SANDMUX" run -- sh -c 'echo inside > /tmp/x && cat /tmp/x && echo w > f' 2>&1)
same "a run with HOME under /tmp works" "$out" "inside"
check "its workspace write landed (outside)" grep -qx w "$ws/f"
refuse "no temp dir left behind under HOME (outside)" sh -c "ls -A '$h/.sandmux/state/tmp' 2>/dev/null | grep -q run-"
exit $T_FAILED
