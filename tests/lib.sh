# Sourced by every shell test. A test prints "ok - NAME" or "not ok - NAME"
# per check; tests/run.sh counts them. SANDMUX is the binary under test.
: "${SANDMUX:?SANDMUX must name the sandmux binary}"
T_FAILED=0

ok()   { echo "ok - $*"; }
fail() { echo "not ok - $*"; T_FAILED=1; }

# check NAME CMD...: the command must succeed. (Its output goes under the
# test's own T_BASE: /tmp/.t_out.$$ collided between tests run at once in
# pid namespaces of their own, where $$ is 1 in each.)
check() { _n=$1; shift; if "$@" >"$T_BASE/.t_out" 2>&1; then ok "$_n"; else fail "$_n"; sed 's/^/#   /' "$T_BASE/.t_out" | head -20; fi; rm -f "$T_BASE/.t_out"; }
# refuse NAME CMD...: the command must fail.
refuse() { _n=$1; shift; if "$@" >"$T_BASE/.t_out" 2>&1; then fail "$_n (succeeded)"; sed 's/^/#   /' "$T_BASE/.t_out" | head -20; else ok "$_n"; fi; rm -f "$T_BASE/.t_out"; }
# same NAME GOT WANT
same() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1"; echo "#   got:  $2"; echo "#   want: $3"; fi; }
# contains NAME HAYSTACK NEEDLE
contains() { case "$2" in *"$3"*) ok "$1" ;; *) fail "$1"; echo "#   missing: $3"; echo "$2" | sed 's/^/#   | /' | head -20 ;; esac; }

# A fresh directory owned by whoever runs the test, removed at exit. They
# all live under one base made here, in the test's own shell: `x=$(t_tmpdir)`
# runs in a subshell, which could not register anything for cleanup.
T_BASE=$(mktemp -d "${TMPDIR:-/tmp}/sandmux-t.XXXXXX") || exit 1
chmod 755 "$T_BASE"
t_tmpdir() { mktemp -d "$T_BASE/d.XXXXXX"; }
t_cleanup() { chmod -R u+w "$T_BASE" 2>/dev/null; rm -rf "$T_BASE"; for _d in $T_CLEAN; do chmod -R u+w "$_d" 2>/dev/null; rm -rf "$_d"; done; }
trap t_cleanup EXIT

# t_until SECONDS CMD...: polls CMD (every 0.1 s) until it succeeds; false
# when SECONDS pass first. Deadlines are generous: a loaded machine is slow.
t_until() {
	_u=0; _umax=$(($1 * 10)); shift
	until "$@"; do
		[ $_u -lt $_umax ] || return 1
		sleep 0.1; _u=$((_u + 1))
	done
}
# t_only NAME LOG CONTROL...: a check that a server logging one line per
# thing it gets, in the order they come, got nothing so far. CONTROL sends
# it one thing from outside, now, which it logs as the line "control";
# once that is in, anything sent before it is too: it must be the only line.
t_only() {
	_n=$1; _l=$2; shift 2
	"$@" >/dev/null 2>&1 || { fail "$_n (the control from outside failed)"; return; }
	t_until 20 grep -qx control "$_l" || { fail "$_n (the control from outside never arrived)"; return; }
	same "$_n" "$(cat "$_l")" control
}

# t_fork_hold FILE CHILD HOLD: writes a python3 script to FILE that forks
# children sleeping CHILD seconds until fork fails, prints
# "FORK-STOPPED-ERRNO at N" (N forked), and then holds the load HOLD more
# seconds. The file goes where the sandbox can read it (not the host /tmp).
t_fork_hold() {
	cat >"$1" <<PY
import os, time
n = 0
try:
    for i in range(500):
        if os.fork() == 0:
            time.sleep($2)
            os._exit(0)
        n += 1
except OSError as e:
    print("FORK-STOPPED-%d at %d" % (e.errno, n), flush=True)
time.sleep($3)
PY
}
