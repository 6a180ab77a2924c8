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
# Spread over workers (most of the suite waits on real processes: Redis, bots, browsers); PYTEST_WORKERS=0 runs
# it in one process.
.venv/bin/python -m pytest -n "${PYTEST_WORKERS:-2}" --durations=15 "$@"
