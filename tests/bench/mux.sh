#!/bin/sh
# The multiplexer next to tmux: output throughput (cat of a big file in a
# 200x50 pane, with a client attached and drawing) and the memory (PSS) of
# sandmux's processes against tmux's server with 1, 4 and 16 panes, idle
# and with 2,000 lines of history each; keystroke echo, idle and while the
# pane beside floods.
# Prints numbers; asserts nothing. MB=size of the file (default 50);
# W, H: the pane's size for the cat (default 200x50); ROUNDS: how many
# cats in each, interleaved (default 3); MUX_BENCH=cat
# measures the throughput only, MUX_BENCH=mem the memory only,
# MUX_BENCH=echo the keystroke echo only.
bench=$(cd "$(dirname "$0")" && pwd)
: "${SANDMUX:=$bench/../../sandmux}"
command -v tmux >/dev/null || { echo "mux bench: tmux not installed"; exit 0; }
MB=${MB:-50}
W=${W:-200} H=${H:-50}
root=$(mktemp -d /tmp/sandmux-bench.XXXXXX)
home=$(mktemp -d "${HOME:-/root}/.sandmux-bench.XXXXXX")
export HOME="$home" XDG_RUNTIME_DIR="$root/run" TMUX_TMPDIR="$root/tmux" SHELL=/bin/sh PS1='$ '
mkdir -m 700 "$XDG_RUNTIME_DIR"; mkdir -p "$TMUX_TMPDIR" "$root/ws"
unset TMUX TMUX_PANE SANDMUX_SANDBOX
OUT="tmux -L bench-outer -f /dev/null"   # the "person's terminal" for both
REF="tmux -L bench-ref -f /dev/null"     # the tmux measured against
cleanup() {
	(cd "$root/ws" && "$SANDMUX" kill-session >/dev/null 2>&1)
	$REF kill-server 2>/dev/null; $OUT kill-server 2>/dev/null
	rm -rf "$root" "$home"
}
trap cleanup EXIT
cd "$root/ws" || exit 1

# A file of text lines, a bit of colour every so often, like build output.
awk -v mb="$MB" 'BEGIN { n = mb * 1024 * 1024 / 80; for (i = 0; i < n; i++)
	printf("%08d %s\033[3%dmcolour\033[m %s\n", i, "the quick brown fox jumps over the lazy dog", i % 8, "0123456789abcdef") }' >big.txt
size=$(wc -c <big.txt)

wait_file() { _i=0; while [ ! -s "$1" ] && [ $_i -lt 6000 ]; do sleep 0.05; _i=$((_i + 1)); done; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
pss_kb() { awk '/^Pss:/ {print $2}' "/proc/$1/smaps_rollup"; }
# sandmux's own processes beside the server: its direct children, each
# pane's sandbox init (pid 1 of another pid namespace) and the observers'
# zygote (sandmux-obs), and the zygote's children, each pane's observer
# (an observer forked by the server itself, as `sandmux run` does, is a
# direct child in the server's pid namespace): how many of each and their
# summed PSS (pages shared count by share). The panes' commands are not
# counted, as tmux's are not.
helpers_pss() {
	ni=0; no=0; kb=0; ikb=0
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		if [ "$(cat /proc/"$c"/comm 2>/dev/null)" = sandmux-obs ]; then
			for o in $(cat /proc/"$c"/task/*/children 2>/dev/null); do
				no=$((no + 1)); kb=$((kb + $(pss_kb "$o")))
			done
		else
			case "$(awk '/^NSpid/ {print NF}' /proc/"$c"/status 2>/dev/null)" in
			2) no=$((no + 1)) ;; 3) ni=$((ni + 1)); ikb=$((ikb + $(pss_kb "$c"))) ;; *) continue ;;
			esac
		fi
		kb=$((kb + $(pss_kb "$c")))
	done
	echo "$ni $no $kb $ikb"
}
# The command a pane runs: time cat, write the milliseconds to a file.
timed_cat() { echo "s=\$(date +%s%N); cat big.txt; e=\$(date +%s%N); echo \$(( (e - s) / 1000000 )) >$1"; }

if [ "${MUX_BENCH:-all}" != echo ]; then
if [ "${MUX_BENCH:-all}" != mem ]; then
# One cat in each, ROUNDS times (default 3), the order swapped every
# round so that a change of load on the machine falls on both alike.
cat_sandmux() { # sandmux: W columns, H rows for the pane (+ title line + status bar)
	rm -f sandmux.ms
	$OUT new -d -s s -x "$W" -y $((H + 2)) "$SANDMUX; sleep 3600"
	sleep 1
	spid=$(sed -n 's/.* pid \([0-9]*\)$/\1/p' "$HOME/.sandmux/state/server.log" | tail -1)
	"$SANDMUX" new -n cat -- sh -c "$(timed_cat sandmux.ms)" >/dev/null
	$OUT send-keys -t s C-b z
	wait_file sandmux.ms
	srss=$(rss_kb "$spid")
	$OUT kill-session -t s
	(cd "$root/ws" && "$SANDMUX" kill-session >/dev/null)
	sleep 0.5
}
cat_tmux() { # tmux: its own client attached in the same outer terminal size
	rm -f tmux.ms
	$REF new -d -s r -x "$W" -y "$H" "sleep 3600"
	$OUT new -d -s t -x "$W" -y $((H + 1)) "$REF attach -t r"
	sleep 0.5
	$REF respawn-pane -k -t r "sh -c '$(timed_cat tmux.ms); sleep 3600'"
	wait_file tmux.ms
	$OUT kill-session -t t; $REF kill-server
	sleep 0.5
}
i=1; ratios=""
while [ $i -le "${ROUNDS:-3}" ]; do
	if [ $((i % 2)) = 1 ]; then cat_sandmux; cat_tmux; else cat_tmux; cat_sandmux; fi
	bare_s=$(date +%s%N); script -qc "cat big.txt" /dev/null >/dev/null; bare_e=$(date +%s%N)
	r=$(awk -v a="$(cat sandmux.ms)" -v b="$(cat tmux.ms)" 'BEGIN { printf "%.2f", a / b }')
	ratios="$ratios $r"
	echo "cat of $((size / 1048576)) MB at ${W}x$H, round $i: sandmux $(cat sandmux.ms) ms, tmux $(cat tmux.ms) ms (ratio $r)," \
		"bare pty (script) $(( (bare_e - bare_s) / 1000000 )) ms; sandmux server RSS after it $srss kB"
	i=$((i + 1))
done
echo "$ratios" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ r[NR] = $1 } END {
	printf "cat, sandmux/tmux time: median %.2f, min %.2f, max %.2f (%d rounds)\n", NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2, r[1], r[NR], NR }'

[ "${MUX_BENCH:-all}" = cat ] && exit 0 # MUX_BENCH=cat: the throughput only
fi # MUX_BENCH != mem

# memory: N idle panes, then N panes with 2,000 lines of history
mem() { # mem N HISTORY(0|1)
	cmd="sleep 3600"; [ "$2" = 1 ] && cmd="seq -f 'history line %g of some length to keep' 2000; sleep 3600"
	printf '#!/bin/sh\n%s\n' "$cmd" >"$root/ws/.pane.sh"; chmod +x "$root/ws/.pane.sh"
	$OUT new -d -s m -x 200 -y 52 "SHELL=$root/ws/.pane.sh $SANDMUX; sleep 3600"
	sleep 1
	spid=$(sed -n 's/.* pid \([0-9]*\)$/\1/p' "$HOME/.sandmux/state/server.log" | tail -1)
	$REF new -d -s r -x 200 -y 50 "sh -c \"$cmd\""
	i=1
	while [ $i -lt "$1" ]; do
		"$SANDMUX" new -- sh -c "$cmd" >/dev/null
		$REF split-window -t r "sh -c \"$cmd\"" 2>/dev/null || $REF new-window -t r "sh -c \"$cmd\""
		$REF select-layout -t r tiled
		i=$((i + 1))
	done
	sleep 2
	tpid=$($REF display -p -t r '#{pid}')
	set -- "$1" "$2" $(helpers_pss "$spid")
	sp=$(pss_kb "$spid") tp=$(pss_kb "$tpid")
	echo "$1 panes$([ "$2" = 1 ] && echo ', 2000 lines of history each'): sandmux PSS $((sp + $5)) kB" \
		"(server $sp kB, RSS $(rss_kb "$spid") kB; $3 inits, $4 observers and their zygote $5 kB, the inits alone $6 kB)," \
		"tmux server PSS $tp kB (RSS $(rss_kb "$tpid") kB); tmux + 150 KiB a pane: $((tp + 150 * $1)) kB"
	(cd "$root/ws" && "$SANDMUX" kill-session >/dev/null)
	$REF kill-server; $OUT kill-session -t m
	sleep 0.5
}
for n in 1 4 16; do mem $n 0; done
mem 16 1
fi # MUX_BENCH != echo

# keystroke echo: one character at a time into `cat` in a pane
if [ "${MUX_BENCH:-all}" != mem ] && command -v python3 >/dev/null; then
	SHELL=/bin/sh
	$REF new -d -s e -x 100 -y 30 "sh"
	echo "echo through sandmux: $(python3 "$bench/mux-echo.py" 300 "$SANDMUX")"
	echo "echo through tmux:    $(python3 "$bench/mux-echo.py" 300 $REF attach -t e)"
	(cd "$root/ws" && "$SANDMUX" kill-session >/dev/null 2>&1)
	$REF kill-server 2>/dev/null
	# the same while the pane beside floods output (sandmux new splits
	# the window; focus goes back to the first pane)
	flood="while :; do cat big.txt; done"
	$OUT new -d -s f -x 100 -y 30 "$SANDMUX; sleep 3600"
	sleep 1
	"$SANDMUX" new -n flood -- sh -c "$flood" >/dev/null
	$OUT send-keys -t f C-b o
	sleep 0.5
	echo "echo through sandmux, the pane beside flooding: $(python3 "$bench/mux-echo.py" 300 "$SANDMUX")"
	(cd "$root/ws" && "$SANDMUX" kill-session >/dev/null 2>&1)
	$OUT kill-session -t f
	$REF new -d -s e -x 100 -y 30 "sh"
	$REF split-window -d -h -t e "sh -c '$flood'"
	echo "echo through tmux, the pane beside flooding:    $(python3 "$bench/mux-echo.py" 300 $REF attach -t e)"
	$REF kill-server 2>/dev/null
fi
