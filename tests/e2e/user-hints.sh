#!/bin/sh
# Denial hints: a denied process gets one line on its own stderr when
# that is a terminal or a pipe, naming what was denied, the rule and the
# `sandmux request` that would ask for it; never when stderr is a file,
# and not at all with "denialHints": false.
. "$TESTS/e2e/mux.lib"

OUT="$M_HOME/outside"
mkdir -p "$OUT"
m_start

# the terminal: the hint is on the pane's screen, before touch's own error
m_type "touch $OUT/h; echo DONE-\$((6*7))"
m_expect "a denied command ends" "DONE-42"
screen=$(m_screen | tr -d '\n')
contains "the hint is on the terminal" "$screen" "sandmux: denied create ~/outside/h"
contains "it says how to ask" "$screen" "ask: sandmux request --write ~/outside/h -- touch"
[ ! -e "$OUT/h" ] && ok "the write stays denied (seen from outside)" || fail "the write stays denied (seen from outside)"
m_keys C-b a
m_wait main "o once" 5
m_keys x

# a pipe: the hint goes down the pipe with the program's own stderr
m_type "touch $OUT/p 2>&1 | cat >$WS/pipe.txt; echo PIPED-\$((6*7))"
m_expect "the piped command ends" "PIPED-42"
_i=0; while ! grep -q "sandmux: denied" "$WS/pipe.txt" 2>/dev/null && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
grep -q "sandmux: denied create ~/outside/p (.*); ask: sandmux request --write ~/outside/p -- touch" "$WS/pipe.txt" &&
	ok "the hint goes down a pipe" || { fail "the hint goes down a pipe"; sed 's/^/#   /' "$WS/pipe.txt"; }
[ "$(grep -c 'sandmux: denied' "$WS/pipe.txt")" = 1 ] && ok "one line" || fail "one line"
m_keys C-b a
m_wait main "o once" 5
m_keys x

# a file: nothing is written into it by sandmux
m_type "touch $OUT/f 2>$WS/err.txt; echo FILED-\$((6*7))"
m_expect "the command with stderr in a file ends" "FILED-42"
grep -q "touch" "$WS/err.txt" && ok "the program's own error is in the file" || fail "the program's own error is in the file"
! grep -q "sandmux:" "$WS/err.txt" && ok "no hint goes into a file" || fail "no hint goes into a file"
m_keys C-b a
m_wait main "o once" 5
m_keys x

# "denialHints": false: a new pane gets none
mkdir -p "$HOME/.sandmux" && echo '{"denialHints": false}' >"$HOME/.sandmux/sandbox.json"
m_sandmux new -n quiet -- sh -c "touch $OUT/q 2>&1 | cat >$WS/quiet.txt; echo QUIET-\$((6*7)); sleep 60" >/dev/null
m_expect "the quiet pane's command ends" "QUIET-42"
grep -q "touch" "$WS/quiet.txt" && ok "its error still shows" || fail "its error still shows"
! grep -q "sandmux:" "$WS/quiet.txt" && ok "denialHints false: no hint" || fail "denialHints false: no hint"
