#!/bin/sh
# tests/e2e/escalate-shell.sh with zsh (integration through ZDOTDIR).
ESC_SHELL=zsh
. "$TESTS/e2e/escalate-shell.sh"
