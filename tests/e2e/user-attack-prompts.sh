#!/bin/sh
# A program in a pane makes thousands of distinct denials (a write into
# every directory under /usr, each with a broadening of its own to offer).
# The prompts waiting in the pane are capped: the server's memory stays
# bounded, it keeps answering, and the denials are still counted. Checked
# from outside (the server's RSS, ls --json).
. "$TESTS/e2e/mux.lib"
command -v python3 >/dev/null || { echo "ok - # SKIP python3 not installed"; exit 0; }
m_start 100 20
SERVER=$(sed -n 's/.*started: .*, pid \([0-9]*\)$/\1/p' "$HOME/.sandmux/state/server.log" | tail -1)
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$SERVER/status"; }
before=$(rss)
cat >"$WS/flood.py" <<'PY'
import os
n = 0
for d, subdirs, files in os.walk("/usr"):
    try:
        open(os.path.join(d, ".sandmux-flood"), "w")
    except OSError:
        n += 1
print("FLOODED", n, flush=True)
import time; time.sleep(100)
PY
m_sandmux ctl '{"verb":"new-pane","name":"flood","command":["python3","flood.py"]}' >/dev/null
i=0
until m_sandmux capture -t flood 2>/dev/null | grep -q FLOODED; do
	i=$((i + 1)); [ $i -lt 1200 ] || break; sleep 0.1
done
tried=$(m_sandmux capture -t flood | sed -n 's/.*FLOODED \([0-9]*\).*/\1/p')
[ "${tried:-0}" -gt 1000 ] && ok "the pane made its denials (# $tried)" || fail "the pane made its denials (${tried:-none})"
after=$(rss)
echo "# server RSS $before -> $after KiB"
# (an ASan build keeps up to 256 MiB of freed memory in its quarantine)
limit=65536; [ -n "$ASAN_OPTIONS" ] && limit=$((65536 + 262144))
[ $((after - before)) -lt $limit ] && ok "the server grew by less than $((limit / 1024)) MiB" || fail "the server grew by less than $((limit / 1024)) MiB ($before -> $after KiB)"
out=$(m_sandmux ctl '{"id":1,"verb":"list"}')
n=$(echo "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print([p["prompts"] for w in r["session"]["windows"] for p in w["panes"] if p["name"]=="flood"][0])')
echo "# prompts waiting: $n"
[ "$n" -ge 1 ] && [ "$n" -le 64 ] && ok "the prompts waiting are capped (# $n)" || fail "the prompts waiting are capped ($n)"
nq=$(echo "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print([p["prompts_not_queued"] for w in r["session"]["windows"] for p in w["panes"] if p["name"]=="flood"][0])')
[ "$nq" -gt 0 ] && ok "ls says how many denials found the queue full (# $nq)" || fail "ls says how many denials found the queue full ($nq)"
grep -q "pane [0-9]*: 64 prompts wait; later denials raise none" "$HOME/.sandmux/state/server.log" && ok "the log says so, once" ||
	fail "the log says so, once"
exit $T_FAILED
