#!/usr/bin/env bash
# Install what is needed, then start the bot: every chat that has a token in the environment or .env,
# or the terminal chat when there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/fevga-bot "$@"
