"""State-changing routes (the Telegram Mini App, and the terminal's player on his own machine): the step
options of a play being built, and the play, undo and confirm, run through ``BotCore`` as the chat runs them
(same parser, executor, errors).

Every POST: a body of at most 4 KB (413), JSON (400), valid ``X-Init-Data`` (401: forged or older than an
hour; without it, 401 unless the bot runs the terminal chat and the request comes from this machine), the
sender a player of this game (403), the version the page saw still current (409: nothing changes), and for
moves the sender's turn (403)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from aiohttp import web

from bot.chat.buttons import encode
from bot.commands import intents
from bot.commands.grammar import parse_command
from bot.delivery.replies import Handled
from bot.service.button_kinds import ButtonKind
from fevga.errors import IllegalStepError
from fevga.play import format_play, format_steps
from fevga.rules import OFF

from .app import MAX_BODY, WEB_APP, ApiError, WebApp
from .initdata import InitDataError, TelegramUser
from .local import LocalUser, is_local, local_user
from .snapshots import Snapshot

MAX_PENDING = 8  # steps in a play: four of a double, with room to spare
CONFLICT = frozenset({"not_your_turn", "turn_already_played", "button_stale", "stale_action", "stale_earlier_game",
                      "game_over"})
FORBIDDEN = frozenset({"no_game_here", "not_your_game", "not_a_player"})


def _web(request: web.Request) -> WebApp:
    return request.app[WEB_APP]


async def _body(request: web.Request) -> dict[str, Any]:
    """The JSON object of a POST (413 past 4 KB, 415 without the JSON content type, 400 when it is not a
    JSON object)."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise ApiError(413, "too_large")
    if request.content_type != "application/json":  # JSON only (and no form posts from other sites)
        raise ApiError(415, "not_json")
    raw = await request.content.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise ApiError(413, "too_large")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "bad_request") from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request")
    return body


async def _context(request: web.Request, *, to_move: bool) -> tuple[WebApp, Snapshot, TelegramUser | LocalUser,
                                                                     int, dict[str, Any], str]:
    """Check a POST in the contract's order; (app, snapshot, user, seat, body, language)."""
    app = _web(request)
    gid = app.game_id(request)
    body = await _body(request)
    user: TelegramUser | LocalUser | None
    try:
        user = app.telegram_user(request.headers.get("X-Init-Data"))
    except InitDataError as exc:
        raise ApiError(401, exc.code) from None
    local = user is None and is_local(request, app.config.local_players)
    if user is None and not local:
        raise ApiError(401, "no_init_data")
    snap = await app.snapshot(gid)
    if user is None:  # the terminal's player, at this machine
        user = local_user(snap, app.config.local_players)
    lang = await app.lang_for(request, snap, user)
    seat = snap.seat_of(user.player.platform, user.player.user_id)
    if seat is None:
        raise ApiError(403, "not_a_player", lang=lang)
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ApiError(400, "bad_request", lang=lang)
    if version != snap.version:
        raise ApiError(409, "stale", snap=snap, lang=lang)
    if to_move and snap.base["turn"] != seat:
        raise ApiError(403, "not_your_turn", lang=lang)
    return app, snap, user, seat, body, lang


def _pending(body: dict[str, Any]) -> list[tuple[int, int]]:
    """The page's steps as (from, to): from is a point or 0 (the bar, Portes/Plakoto), to a point, 25 or
    "off" (bearing off)."""
    raw = body.get("pending", [])
    if not isinstance(raw, list) or len(raw) > MAX_PENDING:
        raise ApiError(400, "bad_request")
    out = []
    for item in raw:
        if not isinstance(item, list) or len(item) != 2:
            raise ApiError(400, "bad_request")
        src, dst = item[0], OFF if item[1] == "off" else item[1]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (src, dst)) or not 0 <= src < dst <= OFF:
            raise ApiError(400, "bad_request")
        out.append((src, dst))
    return out


def _as_dice(snap: Snapshot, steps: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(from, to) steps as the builder's (from, die): the exact die, or for bearing off the smallest die
    left that the engine accepts there. ApiError 400 (bad_step) when no die fits."""
    game = snap.session.game
    done: list[tuple[int, int]] = []
    for src, dst in steps:
        state = game.step_options(done)
        dice = state.options.get(src, [])
        exact = dst - src
        fits = [d for d in dice if d == exact] or ([d for d in sorted(dice) if d >= exact] if dst == OFF else [])
        if not fits:
            raise ApiError(400, "bad_step")
        done.append((src, fits[0]))
    return done


async def steps(request: web.Request) -> web.Response:
    """``POST .../steps``: the next steps of the play being built (the engine's step builder)."""
    _app, snap, _user, _seat, body, lang = await _context(request, to_move=True)
    try:
        pending = _as_dice(snap, _pending(body))
        state = snap.session.game.step_options(pending)
    except IllegalStepError:
        raise ApiError(400, "bad_step", lang=lang) from None
    except ApiError as exc:
        raise ApiError(exc.status, exc.code, lang=lang) from None
    options = [{"from": src, "to": "off" if src + die >= OFF else src + die, "die": die,
                "hit": (src, die) in state.hitting}
               for src, dice in sorted(state.options.items()) for die in dice]
    complete = state.play is not None
    text = (format_play(state.play) if state.play is not None
            else format_steps(state.steps, state.hits) if state.steps else "")
    return web.json_response({"options": options, "complete": complete, "text": text,
                              "steps": [[a, "off" if b == OFF else b] for a, b in state.steps],
                              "hits": [bool(h) for h in state.hits] if state.hits else [False] * len(state.steps),
                              "dice_left": list(state.dice_left)})


async def _answer(app: WebApp, snap: Snapshot, handled: Handled, user: TelegramUser | LocalUser, seat: int,
                  lang: str) -> web.Response:
    """What BotCore answered: the new state, or its error (the chat's own message and key). The terminal's
    player gets the state as the page's own fetch would give it (``local``; in a hot-seat game from the seat
    now to move, the other player at the same keyboard), and the terminal prints what happened."""
    errors = [r for r in handled.replies if r.error]
    if errors:
        code = errors[0].code or "error"
        status = 409 if code in CONFLICT else 403 if code in FORBIDDEN else 400
        return web.json_response({"ok": False, "code": code, "error": errors[0].text}, status=status)
    fresh = await app.snapshot(snap.session.id)
    if not isinstance(user, LocalUser):
        return web.json_response(text=f'{{"ok":true,"state":{fresh.json(lang, seat)}}}')
    if app.config.on_local_play is not None:
        await app.config.on_local_play(handled)
    now = local_user(fresh, app.config.local_players).player
    state = fresh.json(lang, fresh.seat_of(now.platform, now.user_id))
    return web.json_response(text=f'{{"ok":true,"state":{state[:-1]},"local":true}}}}')


async def play(request: web.Request) -> web.Response:
    """``POST .../play`` ``{"version", "text"}``: the play typed as in the chat, run by BotCore."""
    app, snap, user, seat, body, lang = await _context(request, to_move=True)
    text = body.get("text")
    if not isinstance(text, str) or not 1 <= len(text) <= 200:
        raise ApiError(400, "bad_request", lang=lang)
    if not isinstance(parse_command(text), intents.Move):  # only a play: never another command
        raise ApiError(400, "not_a_play", lang=lang)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    idem = f"web:{snap.session.id}:{snap.version}:{digest}"  # a retried request answers the same
    handled = await app.core.handle_text(user.player, snap.place, text, idem=idem, reply_to_game=snap.session.id)
    return await _answer(app, snap, handled, user, seat, lang)


async def _button(request: web.Request, kind: ButtonKind) -> web.Response:
    """Undo / confirm: the chat's own button of that kind, drawn for the version the page saw."""
    app, snap, user, seat, _body, lang = await _context(request, to_move=True)
    token = encode(kind, snap.session.id, snap.version)
    idem = f"web:{snap.session.id}:{snap.version}:{kind.value}"
    handled = await app.core.press(user.player, snap.place, token, idem=idem)
    return await _answer(app, snap, handled, user, seat, lang)


async def undo(request: web.Request) -> web.Response:
    """``POST .../undo``: take back the last step built with the chat's step buttons."""
    return await _button(request, ButtonKind.UNDO)


async def confirm(request: web.Request) -> web.Response:
    """``POST .../confirm``: play the steps built with the chat's step buttons."""
    return await _button(request, ButtonKind.CONFIRM)


def add_action_routes(app: web.Application) -> None:
    app.router.add_post("/api/g/{token}/steps", steps)
    app.router.add_post("/api/g/{token}/play", play)
    app.router.add_post("/api/g/{token}/undo", undo)
    app.router.add_post("/api/g/{token}/confirm", confirm)
