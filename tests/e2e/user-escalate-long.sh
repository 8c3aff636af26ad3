#!/bin/sh
# A prompt never cuts what would re-run: a command line with a bidi
# override shows it escaped, and one longer than the pane can show is
# not offered as a re-run; the grant can still be given, and then the
# shell restarts without running that line (checked from outside).
. "$TESTS/e2e/mux.lib"

command -v bash >/dev/null || { echo "ok - # SKIP bash not installed"; exit 0; }
SHELL=$(command -v bash); export SHELL
OUT="$M_HOME/outside"
mkdir -p "$OUT"
m_start 100 16
# a right-to-left override in the line: shown as \u202e, so the line
# reads as it runs
rlo=$(printf '\342\200\256')
m_type "touch \"\$HOME/outside/bidi\" # ${rlo}fdp.sod"
m_expect "the write is denied" "Permission denied"
m_expect "a prompt is pending" "prompt!"
m_keys C-b a
m_expect "prefix a opens it" "o once"
contains "the override is shown escaped" "$(m_screen)" '# \u202efdp.sod'
m_keys x
m_waitnot main "o once" && ok "dismiss closes it" || fail "dismiss closes it"

long=$(printf '%02000d' 0)
m_type ": $long; echo RERAN >\"\$HOME/outside/long\" || echo LONG-DENIED-\$((3*3))"
m_expect "the long line's write is denied" "LONG-DENIED-9"
m_expect "its prompt is pending" "prompt!"
m_keys C-b a
m_expect "the prompt says the re-run is not offered" "re-run: not offered"
case "$(m_screen)" in *"o once"*) fail "once is not among the keys" ;; *) ok "once is not among the keys" ;; esac
m_keys o
m_expect "o says why" "does not fit in this pane"
m_keys s
# (the pane wraps that line: look at the screen's rows joined)
_i=0; while [ $_i -lt 100 ]; do
	case "$(m_screen | tr -d '\n')" in *"the shell restarts without re-running"*) break ;; esac
	sleep 0.1; _i=$((_i + 1))
done
[ $_i -lt 100 ] && ok "s grants without a re-run" || fail "s grants without a re-run"
m_type 'echo "BACK-$((4*4))"'
m_expect "the shell is back" "BACK-16"
# (the grant is exactly the file, which sandmux makes empty at approval)
! grep -q RERAN "$OUT/long" 2>/dev/null && ok "the long line did not re-run (seen from outside)" || fail "the long line did not re-run (seen from outside)"
m_type 'echo LATER >"$HOME/outside/long" && echo "AFTER-$((5*5))"'
m_expect "the grant holds for the pane" "AFTER-25"
grep -q LATER "$OUT/long" 2>/dev/null && ok "the later write happened (seen from outside)" || fail "the later write happened (seen from outside)"
