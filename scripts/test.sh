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
# Spread over workers (most of the suite waits on real processes: Redis, bots, browsers); an idle worker steals
# queued tests (worksteal), so the long ones leave no tail. 3 workers on 2 cores were ~10 % faster, but their load
# failed the Redis failover and two-shard process tests (measured twice). PYTEST_WORKERS=0 runs it in one process.
.venv/bin/python -m pytest -n "${PYTEST_WORKERS:-2}" --dist worksteal --durations=15 "$@"
