#!/bin/sh
# The command table's front ends: one command given as a key, typed at
# the `:` prompt with its words, and from the command line; an unknown or
# malformed one said in the status bar; `sandmux list-commands` lists
# every command with the front ends that take it.
. "$TESTS/e2e/mux.lib"

# the config's "bind" is checked against the table (through the server's
# hook): a name that is no command is said when a client attaches
mkdir -p "$HOME/.sandmux"
echo '{"bind": {"v": "no-such-command"}}' >"$HOME/.sandmux/sandmux.json"
m_start 120 40
m_expect "a bind to no command is refused, named" 'v: not a command'
# a key and the prompt run the same entry
m_keys C-b %
m_wait main ' 2: ' || fail "prefix % split the pane"
m_keys C-b :
m_type 'rename-window two words'
m_expect "the : prompt passes a command its words" '0:two words*'
m_keys C-b :
m_type 'new-pane -n fromprompt -- sh'
m_expect "the : prompt runs a command-line verb (new-pane with its options)" 'fromprompt'
m_keys C-b :
m_type 'zoom --nope'
m_expect "a malformed command is said in the status bar" 'unknown option --nope'
m_keys C-b :
m_type 'no-such-command'
m_expect "an unknown one too" 'unknown command: no-such-command'
m_keys C-b ,
m_expect "prefix , asks for the name" "rename window:"
m_type 'renamed'
m_expect "prefix , renames through the same command" '0:renamed*'

out=$(m_sandmux list-commands)
case "$out" in *"new-pane "*"cli,ctl"*) ok "list-commands lists new-pane for the CLI and ctl" ;; *) fail "list-commands lists new-pane"; echo "$out" | sed 's/^/#   /' ;; esac
case "$out" in *"split-h "*"%"*"key,prompt"*) ok "... and split-h with its key" ;; *) fail "... and split-h with its key" ;; esac
n=$(echo "$out" | wc -l)
[ "$n" -gt 30 ] && ok "every command is listed ($n)" || fail "every command is listed ($n)"
m_sandmux tiled && ok "sandmux tiled runs the key's command from the command line" || fail "sandmux tiled"
err=$(m_sandmux new -n x ls 2>&1); rc=$?
same "sandmux new without -- is refused, exit 2" "$rc" "2"
case "$err" in *"unknown option ls"*) ok "... naming the word" ;; *) fail "... naming the word: $err" ;; esac
m_sandmux --help | grep -q '^       sandmux new \[-t SESSION\]' && ok "the usage lists the table's CLI commands" || fail "the usage lists the table's CLI commands"
exit $T_FAILED
