#!/bin/sh
# Cost of the observer's connect() takeover (backends/unixsock.h), side by
# side: $N connects to a unix socket the sandbox listens on itself (each
# one made by the host for the sandbox), and, for comparison, $N TCP
# connects on the sandbox's loopback (notified, handed back to the
# kernel). Modes: bare (no sandbox), --no-observer (Landlock alone, no
# takeover), and the default (observer). Best of $RUNS, microseconds per
# connect timed inside the command. Asserts nothing.
#   SANDMUX=./sandmux sh tests/bench/unixsock.sh
: "${SANDMUX:=./sandmux}"
: "${RUNS:=3}"
: "${N:=2000}"
ws=$(mktemp -d "$HOME/.sandmux-bench.XXXXXX")
trap 'cd /; rm -rf "$ws"' EXIT
cp "$SANDMUX" "$ws/.sandmux" && SANDMUX="$ws/.sandmux"
cc -O2 -pthread -o "$ws/loop" "$(dirname "$0")/unixsock-loop.c" || exit 1
cd "$ws" || exit 1

one() { # one MODE KIND: microseconds per connect
	case $1 in
	bare) ./loop "$2" "$N" ;;
	no-observer) "$SANDMUX" run --no-observer -- ./loop "$2" "$N" ;;
	observer) "$SANDMUX" run -- ./loop "$2" "$N" ;;
	esac
}
best() { # best MODE KIND
	b=""
	for i in $(seq 1 "$RUNS"); do
		v=$(one "$1" "$2")
		b=$(awk -v a="$b" -v v="$v" 'BEGIN { print (a == "" || v + 0 < a + 0) ? v : a }')
	done
	echo "$b"
}
printf '%-28s %10s %12s %10s\n' "$N connects, us each" bare no-observer observer
for k in unix tcp; do
	printf '%-28s %10s %12s %10s\n' "$k" "$(best bare $k)" "$(best no-observer $k)" "$(best observer $k)"
done
