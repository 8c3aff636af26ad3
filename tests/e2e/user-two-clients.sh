#!/bin/sh
# Two clients of different sizes on one session, as root and as an
# unprivileged user: a second, smaller client attaching used to crash the
# server inside ncurses (a screen taller than the session). The session
# takes the smaller size, both clients keep drawing, the larger one shows
# dots outside it, and the server survives the smaller one leaving.
. "$TESTS/e2e/mux.lib"
m_start 120 40
(cd "$WS" && $TM new -d -s small -x 80 -y 10 "$SANDMUX attach; echo SMALL-EXIT \$?; sleep 3600")
m_wait small 'running' && ok "the smaller client attaches" || fail "the smaller client attaches"
m_keys 'echo "BIG-$((6*7))"' Enter
m_wait small 'BIG-42' && ok "what is typed in the larger client shows in the smaller" || fail "what is typed in the larger client shows in the smaller"
$TM send-keys -t small 'echo "SMALL-$((5*5))"' Enter
m_expect "and the other way round" "SMALL-25"
case "$(m_screen | sed -n 20p)" in ........*) ok "the larger client dots what lies outside the session" ;; *) fail "the larger client dots what lies outside the session"; m_screen | sed 's/^/#   | /' | tail -25 ;; esac
m_sandmux list >/dev/null && ok "the server is alive" || fail "the server is alive"
$TM kill-session -t small
m_keys 'echo "ALONE-$((2*4))"' Enter
m_expect "the larger client goes on alone" "ALONE-8"
m_waitnot main '........' && ok "at its full size again" || fail "at its full size again"
grep -q 'died' "$HOME/.sandmux/state/server.log" && fail "the server log records no death" || ok "the server log records no death"
exit $T_FAILED
