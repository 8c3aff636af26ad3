#!/bin/sh
# Landlock's audit records as the denial channel. Writes Landlock refuses
# (to /proc/sys/kernel/hostname: the sandbox's /proc is a writable mount,
# so no read-only mount answers first) without O_CREAT:
# - where the records cannot be read (the unprivileged user: no
#   CAP_AUDIT_READ; root with auditing off) nothing changes: the observer
#   is notified of every call and reports each;
# - as root with auditing on (turned on here with AUDIT_SET, and back to
#   what it was at the end), each is reported once, from its record
#   (layer "landlock"), and none is notified.
. "$TESTS/sandbox/common.inc"
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
	observer_half "unprivileged" "the audit log cannot be read (Operation not permitted: it needs CAP_AUDIT_READ)"
	echo "ok - # skip the audit channel itself: needs root (CAP_AUDIT_READ and CAP_AUDIT_CONTROL to turn auditing on)"
	same "the host's hostname is unchanged" "$(cat "$target")" "$before"
	exit $T_FAILED
fi

old=$(python3 "$TESTS/sandbox/audit-set.py") || { echo "ok - # skip: cannot read the audit switch here"; exit 0; }
trap 't_cleanup; python3 "$TESTS/sandbox/audit-set.py" "$old" >/dev/null' EXIT
python3 "$TESTS/sandbox/audit-set.py" 0 >/dev/null
observer_half "root, auditing off" "auditing is off (auditctl -e 1 turns it on; sandmux never does)"

python3 "$TESTS/sandbox/audit-set.py" 1 >/dev/null || { fail "turn auditing on"; exit 1; }
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
if [ "${n:-99}" -lt 50 ]; then ok "root, auditing on: no write was notified ($n calls in all: exec)"; else fail "root, auditing on: notified $n"; fi
line=$(grep -F "\"target\":\"$target\"" "$log" 2>/dev/null | tail -1)
contains "denials.jsonl: the record's denial" "$line" '"layer":"landlock"'
same "the host's hostname is unchanged" "$(cat "$target")" "$before"
exit $T_FAILED
