#!/bin/sh
# Exact grants: a denied new file in $HOME is suggested as exactly that
# file, a denied new directory as exactly that directory (never $HOME);
# approving makes it (as the person, with the mode asked for) so that
# Landlock can grant exactly it (escalate-always.sh and escalate-shell.sh
# check that a neighbouring file stays denied).
. "$TESTS/e2e/mux.lib"

mkdir -p "$HOME/.ssh"
m_start
m_sandmux new -n file -- sh -c "echo data > '$HOME/newfile' && echo FILE-WROTE-\$((40+2)) || echo FILE-DENIED; sleep 60" >/dev/null
m_keys C-b z
m_expect "the new file in HOME is denied" "FILE-DENIED"
m_keys C-b a
m_expect "its prompt opens" "o once"
contains "the suggestion is exactly the file" "$(m_screen)" "additionalReadwritePaths += $HOME/newfile"
if m_screen | grep -Eq "\+= $HOME *\$"; then fail "never all of HOME"; else ok "never all of HOME"; fi
m_keys +
m_expect "+ widens by one level, and says it is all of HOME" "+= $HOME   (widened 1 level: all of your home"
m_keys -
m_expect "- narrows back to the file" "+= $HOME/newfile"
m_keys o
m_expect "once: the re-run writes it" "FILE-WROTE-42"
check "the file holds what the command wrote (outside)" grep -qx data "$HOME/newfile"
m_waitnot main "prompt!" 3

m_sandmux new -n dir -- sh -c "mkdir -p '$HOME/newdir/sub' && echo in > '$HOME/newdir/sub/f' && echo DIR-MADE-\$((50+5)) || echo DIR-DENIED; sleep 60" >/dev/null
m_keys C-b z
m_expect "the new directory in HOME is denied" "DIR-DENIED"
m_keys C-b a
m_expect "its prompt opens" "o once"
contains "the suggestion is exactly the directory" "$(m_screen)" "additionalReadwritePaths += $HOME/newdir"
m_keys o
m_expect "once: the re-run makes its tree" "DIR-MADE-55"
check "the directory was made (outside)" test -d "$HOME/newdir"
check "with what the command put in it (outside)" grep -qx in "$HOME/newdir/sub/f"
same "made with the mode mkdir asked for, less the umask" "$(stat -c %a "$HOME/newdir")" "$(umask_dir=$(umask); printf '%o' $((0777 & ~0$umask_dir)))"
exit $T_FAILED
