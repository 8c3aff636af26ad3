#!/bin/sh
# The panes' observers (backends/observer-zygote.h): each pane's observer
# is a process of its own, forked from the server's zygote, deciding by
# the policy its pane was started with and reporting to that pane alone;
# killing a pane's observer makes that pane's notified calls fail (fail
# closed) and leaves the other pane's alone; killing the zygote ends
# every observer. Every outcome is checked on the workspace from outside.
. "$TESTS/e2e/mux.lib"

LOG="$HOME/.sandmux/state/denials.jsonl"
m_start
spid=$(sed -n 's/.* pid \([0-9]*\)$/\1/p' "$HOME/.sandmux/state/server.log" | tail -1)
zygote() { for c in $(cat /proc/"$spid"/task/*/children 2>/dev/null); do
	[ "$(cat /proc/"$c"/comm 2>/dev/null)" = sandmux-obs ] && echo "$c"; done; }
observers() { for c in $(cat /proc/"$(zygote)"/task/*/children 2>/dev/null); do echo "$c"; done | sort; }
z=$(zygote)
[ -n "$z" ] && ok "the first pane's observer comes from a zygote" || fail "the first pane's observer comes from a zygote"
[ "$(observers | wc -l)" = 1 ] && ok "one observer for one pane" || fail "one observer for one pane"
blk=$(sed -n 's/^SigBlk:[[:space:]]*//p' /proc/"$z"/status)
[ $((0x$blk & 0x4003)) = $((0x4003)) ] && ok "the zygote blocks the signals (SIGHUP, SIGINT, SIGTERM...)" ||
	fail "the zygote blocks the signals (SigBlk $blk)"
[ "$(ls /proc/"$z"/fd | wc -l)" -le 5 ] && ok "the zygote holds only its socket, its signalfd and /dev/null" ||
	{ fail "the zygote holds only its socket, its signalfd and /dev/null"; ls -l /proc/"$z"/fd | sed 's/^/#   /'; }

# A pane's script: two creations its policy decides, then, once told
# (a file made from outside), one more creation, its status on the screen
# (each in a subshell: a failed redirection ends the shell that made it).
pane() { # pane NAME
	echo "(: >$WS/$1.p1); (: >$WS/$1.p2); while [ ! -e $WS/go-$1 ]; do sleep 0.1; done;" \
		"(: >$WS/$1-after); echo $1-TRIED-\$?; sleep 600"
}
mkdir -p "$HOME/.sandmux"
echo '{"profiles": {"p1": {"extends": "workspace", "deny": ["**/*.p1"]},
	"p2": {"extends": "workspace", "deny": ["**/*.p2"]}}}' >"$HOME/.sandmux/sandbox.json"
before=$(observers)
a=$(m_sandmux new --sandbox p1 --json -- sh -c "$(pane a)" | sed 's/^{"pane":\([0-9]*\).*/\1/')
t_until 10 test -e "$WS/a.p2" || fail "pane a ran"
oa=$(observers | grep -vxF "$before")
before=$(observers)
b=$(m_sandmux new --sandbox p2 --json -- sh -c "$(pane b)" | sed 's/^{"pane":\([0-9]*\).*/\1/')
t_until 10 test -e "$WS/b.p1" || fail "pane b ran"
ob=$(observers | grep -vxF "$before")
[ -n "$oa" ] && [ -n "$ob" ] && [ "$oa" != "$ob" ] && ok "each pane has an observer of its own" ||
	fail "each pane has an observer of its own (a: $oa, b: $ob)"

fds=$(ls -l /proc/"$oa"/fd 2>/dev/null)
[ "$(echo "$fds" | grep -c 'socket:')" = 1 ] && echo "$fds" | grep -q 'seccomp' &&
	! echo "$fds" | grep -q 'memfd\|/dev/pts\|ptmx' && ok "an observer holds its listener and one socket, no terminal" ||
	{ fail "an observer holds its listener and one socket, no terminal"; echo "$fds" | sed 's/^/#   /'; }
grep -q "^PPid:[[:space:]]*$z\$" /proc/"$oa"/status && ok "the observer is the zygote's child" || fail "the observer is the zygote's child"

# each pane decided by its own policy (seen from outside)
[ ! -e "$WS/a.p1" ] && [ -e "$WS/a.p2" ] && ok "pane a: *.p1 refused, *.p2 made" || fail "pane a: *.p1 refused, *.p2 made"
[ -e "$WS/b.p1" ] && [ ! -e "$WS/b.p2" ] && ok "pane b: *.p2 refused, *.p1 made" || fail "pane b: *.p2 refused, *.p1 made"
# and reported to its own pane
t_until 10 grep -q "\"pane\":$a,.*a\.p1" "$LOG" && ok "a.p1's denial is pane $a's" ||
	{ fail "a.p1's denial is pane $a's"; sed 's/^/#   /' "$LOG"; }
t_until 10 grep -q "\"pane\":$b,.*b\.p2" "$LOG" && ok "b.p2's denial is pane $b's" || fail "b.p2's denial is pane $b's"
! grep -q "a\.p2\|b\.p1" "$LOG" && ok "the calls each policy allows are reported by no pane" ||
	fail "the calls each policy allows are reported by no pane"
grep "a\.p1" "$LOG" | grep -vq "\"pane\":$a," && fail "a.p1 reported to another pane" || ok "a.p1 reported to no other pane"

# What an observer costs is the memory it holds alone: what it wrote
# since the zygote made it, and what the zygote wrote since (the observer
# keeps the old copy). Each has made, refused and reported calls by now:
# forked the plain way, on the zygote's stack, each held 104 KiB here
# (its stack, fork()'s bookkeeping in ld.so's and the thread's data, the
# zygote's stack, a 4 KiB read per path, a 12 KiB message buffer, stdio's
# buffers); then 56. Since every call of a profile with `deny` globs is
# resolved (a symlink to a late-made match would read it), 76 as root:
# its stack's dirty pages went from 24 to 44 KiB, the rest unchanged.
# (Not under ASan: its shadow and its own allocator.)
priv() { awk '/^Private_Dirty:/ { print $2 }' /proc/"$1"/smaps_rollup 2>/dev/null; }
if [ -z "$ASAN_OPTIONS" ]; then
	pa=$(priv "$oa") pb=$(priv "$ob")
	echo "# private memory: pane a's observer ${pa:-?} KiB, pane b's ${pb:-?} KiB"
	[ -n "$pa" ] && [ -n "$pb" ] && [ "$pa" -le 88 ] && [ "$pb" -le 88 ] &&
		ok "each observer holds at most 88 KiB of its own" ||
		fail "each observer holds at most 88 KiB of its own (a: $pa, b: $pb KiB)"
fi

# pane b's observer killed: its next notified call fails, pane a's works
kill -9 "$ob"
t_until 5 sh -c "! kill -0 $ob 2>/dev/null" || fail "the observer died"
touch "$WS/go-b"
m_wait main "b-TRIED-" 20 || fail "pane b tried after its observer died"
[ ! -e "$WS/b-after" ] && ok "without its observer, pane b's creation fails (seen from outside)" ||
	fail "without its observer, pane b's creation fails (seen from outside)"
touch "$WS/go-a"
t_until 10 test -e "$WS/a-after" && ok "pane a's observer still answers" || fail "pane a's observer still answers"

# the zygote killed: every observer ends with it
kill -9 "$(zygote)"
t_until 5 sh -c "! kill -0 $oa 2>/dev/null" && ok "pane a's observer ends with the zygote" ||
	fail "pane a's observer ends with the zygote"
# a new pane gets a new zygote and a working observer
m_sandmux new -- sh -c ": >$WS/c-made; sleep 600" >/dev/null
t_until 10 test -e "$WS/c-made" && ok "a pane started after the zygote died gets a new one" ||
	{ fail "a pane started after the zygote died gets a new one"; tail -5 "$HOME/.sandmux/state/server.log" | sed 's/^/#   /'; }
[ -n "$(zygote)" ] && [ "$(zygote)" != "$z" ] && ok "a new zygote" || fail "a new zygote"
