"""``fevga-bot`` / ``python -m bot``: start every chat that has a token, or the terminal chat."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.metadata
import os
import signal
import sys
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot import event_loop
from bot.config import ConfigError, Settings, hide_url_passwords, load_settings
from bot.logging_setup import configure_logging, configure_logging_from_environment, get_logger, redact_text

if TYPE_CHECKING:
    from aiohttp import web

SHUTDOWN_SECONDS = 20.0  # a graceful stop's bound (Kubernetes' terminationGracePeriodSeconds is 30)
NO_TOKENS = """No DISCORD_TOKEN or TELEGRAM_TOKEN is set, so this is the local terminal chat.
To run the real bots, put a token in .env (see .env.example) and start fevga-bot again.
"""


async def serve(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Build the core on Redis, then run the frontends (or the terminal chat) until they stop, or until
    SIGTERM/SIGINT (or ``stop`` is set): then stop taking updates, let commands and deliveries in flight
    finish (bounded by ``SHUTDOWN_SECONDS``; the health endpoint says not-ready meanwhile), close cleanly and
    return. The board renderer warms up meanwhile in a worker thread (:func:`warm_up_renderers`)."""
    from bot.chat.core import BotCore

    log = get_logger("fevga.main")
    stop = stop or asyncio.Event()  # set by SIGTERM/SIGINT, from now on (even while the core is being built)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    warm_up_renderers()  # in a worker thread: nothing waits for it
    core = await BotCore.create_from_settings(settings)
    try:
        frontends: list[Coroutine[Any, Any, None]] = []
        if settings.has_discord:
            from bot.discord import run_discord

            frontends.append(run_discord(core, settings))
        if settings.has_telegram:
            from bot.telegram import run_telegram

            frontends.append(run_telegram(core, settings))
        health: web.AppRunner | None = None
        if settings.health_port:  # bound before the chats start: a busy port stops start-up (OSError)
            from bot.health import start_health

            health = await start_health(core, settings.health_port)
        if settings.web_port and frontends:
            from bot.web.server import config_from, serve_web

            frontends.append(serve_web(core, config_from(settings), settings.web_port))
        try:
            if frontends:
                core.text_boards = False  # the chats and the web page show the picture, never the text board
                log.info("starting", discord=settings.has_discord, telegram=settings.has_telegram)
                await run_until_signal(core, frontends, stop)
            else:
                loop.remove_signal_handler(signal.SIGINT)  # Ctrl-C at the prompt: KeyboardInterrupt, at once
                loop.add_signal_handler(signal.SIGHUP, stop.set)  # the terminal closed (an ssh drop): as SIGTERM
                try:
                    await run_terminal(core, settings, stop)  # until it ends, or SIGTERM/SIGHUP sets ``stop``
                finally:
                    loop.remove_signal_handler(signal.SIGTERM)
                    loop.remove_signal_handler(signal.SIGHUP)
        finally:
            if health is not None:
                await health.cleanup()
    finally:
        await core.close()


async def run_terminal(core: Any, settings: Settings, stop: asyncio.Event) -> None:
    """The terminal chat until it ends (end of input, ``quit``) or ``stop`` is set (SIGTERM: ``kill``, ``timeout``,
    a container stop): then it is cancelled (its board page closed), and ``serve`` closes the core in order (the
    private redis-server stopped with SIGTERM: its AOF flushed) and the process exits 0, without a traceback."""
    from bot.console import run_console

    with logs_to_file(settings) as log_path:  # the screen is the chat's: no log lines, no tracebacks
        print(NO_TOKENS + f"The bot's log: {log_path}\n")
        chat = asyncio.create_task(run_console(core, board_dir=settings.fevga_data_dir / "boards",
                                               ai_level=settings.fevga_ai_level, settings=settings))
        stopper = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait([chat, stopper], return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopper.cancel()
            if not chat.done():
                chat.cancel()
                await asyncio.gather(chat, return_exceptions=True)
                print(flush=True)  # the prompt's line ended: the shell's prompt starts on a line of its own
                get_logger("fevga.main").info("stopping", reason="signal", chat="terminal")
        if not chat.cancelled() and chat.exception() is not None:
            raise chat.exception()  # type: ignore[misc]


@contextlib.contextmanager
def logs_to_file(settings: Settings) -> Iterator[Path]:
    """While the terminal chat runs, the log goes to ``<FEVGA_DATA_DIR>/fevga.log`` (appended), then back to
    standard error: a store that is down is told in the chat's own words, not by tracebacks across it."""
    path = settings.fevga_data_dir / "fevga.log"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        stream = path.open("a", encoding="utf-8", buffering=1)
    except OSError:  # an unwritable data directory: the log stays on standard error
        yield Path("<standard error>")
        return
    with stream:
        configure_logging(settings.log_level, settings.log_format, stream=stream, secrets=settings.secret_values())
        try:
            yield path
        finally:
            configure_logging(settings.log_level, settings.log_format, secrets=settings.secret_values())


def warm_up_renderers() -> asyncio.Future[None]:
    """Build the board picture's cached layers and read the fallback fonts' coverage (``renderers.warm_up``,
    about a second) in a worker thread, so that neither the first board nor the first rare-script name costs
    a handler that time; every chat's start path comes through here, and none waits for it."""

    def warm() -> None:
        import renderers

        renderers.warm_up()

    future = asyncio.get_running_loop().run_in_executor(None, warm)
    future.add_done_callback(_warmed)
    return future


def _warmed(future: asyncio.Future[None]) -> None:
    """Log a failed warm-up (the first board then simply builds the layers itself)."""
    if not future.cancelled() and future.exception() is not None:
        get_logger("fevga.main").warning("renderer_warm_up_failed", error=repr(future.exception()))


async def run_until_signal(core: Any, frontends: list[Coroutine[Any, Any, None]], stop: asyncio.Event) -> None:
    """Run the frontends until one ends (its error propagates) or ``stop`` is set (SIGTERM/SIGINT): then a
    graceful stop."""
    log = get_logger("fevga.main")
    loop = asyncio.get_running_loop()
    tasks = [asyncio.create_task(job) for job in frontends]
    stopper = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait([*tasks, stopper], return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            log.info("stopping", reason="signal", grace_seconds=SHUTDOWN_SECONDS)
            core.draining = True
        for task in tasks:
            task.cancel()  # each frontend's own clean-up runs: no new updates, in-flight work finishes
        _, late = await asyncio.wait(tasks, timeout=SHUTDOWN_SECONDS)
        if late:
            log.warning("stopped_with_work_left", tasks=len(late))
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is not None and not stop.is_set():
                raise task.exception()  # type: ignore[misc]
    finally:
        stopper.cancel()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)


def report_start_failure(exc: BaseException, settings: Settings | None) -> int:
    """Log why the process stops as one line, ``fevga-bot: could not start: <reason>``, through the redacting
    logging setup (JSON under LOG_FORMAT=json; the traceback only at DEBUG), and return the exit code 1."""
    reason = failure_reason(exc, settings)
    log = get_logger("fevga.main")
    log.debug("start-up failed", exc_info=exc)
    log.error(f"fevga-bot: could not start: {reason}", error=_class_name(type(exc)))
    return 1


def _class_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _is(exc: BaseException, *names: str) -> bool:
    """True when ``exc`` is an instance of a class named (module.qualname) in ``names``, matched by name so
    that redis, telegram and discord are not imported just to recognise their errors."""
    return any(_class_name(cls) in names for cls in type(exc).__mro__)


def _redis_target(settings: Settings | None) -> str:
    """'Redis at <REDIS_URL without its password>', or the private redis-server when REDIS_URL is unset."""
    if settings is None or not settings.redis_url:
        return "the local redis-server"
    return f"Redis at {hide_url_passwords(settings.redis_url)}"


# (exception classes by module.qualname, the reason: {redis} the Redis meant, {text} the redacted message);
# a rejected token's own text is never used, since it holds the token
REASONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("redis.exceptions.AuthenticationError", "redis.exceptions.AuthenticationWrongNumberOfArgsError"),
     "{redis} refused the credentials in REDIS_URL: {text}"),
    (("redis.exceptions.ConnectionError", "redis.exceptions.TimeoutError"), "{redis} is unreachable: {text}"),
    (("redis.exceptions.MovedError",), "{redis} is a node of a Redis Cluster (it answered MOVED {text}): write "
     "REDIS_URL as redis+cluster://host:port,host:port (rediss+cluster:// with TLS)"),
    (("redis.exceptions.ResponseError",), "{redis} answered with an error (check REDIS_URL): {text}"),
    (("redis.exceptions.InvalidResponse",),
     "{redis} gave an answer that is not Redis's (is REDIS_URL a Redis server?): {text}"),
    (("redis.exceptions.RedisError",), "{redis} failed: {text}"),
    (("telegram.error.InvalidToken",), "the Telegram Bot API rejected TELEGRAM_TOKEN (copy it again from @BotFather)"),
    (("telegram.error.NetworkError",), "the Telegram Bot API is unreachable (TELEGRAM_API_BASE_URL): {text}"),
    (("telegram.error.TelegramError",), "Telegram: {text}"),
    (("discord.errors.LoginFailure",), "Discord rejected DISCORD_TOKEN (copy it again from the Developer Portal)"),
    (("discord.errors.DiscordException",), "Discord: {text}"),
)


def failure_reason(exc: BaseException, settings: Settings | None) -> str:
    """A short reason for a start-up failure, naming what failed (Redis, a token, a port, .env) without any
    secret: exception texts pass the log redaction too, and a rejected token's text is never used."""
    text = redact_text(hide_url_passwords(str(exc).strip())) or type(exc).__name__
    if isinstance(exc, ConfigError):  # every bad variable, each named with what it expects, on one line
        problems = "; ".join(" ".join(problem.splitlines()) for problem in exc.problems)
        return "invalid configuration: " + redact_text(hide_url_passwords(problems))
    if isinstance(exc, UnicodeDecodeError):
        return f".env is not UTF-8 text ({exc.reason} at byte {exc.start}): save it as UTF-8"
    for names, reason in REASONS:  # the first class that matches, most specific first
        if _is(exc, *names):
            return reason.format(redis=_redis_target(settings), text=text)
    if isinstance(exc, OSError) and not _is(exc, "builtins.ConnectionError") and exc.filename is not None:
        return f"could not read {exc.filename}: {exc.strerror or text}"
    return text


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """``--help`` and ``--version`` (each exits at once, nothing started); any other argument is a usage error
    (exit 2): the bot is configured by environment variables and ``.env`` only."""
    parser = argparse.ArgumentParser(
        prog="fevga-bot",
        description="fevga-bot: play tavli (Fevga, Portes, Plakoto) on Discord and Telegram, or in this terminal "
        "when no token is set. Games, players and ratings live in Redis.",
        epilog="Configuration comes from environment variables and a .env file in the working directory "
        "(DISCORD_TOKEN, TELEGRAM_TOKEN, REDIS_URL, ...): see .env.example and the README's Configuration "
        "section for every variable.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    return parser.parse_args(argv)


def _version() -> str:
    """The installed package's version (package metadata), or 'unknown' when run from an uninstalled tree."""
    try:
        return importlib.metadata.version("fevga-bot")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    """Read the arguments and the settings (a bad value stops here, its line naming each bad variable), then
    serve. Any failure that ends the process is one redacted log line (JSON under LOG_FORMAT=json), exit 1."""
    parse_args(sys.argv[1:] if argv is None else argv)
    # The AI's matrices are tiny: BLAS threads only cost time (numpy is imported later, with the AI).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        settings = load_settings()
    except Exception as exc:  # a bad setting (ConfigError), a .env file that is not UTF-8 or cannot be read
        configure_logging_from_environment()
        return report_start_failure(exc, None)
    configure_logging(settings.log_level, settings.log_format, secrets=settings.secret_values())
    try:
        from bot.chat import draw_pool  # Pillow and the renderers: after the settings are known to be good

        event_loop.tune_gc(settings.fevga_gc)  # start-up's objects frozen, fewer young collections (or Python's)
        event_loop.tune_threads(settings.fevga_switch_ms)  # the loop waits at most ~1 ms for the GIL
        draw_pool.set_processes(settings.fevga_draw_processes)  # 0: boards drawn in a thread
        event_loop.run(serve(settings), settings.fevga_event_loop)  # uvloop when installed (bot/event_loop.py)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # Redis unreachable or refusing us, a token rejected, a port busy, ...
        return report_start_failure(exc, settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
