#!/bin/sh
# Builds every libFuzzer target of tests/fuzz with clang
# (-fsanitize=fuzzer,address,undefined) and runs each for a bounded time:
# FUZZ_SECONDS (default 60) per target. Exits non-zero on the first crash.
# Crash inputs are left in build/fuzz/. Arguments name targets to run
# (default: all), e.g. tests/fuzz/run.sh fuzz_policy.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
secs=${FUZZ_SECONDS:-60}
out=build/fuzz
CC=${FUZZ_CC:-clang}
command -v "$CC" >/dev/null || { echo "fuzz: $CC not found (apt-get install clang)"; exit 1; }
mkdir -p "$out"
FLAGS="-g -O1 -std=c11 -D_GNU_SOURCE -I. -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"

# target: name, sources, libraries
targets() {
	echo "fuzz_policy|tests/fuzz/fuzz_policy.c $(ls policy/*.c | tr '\n' ' ')|-lcjson"
	# the emulator: every pty/ file but the PTY itself (pty.c forks)
	vt=$(ls pty/*.c | grep -v '^pty/pty\.c$' | tr '\n' ' ')
	[ -f tests/fuzz/fuzz_vt.c ] && echo "fuzz_vt|tests/fuzz/fuzz_vt.c $vt|-lvterm"
	[ -f tests/fuzz/fuzz_keys.c ] && echo "fuzz_keys|tests/fuzz/fuzz_keys.c shell/keys.c $vt|-lvterm"
	[ -f tests/fuzz/fuzz_ignore.c ] && echo "fuzz_ignore|tests/fuzz/fuzz_ignore.c $(ls policy/*.c | tr '\n' ' ')|-lcjson"
	[ -f tests/fuzz/fuzz_report.c ] && echo "fuzz_report|tests/fuzz/fuzz_report.c shell/shell-report.c ui/exact.c ui/prompt.c ui/status.c ui/color.c policy/utf8.c|-lncursesw"
	[ -f tests/fuzz/fuzz_reqchan.c ] && echo "fuzz_reqchan|tests/fuzz/fuzz_reqchan.c backends/reqchan.c backends/fdpass.c|"
	[ -f tests/fuzz/fuzz_proxy.c ] && echo "fuzz_proxy|tests/fuzz/fuzz_proxy.c backends/proxy-http.c backends/proxy-socks.c backends/net-dnsmsg.c backends/net-addr.c|"
	[ -f tests/fuzz/fuzz_pack.c ] && echo "fuzz_pack|tests/fuzz/fuzz_pack.c $(ls policy/*.c | tr '\n' ' ')|-lcjson"
	[ -f tests/fuzz/fuzz_gitdirs.c ] && echo "fuzz_gitdirs|tests/fuzz/fuzz_gitdirs.c $(ls policy/*.c | tr '\n' ' ')|-lcjson"
}

status=0
for t in $(targets | tr ' ' '@'); do
	line=$(echo "$t" | tr '@' ' ')
	name=${line%%|*}; rest=${line#*|}; srcs=${rest%%|*}; libs=${rest#*|}
	if [ $# -gt 0 ]; then case " $* " in *" $name "*) ;; *) continue ;; esac; fi
	echo "fuzz: building $name"
	# shellcheck disable=SC2086
	$CC $FLAGS -o "$out/$name" $srcs $libs || { echo "fuzz: $name does not build"; status=1; continue; }
	corpus="$out/corpus-$name"
	mkdir -p "$corpus"
	seeds=tests/fuzz/corpus/${name#fuzz_}
	[ -d "$seeds" ] && cp "$seeds"/* "$corpus"/ 2>/dev/null
	dict=tests/fuzz/${name#fuzz_}.dict
	[ -f "$dict" ] && dict="-dict=$dict" || dict=""
	echo "fuzz: running $name for ${secs}s"
	# shellcheck disable=SC2086
	if ! "$out/$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 -artifact_prefix="$out/$name-" \
		$dict "$corpus" 2>"$out/$name.log"; then
		echo "fuzz: $name failed; see $out/$name.log and $out/$name-*"
		tail -30 "$out/$name.log"
		status=1
	else
		grep -E '^(#[0-9]+ *DONE|Done)' "$out/$name.log" | tail -1
		echo "fuzz: $name ok"
	fi
done
exit $status
