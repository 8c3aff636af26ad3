#!/bin/sh
# Landlock's audit records as the denial channel, chosen with "denials":
# "audit" in sandmux.json. Writes Landlock refuses (to
# /proc/sys/kernel/hostname: the sandbox's /proc is a writable mount, so
# no read-only mount answers first) without O_CREAT:
# - without the setting nothing changes, even as root with auditing on:
#   the observer is notified of every call and reports each, and a write
#   to an existing file and a removal under a read-only mount (which the
#   kernel refuses with EROFS before Landlock, leaving no record) are
#   reported too;
# - with it, where the records cannot be read (the unprivileged user: no
#   CAP_AUDIT_READ; root with auditing off) nothing changes either;
# - with it, as root with auditing on (turned on here with AUDIT_SET, and
#   back to what it was at the end), each is reported once, from its
#   record (layer "landlock"): the observer is notified of each (a
#   protected file made after launch has only it against it) and leaves
#   it to Landlock; doctor says which channel is in use and what the
#   records cost.
. "$TESTS/sandbox/common.inc"
# A HOME of its own: its sandmux.json chooses the channel.
h=$(mktemp -d "${HOME:-/root}/.sandmux-audit.XXXXXX") || exit 1
T_CLEAN="$T_CLEAN $h"
export HOME="$h"
mkdir -p "$HOME/.sandmux" "$HOME/probe" && chmod 777 "$HOME/probe"
cfg="$HOME/.sandmux/sandmux.json"
choose() { echo '{"denials": "audit"}' >"$cfg"; }
rep="$ws/.t/report.json"
log="$HOME/.sandmux/state/denials.jsonl"
target=/proc/sys/kernel/hostname
flat() { tr -d '\t\n' <"$1"; }
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
# 50 opens for writing, each refused by Landlock (no O_CREAT: the
# observer leaves them to the records when those are read)
cat >"$ws/.t/w.py" <<PY
import os
for i in range(50):
    try: os.close(os.open("$target", os.O_WRONLY))
    except OSError: pass
PY
before=$(cat "$target")
writes() { sbx --report "$rep" -- "$py" .t/w.py 2>/dev/null; }
sug="\"suggest\":{\"additionalReadwritePaths\":[\"$target\"]}"
notified() { flat "$rep" | sed -n 's/.*"notified":\([0-9]*\).*/\1/p'; }

# A write to an existing file (an open for writing) and a removal
# outside the write roots:
# under the read-only mount the kernel refuses both (EROFS) before
# Landlock, so only the observer can report them.
erofs() {
	echo keep >"$HOME/probe/existing" && chmod 666 "$HOME/probe/existing"
	# (no O_CREAT: a shell's >> would be a creation, which stays notified)
	sbx --report "$rep" -- sh -c "$py -c 'import os; os.open(\"$HOME/probe/existing\", os.O_WRONLY)'; rm -f '$HOME/probe/existing'" 2>/dev/null
	same "$1: the existing file is untouched" "$(cat "$HOME/probe/existing")" "keep"
}
erofs_reported() {
	erofs "$1"
	r=$(flat "$rep")
	contains "$1: the write is reported" "$r" "\"op\":\"write\",\"target\":\"$HOME/probe/existing\""
	contains "$1: the removal is reported" "$r" "\"op\":\"remove\",\"target\":\"$HOME/probe/existing\""
}

# The observer's channel: every call notified, each denial reported by it.
observer_half() { # WHY: the reason the report gives for not reading records
	writes
	r=$(flat "$rep")
	contains "$1: the observer reports the denials" "$r" '"denials_channel":"observer"'
	contains "$1: and says why not the records" "$r" "\"audit_unused\":\"$2"
	contains "$1: each write reported by the observer" "$r" \
		"\"op\":\"write\",\"target\":\"$target\",\"rule\":\"not under a writable path\",\"layer\":\"observer\",$sug,\"count\":50"
	n=$(notified)
	if [ "${n:-0}" -ge 50 ]; then ok "$1: every write was notified ($n)"; else fail "$1: notified $n, want >= 50"; fi
}

if [ "$(id -u)" -ne 0 ]; then
	observer_half "unprivileged, not chosen" "not chosen"
	choose
	observer_half "unprivileged, chosen" "the audit log cannot be read (Operation not permitted: it needs CAP_AUDIT_READ)"
	erofs_reported "unprivileged, chosen"
	out=$("$SANDMUX" doctor 2>&1)
	contains "doctor: the observer, and why not the records" "$out" "\"denials\": \"audit\" is set in $cfg, but Landlock's audit records cannot"
	echo "ok - # skip the audit channel itself: needs root (CAP_AUDIT_READ and CAP_AUDIT_CONTROL to turn auditing on)"
	same "the host's hostname is unchanged" "$(cat "$target")" "$before"
	exit $T_FAILED
fi

old=$(python3 "$TESTS/sandbox/audit-set.py") || { echo "ok - # skip: cannot read the audit switch here"; exit 0; }
trap 't_cleanup; python3 "$TESTS/sandbox/audit-set.py" "$old" >/dev/null' EXIT
python3 "$TESTS/sandbox/audit-set.py" 0 >/dev/null
choose
observer_half "root, auditing off, chosen" "auditing is off (auditctl -e 1 turns it on; sandmux never does)"

python3 "$TESTS/sandbox/audit-set.py" 1 >/dev/null || { fail "turn auditing on"; exit 1; }
rm -f "$cfg"
observer_half "root, auditing on, not chosen" "not chosen"
erofs_reported "root, auditing on, not chosen"
out=$("$SANDMUX" doctor 2>&1)
contains "doctor, not chosen: the observer is in use" "$out" "denials:         reported by the seccomp observer"
contains "doctor, not chosen: how to choose the records, and their cost" "$out" \
	"Landlock's audit records can be read here: \"denials\": \"audit\" in $cfg"
contains "doctor, not chosen: what they cost" "$out" "outside the writable paths are then refused without a denial"

echo '{"denials": "records"}' >"$cfg"
out=$(sbx -- true 2>&1)
contains "a bad value: one line naming file, field, position" "$out" \
	"sandmux run: $cfg:1:13: denials: want \"observer\" (the default) or \"audit\""
choose
out=$("$SANDMUX" doctor 2>&1)
contains "doctor, chosen: the records are in use" "$out" "denials:         Landlock's audit records (\"denials\": \"audit\" in $cfg)"
contains "doctor, chosen: and their cost" "$out" "refused without a denial (no prompt, no count)"
# the cost, as documented: the EROFS refusals are reported by nobody
erofs "root, auditing on, chosen"
r=$(flat "$rep")
contains "root, auditing on, chosen: the records are the channel" "$r" '"denials_channel":"audit"'
case "$r" in *"\"target\":\"$HOME/probe/existing\""*) fail "root, auditing on, chosen: an EROFS refusal was reported (README's cost is out of date)" ;;
*) ok "root, auditing on, chosen: the EROFS refusals go unreported, as documented" ;; esac
# A protected file the host makes after launch (git init beside a running
# agent) has no bind-over and Landlock lets the workspace be written:
# with the records too, the observer sees the write and refuses it.
(cd "$ws" && rm -rf .git .t/late-started)
(cd "$ws" && sbx -- sh -c ': >.t/late-started; i=0; while [ ! -f .git/config ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	[ -f .git/config ] && echo seen-late
	echo "[core] fsmonitor = planted" | dd conv=nocreat,notrunc oflag=append of=.git/config 2>/dev/null || echo write-refused') >"$ws/.t/late.out" 2>&1 &
late=$!
i=0; while [ ! -e "$ws/.t/late-started" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
mkdir "$ws/.git" && echo '[core]' >"$ws/.git/config.tmp" && mv "$ws/.git/config.tmp" "$ws/.git/config"
wait $late
out=$(cat "$ws/.t/late.out")
contains "root, auditing on, chosen: the sandbox saw the protected file made after launch" "$out" "seen-late"
contains "root, auditing on, chosen: its write to it is refused" "$out" "write-refused"
same "root, auditing on, chosen: the protected file is unchanged on the host" "$(cat "$ws/.git/config")" "[core]"
rm -rf "$ws/.git"
writes
r=$(flat "$rep")
python3 "$TESTS/sandbox/audit-set.py" "$old" >/dev/null
same "auditing is back to what it was" "$(python3 "$TESTS/sandbox/audit-set.py")" "$old"
contains "root, auditing on: the records report the denials" "$r" '"denials_channel":"audit"'
contains "root, auditing on: each write reported once, from its record, with its rule" "$r" \
	"\"op\":\"write\",\"target\":\"$target\",\"rule\":\"not under a writable path\",\"layer\":\"landlock\",$sug,\"count\":50"
case "$r" in *'"layer":"observer"'*) fail "root, auditing on: the observer reported too" ;; *) ok "root, auditing on: the observer reported none" ;; esac
contains "root, auditing on: the records counted" "$r" '"audit":{"records":50,"reported":50'
n=$(notified)
if [ "${n:-0}" -ge 50 ] && [ "$n" -lt 100 ]; then ok "root, auditing on: each write notified once, left to Landlock ($n calls in all)"; else fail "root, auditing on: notified $n, want 50-99"; fi
line=$(grep -F "\"target\":\"$target\"" "$log" 2>/dev/null | tail -1)
contains "denials.jsonl: the record's denial" "$line" '"layer":"landlock"'
same "the host's hostname is unchanged" "$(cat "$target")" "$before"
exit $T_FAILED
