#!/bin/sh
# esctest2 (github.com/ThomasDickey/esctest2, not part of sandmux) in a
# sandmux pane and in a tmux pane of the same size, 80x24; prints both
# pass counts. Optional: needs a checkout, tmux and python3.
#   SANDMUX=./sandmux sh tests/vt-optional/esctest.sh /path/to/esctest2
# ESCTEST_TIMEOUT (seconds a report may take, default 0.5) and
# ESCTEST_ARGS (more arguments, e.g. --include=DECRQSS) are passed on.
dir=${1:?usage: esctest.sh ESCTEST2-CHECKOUT}
: "${SANDMUX:=./sandmux}" "${ESCTEST_TIMEOUT:=0.5}"
[ -f "$dir/esctest/esctest.py" ] || { echo "esctest.sh: no esctest/esctest.py under $dir"; exit 1; }
command -v tmux >/dev/null || { echo "esctest.sh: tmux is not installed"; exit 1; }
dir=$(cd "$dir/esctest" && pwd)
SANDMUX=$(cd "$(dirname "$SANDMUX")" && pwd)/$(basename "$SANDMUX")
root=$(mktemp -d "${HOME:-/root}/.sandmux-esctest.XXXXXX") || exit 1
export HOME="$root" XDG_RUNTIME_DIR="$root/run" TMUX_TMPDIR="$root/tmux" SHELL=/bin/sh
mkdir -p "$TMUX_TMPDIR" "$root/ws" && mkdir -m 700 "$XDG_RUNTIME_DIR"
unset TMUX TMUX_PANE SANDMUX_SANDBOX
TM="tmux -L esctest -f /dev/null"
# the sandmux run gets a server of its own: a new session on the first one
# races that server exiting after its last session is killed
TS="tmux -L esctest-sandmux -f /dev/null"
cleanup() { (cd "$root/ws" && "$SANDMUX" kill-session >/dev/null 2>&1); $TM kill-server >/dev/null 2>&1; $TS kill-server >/dev/null 2>&1; rm -rf "$root"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# a copy in the workspace: a sandbox has its own /tmp, where the checkout may be
cp -r "$dir" "$root/ws/esctest" || exit 1
py=/usr/bin/python3; [ -x "$py" ] || py=$(command -v python3)
run="cd $root/ws/esctest && $py esctest.py --expected-terminal=xterm --max-vt-level=4 --timeout=$ESCTEST_TIMEOUT --no-print-logs $ESCTEST_ARGS"

# wait_log LOG: until esctest writes its summary (at most 30 minutes).
wait_log() {
	_i=0
	while [ $_i -lt 3600 ]; do
		grep -q 'tests passed' "$1" 2>/dev/null && return 0
		sleep 0.5; _i=$((_i + 1))
	done
	return 1
}
passes() { grep -o '[0-9]* tests passed' "$1" | sed 's/ .*//'; }

# tmux: a pane of 80x24
$TM new -d -s ref -x 80 -y 24 "$run --logfile=$root/ws/tmux.log; sleep 3600"
wait_log "$root/ws/tmux.log" || echo "# tmux: esctest did not finish"
$TM kill-session -t ref

# sandmux: its pane is the outer terminal less the title and status lines,
# in a window of its own (a new pane would split the first one's window)
(cd "$root/ws" && $TS new -d -s main -x 80 -y 26 "$SANDMUX; sleep 3600")
_i=0
until $TS capture-pane -p -t main | grep -q running || [ $_i -ge 100 ]; do sleep 0.1; _i=$((_i + 1)); done
(cd "$root/ws" && "$SANDMUX" new --new_window -n esctest -- sh -c "$run --logfile=$root/ws/sandmux.log; sleep 3600") >/dev/null
wait_log "$root/ws/sandmux.log" || echo "# sandmux: esctest did not finish"

t=$(passes "$root/ws/tmux.log"); s=$(passes "$root/ws/sandmux.log")
grep -h 'tests passed' "$root/ws/tmux.log" | sed 's/^/# tmux:    /'
grep -h 'tests passed' "$root/ws/sandmux.log" | sed 's/^/# sandmux: /'
echo "esctest2 passes: sandmux ${s:-0}, tmux ${t:-0}"
[ -n "$ESCTEST_KEEP" ] && cp "$root/ws/sandmux.log" "$root/ws/tmux.log" "$ESCTEST_KEEP"/
[ "${s:-0}" -ge "${t:-0}" ]
