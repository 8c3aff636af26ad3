#!/bin/sh
# tests/e2e/user-escalate-forged.sh with zsh.
ESC_SHELL=zsh
. "$TESTS/e2e/user-escalate-forged.sh"
