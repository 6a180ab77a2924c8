"""The tournament page (issue 24): ``/t/<tournament id>`` (read-only HTML: the standings table, every round
with its results, a link to each match's board page) and ``/api/t/<tournament id>`` (the same as JSON).

An event's standings and pairings are posted in its channel anyway, so its id is the whole address; each
match's board link is the signed game link the chats hand out (``/g/<token>``), spectator view.
"""

from __future__ import annotations

from html import escape
from typing import Any

from aiohttp import web

from bot.i18n import translate
from bot.service import keys
from bot.service.reads import read_one
from bot.service.tournaments import model
from bot.service.tournaments.model import Tournament
from bot.service.tournaments.standings import standings

from .app import WEB_APP, ApiError, WebApp, request_lang

PAGE_CACHE = "no-cache"


async def _event(app: WebApp, request: web.Request) -> tuple[Tournament, dict[str, str]]:
    """The event the path names and its games hash; ApiError 404 when it is not one."""
    tid = request.match_info.get("tid", "")
    if len(tid) != 8 or any(c not in keys.ID_ALPHABET for c in tid):
        raise ApiError(404, "no_tournament")
    _version, t = await app.core.service.tournaments.load(tid)
    if t is None:
        raise ApiError(404, "no_tournament")
    games = await read_one(app.core.store, lambda r: r.hgetall(model.round_games(tid)))
    return t, games


def event_data(app: WebApp, t: Tournament, games: dict[str, str]) -> dict[str, Any]:
    """The page's content: the event (its game: fevga, portes, plakoto or tavli; ``points``: the matches'
    length), its standings and its rounds (each match: players, winner, board link)."""
    table = standings(t.players, t.results)
    rounds: dict[int, list[dict[str, Any]]] = {}
    done = {(r.round, r.a, r.b) for r in t.results}
    matches = [(r.round, r.a, r.b, r.winner, True) for r in t.results]
    matches += [(t.round, p.a, p.b, None, False) for p in t.pairs
                if t.status == "running" and (t.round, p.a, p.b) not in done]
    for rnd, a, b, winner, over in matches:
        gid = games.get(model.slot(rnd, a, b)) if b is not None else None
        rounds.setdefault(rnd, []).append({
            "a": t.name_of(a), "b": None if b is None else t.name_of(b), "over": over,
            "winner": None if winner is None else t.name_of(winner),
            "board": f"/g/{app.config.links.token(gid)}" if gid else None})  # fmt: skip
    return {
        "id": t.id, "kind": t.kind, "game": t.game, "status": t.status, "round": t.round, "rounds": t.rounds,
        "points": t.points,
        "rated": t.rated, "winner": t.name_of(t.winner) if t.winner else None,
        "standings": [{"rank": s.rank, "name": t.name_of(s.player), "score": s.score, "buchholz": s.buchholz,
                       "sb": s.sonneborn_berger, "out": s.player in t.withdrawn} for s in table],
        "matches": [{"round": n, "matches": rounds[n]} for n in sorted(rounds)],
    }  # fmt: skip


def _match_html(m: dict[str, Any], lang: str) -> str:
    """One match line: the players (the winner in bold), its state and its board link."""
    if m["b"] is None:
        return f"<li>{escape(m['a'])}: {escape(translate('tpage_bye', lang))}</li>"
    names = [f"<b>{escape(n)}</b>" if m["winner"] == n else escape(n) for n in (m["a"], m["b"])]
    state = translate("tpage_playing", lang) if not m["over"] else (
        translate("tpage_won", lang, winner=m["winner"]) if m["winner"] else translate("tpage_both_lost", lang))
    link = f" <a href='{escape(m['board'])}'>{escape(translate('tpage_board', lang))}</a>" if m["board"] else ""
    return f"<li>{names[0]} – {names[1]}: {escape(state)}{link}</li>"


def event_html(data: dict[str, Any], lang: str) -> str:
    """The page: a title, the game its matches play and their length, the standings table, the rounds
    (newest first)."""
    title = translate("tpage_title", lang, id=data["id"], kind=data["kind"], status=data["status"],
                      round=data["round"], rounds=data["rounds"])
    knockout = data["kind"] == "knockout"  # matches won; the Swiss tie-breaks mean nothing in a bracket
    columns = ("tournament_col_rank", "tournament_col_name", "tournament_col_wins") if knockout else (
        "tournament_col_rank", "tournament_col_name", "tournament_col_score", "tournament_col_buchholz",
        "tournament_col_sb")  # fmt: skip
    heads = "".join(f"<th>{escape(translate(k, lang))}</th>" for k in columns)
    rows = "".join(
        f"<tr><td>{r['rank']}</td><td>{escape(r['name'])}{' †' if r['out'] else ''}</td><td>{r['score']}</td>"
        + ("" if knockout else f"<td>{r['buchholz']}</td><td>{r['sb']}</td>") + "</tr>" for r in data["standings"])
    rounds = "".join(
        f"<h2>{escape(translate('tpage_round', lang, round=r['round']))}</h2><ul>"
        + "".join(_match_html(m, lang) for m in r["matches"]) + "</ul>" for r in reversed(data["matches"]))
    game = f"<p id=game>{escape(translate('tpage_game', lang, game=data['game'], points=data['points']))}</p>"
    winner = (f"<p class=winner>{escape(translate('tpage_winner', lang, winner=data['winner']))}</p>"
              if data["winner"] else "")
    return ("<!doctype html><html lang='" + lang + "'><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width'><title>" + escape(title) + "</title>"
            "<style>body{font:16px sans-serif;margin:1.5em;background:#28221f;color:#f6f0e6}"
            "table{border-collapse:collapse}td,th{padding:.3em .8em;text-align:left}"
            "tr:nth-child(even){background:#342d29}a{color:#ffd666}</style>"
            f"<h1>{escape(title)}</h1>{game}{winner}<table id=standings><tr>{heads}</tr>{rows}</table>{rounds}</html>")


async def tournament_page(request: web.Request) -> web.Response:
    """``GET /t/<id>``: the event as a read-only HTML page."""
    app = request.app[WEB_APP]
    t, games = await _event(app, request)
    lang = request_lang(request, app.core.default_lang)
    text = event_html(event_data(app, t, games), lang)
    return web.Response(text=text, content_type="text/html", headers={"Cache-Control": PAGE_CACHE})


async def tournament_json(request: web.Request) -> web.Response:
    """``GET /api/t/<id>``: the event as JSON."""
    app = request.app[WEB_APP]
    t, games = await _event(app, request)
    return web.json_response(event_data(app, t, games), headers={"Cache-Control": "no-store"})


def add_tournament_routes(app: web.Application) -> None:
    """The tournament page's routes."""
    app.router.add_get("/t/{tid}", tournament_page)
    app.router.add_get("/api/t/{tid}", tournament_json)
