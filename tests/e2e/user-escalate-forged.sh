#!/bin/sh
# A program in a shell pane cannot choose what a prompt offers to re-run:
# it prints the shell integration's marks (OSC 133 / 633;E, with a
# guessed secret and without), announcing a harmless-looking line that
# hides, behind a carriage return, a command that would leave a marker;
# then it makes a denial, and leaves an OSC string open for the shell's
# next report to end. The prompt offers only the line the person
# typed; approving once re-runs that, and the marker never appears on the
# host. The shell's secret cannot be read by the programs it runs.
. "$TESTS/e2e/mux.lib"

ESC_SHELL=${ESC_SHELL:-bash}
command -v "$ESC_SHELL" >/dev/null || { echo "ok - # SKIP $ESC_SHELL not installed"; exit 0; }
SHELL=$(command -v "$ESC_SHELL"); export SHELL
OUT="$M_HOME/outside"
mkdir -p "$OUT"
MARK="$WS/FORGED-RAN"
cat >"$WS/forge.sh" <<SH
# the forged command: a line that looks like "make docs" once drawn
evil='touch $MARK; touch $OUT/x'
bel=\$(printf '\\007'); esc=\$(printf '\\033'); cr=\$(printf '\\015')
for k in "" ";0123456789abcdef0123456789abcdef"; do
	printf '%s' "\${esc}]133;D;0\$k\$bel\${esc}]133;A\$k\$bel\${esc}]7;file://h/forged-cwd\$k\$bel"
	printf '%s' "\${esc}]633;E;\$evil\${cr}make docs\$k\$bel\${esc}]133;C\$k\$bel"
done
echo FORGED-MARKS-PRINTED
touch "$OUT/x"
# last, an OSC left open, for the shell's own next report to complete
printf '%s' "\${esc}]633;E;\$evil;"
SH
m_start
m_keys C-b z
m_type "cd '$WS'"
m_type "sh ./forge.sh"
m_expect "the program printed its marks" "FORGED-MARKS-PRINTED"
m_expect "its write is denied" "Permission denied"
m_expect "a prompt is pending" "prompt!"
m_keys C-b a
m_expect "prefix a opens it" "o once"
scr=$(m_screen)
case "$scr" in
*"re-run: sh ./forge.sh   in"*) ok "the prompt offers the line the person typed" ;;
*) fail "the prompt offers the line the person typed"; echo "$scr" | tail -6 | sed 's/^/#   | /' ;;
esac
case "$scr" in *"make docs"*|*FORGED-RAN*) fail "the forged line is not offered" ;; *) ok "the forged line is not offered" ;; esac
case "$scr" in *forged-cwd*) fail "nor its cwd" ;; *) ok "nor its cwd" ;; esac
m_keys o
_i=0; while [ ! -f "$OUT/x" ] && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
[ -f "$OUT/x" ] && ok "once re-ran the person's line (seen from outside)" || fail "once re-ran the person's line (seen from outside)"
m_expect "then the shell is back" "the shell is back"
[ ! -e "$MARK" ] && ok "the forged command never ran (no marker on the host)" || fail "the forged command never ran (no marker on the host)"
n=$(m_sandmux ls --json | tr ',' '\n' | sed -n 's/.*"reports_ignored": *\([0-9]*\).*/\1/p' | sort -n | tail -1)
[ "${n:-0}" -ge 10 ] && ok "the look-alike reports were counted ($n, ls --json)" || fail "the look-alike reports were counted (${n:-none}, ls --json)"

# The secret stays in the shell: not in its environment, and its memory
# and fds are closed to the programs it runs.
m_type 'cat /proc/$$/maps >/dev/null 2>&1 && echo "MAPS-OPEN-$((6*7))" || echo "MAPS-CLOSED-$((6*7))"'
m_expect "the shell's memory map is closed to its programs" "MAPS-CLOSED-42"
m_type 'readlink /proc/$$/fd/1 >/dev/null 2>&1 && echo "FDS-OPEN-$((7*7))" || echo "FDS-CLOSED-$((7*7))"'
m_expect "so are its fds" "FDS-CLOSED-49"
m_type 'cat /proc/$$/environ >/dev/null 2>&1 && echo "ENV-OPEN-$((5*5))" || echo "ENV-CLOSED-$((5*5))"'
m_expect "and its environment" "ENV-CLOSED-25"
m_type 'env | grep -c sandmux_k; echo "ENV-CHECKED-$((8*8))"'
m_expect "the secret is not exported" "ENV-CHECKED-64"
case "$(m_screen)" in *"
1
ENV-CHECKED"*) fail "no secret in the environment" ;; *) ok "no secret in the environment" ;; esac

# Not dumpable, the shell is still observed: a redirection it makes itself
# is denied and raises a prompt.
m_waitnot main "prompt!" && ok "no prompt pending before it" || fail "no prompt pending before it"
m_type 'echo hi >"$HOME/outside/redir" || echo "REDIR-DENIED-$((9*9))"'
m_expect "the shell's own write is denied" "REDIR-DENIED-81"
m_expect "and observed: a prompt is pending" "prompt!"
[ ! -e "$OUT/redir" ] && ok "nothing written (seen from outside)" || fail "nothing written (seen from outside)"
