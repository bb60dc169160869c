#!/usr/bin/env bash
# Set up (first run only) and play: for now a full game between computer players.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh
exec .venv/bin/pinochle demo "$@"
