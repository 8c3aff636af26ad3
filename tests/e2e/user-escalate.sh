#!/bin/sh
# Escalation as whoever runs the test (tests/run.sh runs it as root and
# again as an unprivileged user): the observer reports a denied write,
# the prompt's once re-runs the command with the write allowed, a later
# pane with the same command is denied again.
. "$TESTS/e2e/mux.lib"

OUT="$M_HOME/outside"
mkdir -p "$OUT"
m_start
m_sandmux new -n writer -- sh -c "touch '$OUT/f' && echo WROTE-\$((40+2)) || echo WRITE-FAILED; sleep 60" >/dev/null
m_keys C-b z
m_expect "the denied write fails" "WRITE-FAILED"
m_expect "the observer's denial is counted and prompts" "denials 1 · prompt!"
m_keys C-b D
m_expect "the denials pane lists it" "$OUT/f"
m_keys q
m_keys C-b a
m_expect "prefix a opens the prompt" "o once"
m_keys o
m_expect "once: the command re-runs and succeeds" "WROTE-42"
[ -e "$OUT/f" ] && ok "the file exists (seen from outside)" || fail "the file exists (seen from outside)"
m_sandmux new -n again -- sh -c "touch '$OUT/g' && echo AGAIN-OK || echo AGAIN-FAILED; sleep 60" >/dev/null
m_keys C-b z
m_expect "the same command in a new pane is denied again" "AGAIN-FAILED"
[ ! -e "$OUT/g" ] && ok "and writes nothing" || fail "and writes nothing"
