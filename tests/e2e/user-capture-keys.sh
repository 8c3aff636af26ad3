#!/bin/sh
# Capture mode's review by key, as root and as an unprivileged user: in
# the denials pane, c lists the active pane's captured changes while its
# command still runs, d shows the diff of a text file against the host,
# Enter applies exactly the selected change, X discards the rest, both
# once the command has ended (refused while it runs: it could still
# change what the person saw). Checked on the host.
. "$TESTS/e2e/mux.lib"
mkdir -p "$M_HOME/.sandmux"
echo '{"outsideWrites": "capture"}' >"$M_HOME/.sandmux/sandbox.json"
a="$M_HOME/cap-a" b="$M_HOME/cap-b" old="$M_HOME/existing.txt"
printf 'line one\n' >"$old"
m_start
m_sandmux new -n cap -- sh -c "echo AAA > '$a'; echo BBB > '$b'; echo NEWLINE >> '$old'; echo WROTE; read x" >/dev/null
m_expect "keys: the command wrote and waits" "WROTE"
m_keys C-b D
m_expect "keys: the denials pane offers the captured changes" "c: captured changes"
m_keys c
m_expect "keys: the running pane's changes are listed live" "3 captured changes (running: live)"
m_expect "keys: the list names each path" "create  $b"
m_expect "keys: the changed host file is listed as a write" "write   $old"
m_keys Down Down d
m_expect "keys: d shows the diff against the host" "+NEWLINE"
m_expect "keys: with the host's line as context" " line one"
m_keys d Up Up Enter
m_expect "keys: Enter is refused while the command runs" "in use: its sandbox still runs"
refuse "keys: nothing reached the host while it runs" test -e "$a"
m_keys X
m_expect "keys: discard is refused while it runs too" "in use: its sandbox still runs (apply or discard"
m_keys q
m_type ""
m_expect "keys: the command ended; its changes stay" "captured 3"
m_keys C-b D
m_expect "keys: the denials pane again" "c: captured changes"
m_keys c
m_expect "keys: the ended pane's changes" "3 captured changes ·"
m_keys Enter
m_expect "keys: Enter applies the selected change" "applied create  $a"
same "keys: exactly that file reached the host" "$(cat "$a" 2>/dev/null)" "AAA"
refuse "keys: the others did not" test -e "$b"
same "keys: the host's existing file is unchanged" "$(cat "$old")" "line one"
m_keys X
m_expect "keys: X discards the layer" "captured changes discarded"
refuse "keys: the discarded file never reached the host" test -e "$b"
same "keys: the existing file is still the host's" "$(cat "$old")" "line one"
same "keys: the applied one stays" "$(cat "$a" 2>/dev/null)" "AAA"
same "keys: the pane's layer is gone" "$(ls -d "$M_HOME"/.sandmux/state/capture/*/pane-2-* 2>/dev/null)" ""
exit $T_FAILED
