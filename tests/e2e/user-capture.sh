#!/bin/sh
# Capture mode in a pane, as root and as an unprivileged user: a write
# outside the workspace is seen inside, absent on the host, counted in the
# pane's title, logged as an event with op "captured" (in the denials pane
# too) as it is made, while the command runs, and reviewable with
# `sandmux captured`.
. "$TESTS/e2e/mux.lib"
mkdir -p "$M_HOME/.sandmux"
echo '{"outsideWrites": "capture"}' >"$M_HOME/.sandmux/sandbox.json"
out="$M_HOME/outside-x"
m_start
m_sandmux new -n cap -- sh -c "echo CAPTURED-INSIDE > '$out'; cat '$out'; exit 3" >/dev/null
m_expect "capture: the pane sees its own write" "CAPTURED-INSIDE"
m_expect "capture: the title counts it" "captured 1"
refuse "capture: the write is absent on the host" test -e "$out"
m_keys C-b D
m_expect "capture: the denials pane opens" "sandmux denials"
row=$(m_screen | grep "$out" | head -1)
contains "capture: the denials pane lists the captured write" "$row" "captured"
m_keys q
log="$M_HOME/.sandmux/state/denials.jsonl"
contains "capture: logged as a captured event" "$(cat "$log" 2>/dev/null)" "\"op\":\"captured\""
contains "capture: the event names the path" "$(cat "$log" 2>/dev/null)" "$out"
contains "capture: listed by sandmux captured" "$(m_sandmux captured list 2>&1)" "create  $out"
m_sandmux captured discard >/dev/null
refuse "capture: discarded, nothing applied" test -e "$out"

# told as they are made: counted and listed while the command still runs
live="$M_HOME/outside-live"
m_sandmux new -n live -- sh -c "echo A > '$live-a'; echo B > '$live-b'; echo WROTE-LIVE; exec sleep 600" >/dev/null
m_expect "capture: the running pane wrote" "WROTE-LIVE"
m_expect "capture: counted while the command runs" "captured 2"
contains "capture: logged while the command runs" "$(cat "$log" 2>/dev/null)" "$live-b"
m_keys C-b D
m_expect "capture: the denials pane opens again" "sandmux denials"
contains "capture: listed while the command runs" "$(m_screen | grep "$live-a" | head -1)" "captured"
m_keys q
refuse "capture: the running pane's writes are absent on the host" test -e "$live-a"
exit $T_FAILED
