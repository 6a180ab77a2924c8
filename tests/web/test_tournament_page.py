"""The tournament page: ``/t/<id>`` (HTML: standings, rounds with results, board links) and ``/api/t/<id>``
(JSON), on the real stack (BotCore on Redis, the aiohttp app through its test client)."""

from __future__ import annotations

import random

from bot.service.models import PlayerRef
from bot.service.tournaments import model
from tests.service.test_tournament_service import both_move

from .kit import ALICE, BOB, CAROL, ROOM, Site

DAVE = PlayerRef("telegram", "104", "<b>Dave</b>")  # a name that must come out escaped


async def running_event(site: Site) -> tuple[str, str, str]:
    """A 4-player Swiss in ROOM, round 1 running, one of its matches won: (event id, the won match's
    game id, its winner's name)."""
    events = site.core.service.tournaments
    assert (await events.create(ALICE, ROOM, rounds=2, is_admin=True)).ok
    for p in (ALICE, BOB, CAROL, DAVE):
        assert (await events.join(p, ROOM)).ok
    assert (await events.start(ALICE, ROOM, is_admin=True)).ok
    _v, t = await events.current(ROOM)
    assert t is not None
    pair = t.pairs[0]
    games = (await site.core.store.read([("hgetall", model.round_games(t.id))]))[0]
    gid = games[model.slot(1, pair.a, pair.b)]
    await both_move(site.core.service, gid, ROOM, random.Random(1))
    assert (await site.core.service.resign(t.ref(pair.b), ROOM, whole_match=True, game_id=gid)).ok
    return t.id, gid, t.name_of(pair.a)


async def test_json_and_page(site: Site) -> None:
    tid, gid, _winner = await running_event(site)
    await site.core.service.tournaments.advance(tid)  # the other match still runs: round 1 stays open
    resp = await site.client.get(f"/api/t/{tid}")
    assert resp.status == 200
    data = await resp.json()
    assert data["id"] == tid and data["status"] == "running" and data["round"] == 1
    assert sorted(r["name"] for r in data["standings"]) == sorted(["Alice", "Bob", "Carol", "<b>Dave</b>"])
    (first,) = data["matches"]
    assert first["round"] == 1 and len(first["matches"]) == 2
    links = [m["board"] for m in first["matches"]]
    assert f"/g/{site.token(gid)}" in links and all(links)
    for link in links:  # every board link opens the game's state
        token = link.removeprefix("/g/")
        assert (await site.client.get(f"/api/g/{token}/state")).status == 200
    page = await site.client.get(f"/t/{tid}?lang=en")
    html = await page.text()
    assert page.status == 200 and page.headers["Content-Type"].startswith("text/html")
    assert "<table id=standings>" in html and "Round 1" in html and f"/g/{site.token(gid)}" in html
    assert "&lt;b&gt;Dave&lt;/b&gt;" in html and "<b>Dave</b>" not in html
    assert "being played" in html
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    greek = await (await site.client.get(f"/t/{tid}", headers={"Accept-Language": "el-GR,el;q=0.9"})).text()
    assert "Γύρος 1" in greek and "(ελβετικό): παίζεται" in greek


async def test_unknown_and_malformed_ids(site: Site) -> None:
    for path in ("/t/AAAAAAAA", "/t/bad", "/t/..%2F..%2Fetc", "/api/t/AAAAAAAA"):
        resp = await site.client.get(path)
        assert resp.status == 404, path
    body = await (await site.client.get("/api/t/nope")).json()
    assert body["code"] == "no_tournament" and "no such tournament" in body["error"]


async def test_the_page_says_which_game_and_how_long_the_matches(site: Site) -> None:
    """The event's game and match length: in the JSON (``game``, ``points``) and on the page in both languages."""
    events = site.core.service.tournaments
    assert (await events.create(ALICE, ROOM, rounds=2, points=3, is_admin=True, game="plakoto")).ok
    _v, t = await events.current(ROOM)
    assert t is not None
    data = await (await site.client.get(f"/api/t/{t.id}")).json()
    assert data["game"] == "plakoto" and data["points"] == 3
    english = await (await site.client.get(f"/t/{t.id}?lang=en")).text()
    assert "<p id=game>Game: Plakoto; matches to 3 points</p>" in english
    greek = await (await site.client.get(f"/t/{t.id}", headers={"Accept-Language": "el"})).text()
    assert "<p id=game>Παιχνίδι: Πλακωτό· αγώνες στους 3</p>" in greek


async def test_a_knockout_page_has_no_swiss_tie_break_columns(site: Site) -> None:
    """A bracket's table: rank, player, matches won; Buchholz and Sonneborn-Berger mean nothing there."""
    events = site.core.service.tournaments
    for kind, heads in (("knockout", ["#", "Player", "Won"]), ("swiss", ["#", "Player", "Pts", "BH", "SB"])):
        assert (await events.create(ALICE, ROOM, rounds=2, is_admin=True, kind=kind)).ok
        _v, t = await events.current(ROOM)
        assert t is not None
        for p in (ALICE, BOB, CAROL):
            assert (await events.join(p, ROOM)).ok
        html = await (await site.client.get(f"/t/{t.id}?lang=en")).text()
        table = html[html.index("<table id=standings>"):html.index("</table>")]
        assert table.split("</tr>")[0].count("<th>") == len(heads)
        assert [h.split("</th>")[0] for h in table.split("<th>")[1:]] == heads
        assert table.split("</tr>")[1].count("<td>") == len(heads)
        assert (await events.cancel(ALICE, ROOM, is_admin=True)).ok
