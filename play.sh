#!/usr/bin/env bash
# Set up (installs only when needed: scripts/setup.sh) and play: you at the full-screen table against computer players.
# Arguments go to 'pinochle play' (e.g. --level pro, --rules playingcards, --resume).
# Without a terminal on stdin (scripts, pipes) the plain line mode is used instead.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh
if [ -t 0 ] && [ -t 1 ]; then
    exec .venv/bin/pinochle play "$@"
fi
exec .venv/bin/pinochle play --plain "$@"
