#!/usr/bin/env bash
# Install what is needed, then run the whole test suite: lint (ruff), types (mypy) and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
echo "==> ruff"
.venv/bin/ruff check .
echo "==> mypy"
.venv/bin/mypy fevga renderers bot
echo "==> pytest"
.venv/bin/python -m pytest "$@"
