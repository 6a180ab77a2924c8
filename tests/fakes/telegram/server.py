"""FakeTelegram: an aiohttp Bot API server on 127.0.0.1 for driving a real python-telegram-bot Application.

Start it, point PTB at ``fake.base_url`` / ``fake.base_file_url``, play the users with ``send_text`` /
``press`` and inspect what the bot sent. Long polls are released at once on stop() and when the client
disconnects; a webhook set by the bot receives queued updates automatically.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
from aiohttp import web

from ..budget import Budget
from .methods import BotApiMethods
from .objects import JSON
from .requests import ApiError, Call, read_request
from .state import CallbackQuery

T = TypeVar("T")
CONFLICT_WEBHOOK = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
)
CONFLICT_POLL = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"


async def _wait(event: asyncio.Event, timeout: float) -> None:
    """Wait for event at most timeout seconds."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout)


@dataclass
class _Injected:
    remaining: int
    error: ApiError
    delay: float = 0.0  # the request is held this long (in flight) before the error is answered


class FakeTelegram(BotApiMethods):
    """A local fake of the Telegram Bot API (see the module docstring and tests/test_fake_telegram.py)."""

    def __init__(
        self,
        token: str = "123456789:TEST-fevga-token",
        bot_username: str = "fevga_test_bot",
        bot_first_name: str = "Fevga Test Bot",
    ) -> None:
        super().__init__(token, bot_username, bot_first_name)
        self.port = 0
        self.open_polls = 0  # getUpdates requests currently held open
        self.webhook_errors: list[str] = []
        self._injected: dict[str, list[_Injected]] = {}
        self.budget: Budget | None = None  # each group's budget (enforce_budget), off by default
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self._pump: asyncio.Task[None] | None = None
        self._stopping = False
        self._poll_generation = 0
        self._in_flight = 0
        self._last_activity = time.monotonic()
        self._handlers: dict[str, Callable[[Call], Any]] = {
            name.removeprefix("api_").lower(): getattr(self, name) for name in dir(self) if name.startswith("api_")
        }

    # ---- lifecycle -------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        """Value for ApplicationBuilder().base_url(...) (PTB appends the token, then /method)."""
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        """Value for ApplicationBuilder().base_file_url(...)."""
        return f"http://127.0.0.1:{self.port}/file/bot"

    async def start(self) -> FakeTelegram:
        """Listen on a free loopback port; returns self."""
        app = web.Application(client_max_size=60 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download)
        self._runner = web.AppRunner(app, handler_cancellation=True, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._session = aiohttp.ClientSession()
        self._pump = asyncio.create_task(self._webhook_pump(), name="fake-telegram-webhook-pump")
        return self

    async def stop(self) -> None:
        """Release held long polls, stop webhook delivery and close the server."""
        self._stopping = True
        self._notify()
        if self._pump is not None:
            self._pump.cancel()
            await asyncio.gather(self._pump, return_exceptions=True)
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeTelegram:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ---- fault injection ---------------------------------------------------------------------------
    def fail_next(
        self, method: str, times: int = 1, error_code: int = 400, description: str = "Bad Request: injected",
        retry_after: float | None = None, delay: float = 0.0,
    ) -> None:  # fmt: skip
        """Make the next `times` calls of method answer this error instead of running (after holding each
        request `delay` seconds: a platform call in flight, e.g. while the bot is killed)."""
        error = ApiError(error_code, description, retry_after)
        self._injected.setdefault(method.lower(), []).append(_Injected(times, error, delay))

    def clear_failures(self, method: str | None = None) -> None:
        """Stop injecting errors (into one method, or all): the platform has recovered."""
        if method is None:
            self._injected.clear()
        else:
            self._injected.pop(method.lower(), None)

    def rate_limit(self, method: str, times: int = 1, retry_after: int = 1) -> None:
        """Make the next `times` calls of method answer 429 "Too Many Requests" with retry_after."""
        self.fail_next(method, times, 429, f"Too Many Requests: retry after {retry_after}", retry_after)

    def enforce_budget(self, limit: int = 20, window: float = 60.0) -> Budget:
        """From now on a group takes at most ``limit`` calls (sends, edits, deletions: any call naming the
        chat) in any ``window`` seconds; beyond, 429 "Too Many Requests" with a whole-second retry_after."""
        self.budget = Budget(limit, window, whole_seconds=True)
        return self.budget

    def _over_budget(self, params: JSON) -> ApiError | None:
        chat = str(params.get("chat_id", ""))
        if self.budget is None or not chat.startswith("-"):
            return None
        after = self.budget.take(chat)
        return None if after is None else ApiError(429, f"Too Many Requests: retry after {after:g}", after)

    def _take_injected(self, method: str) -> _Injected | None:
        queue = self._injected.get(method.lower())
        if not queue:
            return None
        queue[0].remaining -= 1
        injected = queue[0]
        if queue[0].remaining <= 0:
            queue.pop(0)
        return injected

    # ---- HTTP --------------------------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        name = request.match_info["method"]
        try:
            params, files = await read_request(request)
        except ValueError:
            error = ApiError(400, "Bad Request: can't parse request parameters")
            return web.json_response(error.payload(), status=400)
        handler = self._handlers.get(name.lower())
        method = handler.__name__.removeprefix("api_") if handler is not None else name
        call = Call(len(self.calls), method, params, files, request.method)
        self.calls.append(call)
        polling = method.lower() == "getupdates"
        if not polling:
            self._in_flight += 1
            self._last_activity = time.monotonic()
        try:
            injected = self._take_injected(method)
            if injected is not None:
                if injected.delay:
                    await asyncio.sleep(injected.delay)
                raise injected.error
            over = None if polling else self._over_budget(params)
            if over is not None:
                raise over
            if polling:
                call.result = await self._get_updates(call)
            elif handler is None:
                self.unknown_methods.append(name)
                raise ApiError(404, f"Not Found: method {name}")
            else:
                call.result = handler(call)
            call.status = 200
        except ApiError as error:
            call.status, call.error = error.error_code, error
        except Exception as crash:  # a bug in the fake or a request it cannot make sense of: say so loudly
            call.status, call.error = 500, ApiError(500, f"Internal Server Error: fake Telegram crashed: {crash!r}")
        finally:
            call.finished = time.monotonic()
            if not polling:
                self._in_flight -= 1
                self._last_activity = call.finished
            self._notify()
        if call.error is not None:
            return web.json_response(call.error.payload(), status=call.error.error_code)
        return web.json_response({"ok": True, "result": call.result})

    async def _download(self, request: web.Request) -> web.Response:
        stored = self.files.get(request.match_info["path"].rsplit("/", 1)[-1])
        if request.match_info["token"] != self.token or stored is None:
            return web.json_response({"ok": False, "error_code": 404, "description": "Not Found"}, status=404)
        return web.Response(body=stored.data, content_type=stored.mime_type or "application/octet-stream")

    # ---- getUpdates (long poll) ----------------------------------------------------------------------
    async def _get_updates(self, call: Call) -> list[JSON]:
        if self.webhook is not None:
            raise ApiError(409, CONFLICT_WEBHOOK)
        offset = int(call.params.get("offset") or 0)
        limit = min(max(int(call.params.get("limit") or 100), 1), 100)
        timeout = max(float(call.params.get("timeout") or 0), 0.0)
        if offset > 0:
            self.pending_updates = [u for u in self.pending_updates if u["update_id"] >= offset]
        self._poll_generation += 1
        generation = self._poll_generation
        self._notify()  # terminates an older poll still held open
        deadline = time.monotonic() + timeout
        self.open_polls += 1
        try:
            while True:
                if generation != self._poll_generation:
                    raise ApiError(409, CONFLICT_POLL)
                ready = self.pending_updates[:limit]
                remaining = deadline - time.monotonic()
                if ready or self._stopping or remaining <= 0:
                    break
                changed = self._changed
                await _wait(changed, remaining)
        finally:
            self.open_polls -= 1
        if ready:
            self.delivered_update_id = max(self.delivered_update_id, ready[-1]["update_id"])
            self._last_activity = time.monotonic()
        return ready

    # ---- webhook -------------------------------------------------------------------------------------
    async def deliver_webhook(self, url: str, update: JSON, secret_token: str | None) -> int:
        """POST one update to a bot webhook listener (header X-Telegram-Bot-Api-Secret-Token when
        secret_token is set); returns the HTTP status. Does not touch the update queue."""
        assert self._session is not None, "start() the fake first"
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret_token} if secret_token else {}
        async with self._session.post(url, json=update, headers=headers) as response:
            await response.read()
            if response.status == 200:
                self.delivered_update_id = max(self.delivered_update_id, int(update.get("update_id", 0)))
                self._last_activity = time.monotonic()
                self._notify()
            return response.status

    async def _webhook_pump(self) -> None:
        """While a webhook is set, deliver queued updates to it in order, like Telegram does."""
        while not self._stopping:
            changed = self._changed
            webhook = self.webhook
            if webhook is not None and self.pending_updates:
                update = self.pending_updates[0]
                try:
                    status = await self.deliver_webhook(webhook.url, update, webhook.secret_token)
                except aiohttp.ClientError as error:
                    status, detail = 0, repr(error)
                else:
                    detail = f"HTTP {status}"
                if status == 200:
                    if self.pending_updates and self.pending_updates[0] is update:
                        self.pending_updates.pop(0)
                    continue
                self.webhook_errors.append(detail)
                await asyncio.sleep(0.05)
                continue
            await changed.wait()

    # ---- waiting -------------------------------------------------------------------------------------
    def _describe(self) -> str:
        recent = "\n  ".join(repr(c) for c in self.calls[-12:])
        return f"pending updates: {len(self.pending_updates)}; recent calls:\n  {recent}"

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "condition") -> T:
        """Wait until predicate() (re-checked after every Bot API call and update) returns something truthy;
        return it. TimeoutError (with the recent call log) after timeout seconds."""
        deadline = time.monotonic() + timeout
        while True:
            changed = self._changed
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}; {self._describe()}")
            await _wait(changed, remaining)

    async def wait_for_call(
        self, method: str, predicate: Callable[[Call], bool] | None = None, since: int = 0, timeout: float = 5.0
    ) -> Call:
        """The first finished call of method with index >= since (see mark()) that satisfies predicate."""

        def find() -> Call | None:
            for call in self.calls[since:]:
                if call.method == method and call.finished is not None and (predicate is None or predicate(call)):
                    return call
            return None

        return await self.wait_for(find, timeout, f"a {method} call")

    async def wait_for_answer(self, query_id: str, timeout: float = 5.0) -> CallbackQuery:
        """Wait until the bot answered the callback query; returns its CallbackQuery record."""
        query = self.callback_queries[query_id]
        await self.wait_for(lambda: query.answered, timeout, f"an answer to callback query {query_id}")
        return query

    def consumed(self) -> bool:
        """True when every queued update has been handed to the bot."""
        return self.delivered_update_id >= self.last_queued_update_id

    async def settle(self, timeout: float = 5.0, quiet: float = 0.15) -> None:
        """Wait until every queued update was handed to the bot, no Bot API call is in flight and none
        was made for `quiet` seconds: the bot has reacted to everything. Prefer wait_for_* when the
        expected reaction is known; settle is for asserting that nothing (more) happens."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            idle = now - self._last_activity
            if self.consumed() and self._in_flight == 0 and idle >= quiet:
                return
            if now >= deadline:
                raise TimeoutError(f"bot did not settle within {timeout}s; {self._describe()}")
            changed = self._changed
            wait = quiet - idle if self.consumed() and self._in_flight == 0 else deadline - now
            await _wait(changed, max(min(wait, deadline - now), 0.001))
