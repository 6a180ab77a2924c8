"""``fevga-bot`` / ``python -m bot``: start every chat that has a token, or the terminal chat."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Coroutine
from typing import Any

from bot.config import ConfigError, Settings, load_settings
from bot.logging_setup import configure_logging, get_logger

NO_TOKENS = """No DISCORD_TOKEN or TELEGRAM_TOKEN is set, so this is the local terminal chat.
To run the real bots, put a token in .env (see .env.example) and start fevga-bot again.
"""


async def serve(settings: Settings) -> None:
    """Build the core on Redis, then run the frontends (or the terminal chat) until they stop."""
    from bot.core import BotCore

    log = get_logger("fevga.main")
    core = await BotCore.create_from_settings(settings)
    try:
        jobs: list[Coroutine[Any, Any, None]] = []
        if settings.has_discord:
            from bot.discord import run_discord

            jobs.append(run_discord(core, settings))
        if settings.has_telegram:
            from bot.telegram import run_telegram

            jobs.append(run_telegram(core, settings))
        if settings.health_port:
            from bot.health import serve_health

            jobs.append(serve_health(core, settings.health_port))
        if settings.has_discord or settings.has_telegram:
            log.info("starting", discord=settings.has_discord, telegram=settings.has_telegram)
            await asyncio.gather(*jobs)
        else:
            from bot.console import run_console

            print(NO_TOKENS)
            background = [asyncio.ensure_future(job) for job in jobs]
            try:
                await run_console(core, board_dir=settings.fevga_data_dir / "boards", ai_level=settings.fevga_ai_level)
            finally:
                for task in background:
                    task.cancel()
    finally:
        await core.close()


def main(argv: list[str] | None = None) -> int:
    """Load settings (a bad value stops here with a message naming the variable), then serve."""
    # The AI's matrices are tiny: BLAS threads only cost time (numpy is imported later, with the AI).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"fevga-bot: invalid configuration\n{exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings.log_format, secrets=settings.secret_values())
    try:
        asyncio.run(serve(settings))
    except KeyboardInterrupt:
        return 130
    except (RuntimeError, OSError, ConnectionError) as exc:  # e.g. Redis unreachable, redis-server failed
        get_logger("fevga.main").debug("start-up failed", exc_info=True)
        print(f"fevga-bot: could not start: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
