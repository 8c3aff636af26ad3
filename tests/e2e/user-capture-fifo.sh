#!/bin/sh
# Capture mode's review by key cannot be frozen or fooled, as root and as
# an unprivileged user: a FIFO the sandbox made is listed as not applied
# and its diff (d) returns at once, the server still answering; a chmod
# alone shows as a mode change in the diff; a name with terminal
# controls is shown with '?'. Checked on the host.
. "$TESTS/e2e/mux.lib"
mkdir -p "$M_HOME/.sandmux"
echo '{"outsideWrites": "capture"}' >"$M_HOME/.sandmux/sandbox.json"
f="$M_HOME/notes.txt" t="$M_HOME/tool"
echo m >"$t" && chmod 0644 "$t"
m_start
m_sandmux new -n cap -- sh -c "mkfifo '$f'; chmod 0755 '$t'; echo x > \"\$HOME/evil\$(printf '\\033[2K')name\"; echo WROTE; read x" >/dev/null
m_expect "fifo: the command wrote and waits" "WROTE"
m_type ""
m_expect "fifo: the command ended" "captured 3"
m_keys C-b D
m_expect "fifo: the denials pane" "c: captured changes"
m_keys c
m_expect "fifo: the name with controls is shown with '?'" "create  $M_HOME/evil?[2Kname"
m_expect "fifo: listed as not applied" "create  $f (fifo, not applied)"
m_keys Down d
m_expect "fifo: d answers at once" "a fifo, not read, not applied"
m_keys d Down d
m_expect "mode: d shows a chmod-only change" "$t: mode 0644 -> 0755"
m_keys A
m_expect "fifo: apply all returns" "applied 2 changes to the host, some refused"
refuse "fifo: no FIFO on the host" test -e "$f"
same "mode: the chmod reached the host" "$(stat -c %a "$t")" "755"
m_keys q
m_sandmux new -n after -- sh -c "echo SERVER-ANSWERS; read x" >/dev/null
m_expect "fifo: the server still answers" "SERVER-ANSWERS"
exit $T_FAILED
