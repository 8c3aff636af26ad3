#!/bin/sh
# Resource limits in the weaker sandbox (no user namespaces, so no tmpfs
# of its own): RLIMIT_FSIZE bounds each file, RLIMIT_NPROC and
# RLIMIT_DATA are set, and run --report says so.
. "$TESTS/sandbox/nons.inc"
export HOME="$ws/.t/home"
mkdir -p "$HOME/.sandmux"
echo '{"limits": {"pids": 4096, "memory": 64, "tmp": 4}}' >"$HOME/.sandmux/sandmux.json"
out=$(wrun --report "$ws/.t/weak.json" -- sh -c 'dd if=/dev/zero of="$TMPDIR/big" bs=1M count=20 2>&1; stat -c %s "$TMPDIR/big"' 2>&1)
contains "weaker sandbox: a file stops at limits.tmp (RLIMIT_FSIZE)" "$out" "File size limit exceeded"
size=$(echo "$out" | grep -E '^[0-9]+$' | tail -1)
[ -n "$size" ] && [ "$size" -le $((4 << 20)) ] && ok "weaker sandbox: the file is at most 4 MiB ($size)" || fail "weaker sandbox: the file is at most 4 MiB (${size:-?})"
contains "weaker sandbox: the report says how /tmp is bound" "$(cat "$ws/.t/weak.json")" "/tmp 4M (RLIMIT_FSIZE, per file)"
out=$(wrun -- python3 -c 'x = bytearray(256 << 20); print("ALLOCATED")' 2>&1)
case "$out" in
*ALLOCATED*) fail "weaker sandbox: a memory hog is refused or killed" ;;
*MemoryError* | *"killed for memory"*) ok "weaker sandbox: a memory hog is refused or killed" ;;
*) fail "weaker sandbox: a memory hog is refused or killed"; echo "$out" | sed 's/^/#   /' ;;
esac
exit $T_FAILED
