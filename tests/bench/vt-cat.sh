#!/bin/sh
# Pane output throughput: `cat` of a large file (SIZE_MB, default 50) in a
# sandmux pane, side by side with a plain tmux pane of the same size
# (200x50) and a bare pty (script(1)) as the floor. The time is cat's own
# wall time, measured inside the pane: cat finishes only as fast as the
# host drains the pty. Also prints each server's RSS afterwards (one pane,
# 2,000 lines of history). Asserts nothing.
#   SANDMUX=./sandmux SIZE_MB=50 sh tests/bench/vt-cat.sh
: "${SANDMUX:=./sandmux}"
: "${SIZE_MB:=50}"
SANDMUX=$(cd "$(dirname "$SANDMUX")" && pwd)/$(basename "$SANDMUX")
command -v tmux >/dev/null 2>&1 || { echo "# tmux not installed: skipped"; exit 0; }

# HOME outside /tmp: each sandbox gets its own /tmp.
root=$(mktemp -d "${HOME:-/root}/.sandmux-bench.XXXXXX") || exit 1
export HOME="$root/home" XDG_RUNTIME_DIR="$root/run" TMUX_TMPDIR="$root/tmux"
mkdir -p "$HOME" "$TMUX_TMPDIR" && mkdir -m 700 "$XDG_RUNTIME_DIR"
ws="$root/ws"
mkdir -p "$ws"
unset TMUX TMUX_PANE SANDMUX_SANDBOX
export SHELL=/bin/sh PS1='$ ' ENV=
TMP="tmux -L plain -f /dev/null"
TMO="tmux -L outer -f /dev/null"
cleanup() {
	(cd "$ws" && "$SANDMUX" kill-session >/dev/null 2>&1)
	$TMP kill-server >/dev/null 2>&1
	$TMO kill-server >/dev/null 2>&1
	rm -rf "$root"
}
trap cleanup EXIT INT TERM
cd "$ws" || exit 1

# Text lines of varied length, some coloured, like build logs and code.
python3 - "$SIZE_MB" > big.txt <<'PY'
import random, sys
random.seed(3)
words = ["sandbox", "pane", "terminal", "grid", "scroll", "policy", "ok", "build/", "λ", "42", "warning:"]
out, size, limit = [], 0, int(float(sys.argv[1]) * 1048576)
while size < limit:
    line = " ".join(random.choice(words) for _ in range(random.randint(0, 14)))
    if random.random() < 0.1:
        line = "\033[3%dm%s\033[0m" % (random.randint(1, 7), line)
    out.append(line)
    size += len(line) + 1
sys.stdout.write("\n".join(out) + "\n")
PY
# Runs inside each pane: cat's wall time in ms, and the pane's size.
cat > timecat.sh <<'EOF'
stty size > "$1.size"
s=$(date +%s%N); cat big.txt; e=$(date +%s%N)
echo $(( (e - s) / 1000000 )) > "$1.tmp" && mv "$1.tmp" "$1"
EOF

# wait_file FILE SECONDS
wait_file() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt $(($2 * 10)) ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$1" ]
}

rss_kb() { [ -n "$1" ] && awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null; }

ms_to_s() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }

echo "cat of $(du -m big.txt | cut -f1) MB, panes of 200x50"

if command -v script >/dev/null 2>&1; then
	script -qfec "stty cols 200 rows 50; sh timecat.sh bare.ms" /dev/null >/dev/null 2>&1
	[ -s bare.ms ] && echo "  bare pty (script): $(ms_to_s "$(cat bare.ms)") s"
fi

$TMP new-session -d -x 200 -y 50 "sh timecat.sh tmux.ms; sleep 3600"
$TMP set-option -g history-limit 2000 >/dev/null 2>&1
if wait_file tmux.ms 600; then
	echo "  tmux $(tmux -V | cut -d' ' -f2):         $(ms_to_s "$(cat tmux.ms)") s (pane $(cat tmux.ms.size 2>/dev/null))," \
		"server RSS $(rss_kb "$($TMP display -p '#{pid}')") kB"
else
	echo "  tmux: did not finish"
fi
$TMP kill-server >/dev/null 2>&1

# sandmux inside an outer tmux a little larger than the pane, for its
# title line and status bar.
$TMO new-session -d -x 200 -y 52 "'$SANDMUX'; sleep 3600"
i=0
until $TMO capture-pane -p | grep -q '\$'; do
	sleep 0.1
	i=$((i + 1))
	[ $i -gt 100 ] && { echo "  sandmux: did not start"; $TMO capture-pane -p | sed 's/^/#   /'; exit 0; }
done
$TMO send-keys "sh timecat.sh sandmux.ms" Enter
if wait_file sandmux.ms 600; then
	# the server logs "started: ..., pid N" next to its socket
	spid=$(cat "$HOME/.sandmux/state/server.log" 2>/dev/null | sed -n 's/.*started:.*pid \([0-9]*\).*/\1/p' | tail -1)
	echo "  sandmux:           $(ms_to_s "$(cat sandmux.ms)") s (pane $(cat sandmux.ms.size 2>/dev/null))${spid:+, server RSS $(rss_kb "$spid") kB}"
else
	echo "  sandmux: did not finish"
fi
