"""The page's API on the real stack: state, step options, plays through BotCore, and every refusal
(forged, expired or another user's initData, oversized bodies, stale versions, wrong games) changing nothing."""

from __future__ import annotations

import re
from typing import Any

from bot.chat.core import BotCore
from fevga.dice import verify as verify_dice

from .kit import ALICE, BOB, CAROL, ROOM, Site, init_data, start_game, stored_version


async def test_the_page_and_its_files(site: Site) -> None:
    gid = await start_game(site.core)
    resp = await site.client.get(f"/g/{site.token(gid)}")
    assert resp.status == 200 and "<title>Fevga" in await resp.text()
    assert resp.headers["Referrer-Policy"] == "no-referrer" and "default-src 'self'" in resp.headers[
        "Content-Security-Policy"]
    assert (await site.client.get("/app")).status == 200
    for bad in (f"/g/{gid}.AAAAAAAAAAAAAAAAAAAAAA", f"/g/{gid}", "/g/x.y"):
        resp = await site.client.get(bad)
        assert resp.status == 404 and "not valid" in await resp.text()
    js = await site.client.get("/static/app.js", headers={"Accept-Encoding": "gzip"})
    assert js.status == 200 and js.headers["Content-Encoding"] == "gzip" and "max-age" in js.headers["Cache-Control"]
    assert "const board" in await js.text()
    again = await site.client.get("/static/app.js", headers={"If-None-Match": js.headers["ETag"]})
    assert again.status == 304
    for bad in ("/static/../conftest.py", "/static/%2e%2e/kit.py", "/static/.hidden", "/static/nope.js"):
        assert (await site.client.get(bad)).status == 404


async def test_the_state_of_a_running_game(site: Site) -> None:
    gid = await start_game(site.core)
    st = await site.state(gid)
    assert st["game"] == gid and st["version"] == await stored_version(site.core, gid)
    assert sum(p for p in st["points"] if p > 0) == 15 and sum(p for p in st["points"] if p < 0) == -15
    assert st["start_points"][0] == 15 and st["start_points"][12] == -15
    assert st["turn"] in (0, 1) and len(st["dice"]) == 2 and not st["over"]
    assert st["viewer"] == {"seat": None, "to_move": False}
    assert st["fair"]["seed"] is None and len(st["fair"]["commitment"]) == 64
    assert st["strings"]["web_moves"] == "Moves" and "web_bad_link" in st["strings"]
    text = str(st)
    # no user ids reach the page (as whole tokens: the commitment's hex digits, a random game id or link token
    # in url-safe base64, or the decimals of a time, e.g. a deadline's ".102", may hold "101" by chance)
    assert not re.search(r"(?<![0-9A-Za-z_.-])10[12](?![0-9A-Za-z_-])", text)
    _st, mover, waiting = await site.mover(gid)
    mine = await site.state(gid, mover)
    assert mine["viewer"]["to_move"] and mine["viewer"]["seat"] == st["turn"]
    assert (await site.state(gid, waiting))["viewer"] == {"seat": 1 - st["turn"], "to_move": False}
    resp = await site.client.get(f"/api/g/{site.token(gid)}/state", headers={"X-Init-Data": init_data(mover, age=7200)})
    spectator = await resp.json()
    assert spectator["viewer"]["seat"] is None and spectator["auth"] == "init_data_expired"
    greek = await (await site.client.get(f"/api/g/{site.token(gid)}/state?lang=el")).json()
    assert greek["lang"] == "el" and greek["strings"]["web_moves"] == "Κινήσεις"


async def test_step_options_come_from_the_engine(site: Site) -> None:
    gid = await start_game(site.core)
    st, mover, _ = await site.mover(gid)
    status, ans = await site.post(gid, "steps", {"version": st["version"], "pending": []}, mover)
    assert status == 200 and ans["options"] and not ans["complete"] and ans["text"] == ""
    session = (await site.core.service.sessions.load(gid, take=False)).session
    assert session is not None
    expected = session.game.step_options([]).options
    assert {(o["from"], o["die"]) for o in ans["options"]} == {(p, d) for p, ds in expected.items() for d in ds}
    first = ans["options"][0]
    status, ans = await site.post(gid, "steps", {"version": st["version"], "pending": [[first["from"], first["to"]]]},
                                  mover)
    assert status == 200 and ans["steps"] == [[first["from"], first["to"]]] and ans["text"].startswith(
        f"{first['from']}/")
    status, ans = await site.post(gid, "steps", {"version": st["version"], "pending": [[2, 3]]}, mover)
    assert (status, ans["code"]) == (400, "bad_step")


async def _unchanged(site: Site, gid: str, version: int, status: int, ans: dict[str, Any], code: str,
                     want: int) -> None:
    assert (status, ans.get("code")) == (want, code), ans
    assert ans["ok"] is False and ans["error"] and "Traceback" not in ans["error"]
    assert await stored_version(site.core, gid) == version


async def test_a_play_through_the_api_advances_the_game_once(site: Site) -> None:
    gid = await start_game(site.core)
    st, mover, _ = await site.mover(gid)
    text = await site.a_play(gid, mover, st["version"])
    status, ans = await site.post(gid, "play", {"version": st["version"], "text": text}, mover)
    assert status == 200 and ans["ok"], ans
    new = ans["state"]
    assert new["version"] == await stored_version(site.core, gid) > st["version"]
    assert new["moves"][-1]["text"] == text or any(m["text"] == text for m in new["moves"])
    assert new["last_play"] is not None
    # The same request again (a retry) changes nothing more: same version, stale.
    again_status, again = await site.post(gid, "play", {"version": st["version"], "text": text}, mover)
    await _unchanged(site, gid, new["version"], again_status, again, "stale", 409)
    assert again["version"] == new["version"]


async def test_refusals_change_nothing(site: Site) -> None:
    gid = await start_game(site.core)
    other = await start_game(site.core, CAROL, BOB, ROOM.__class__("telegram", "-2002", "-2002"))
    st, mover, waiting = await site.mover(gid)
    v = st["version"]
    text = await site.a_play(gid, mover, v)
    body = {"version": v, "text": text}
    checks = [
        (await site.post(gid, "play", body), "no_init_data", 401),
        (await site.post(gid, "play", body, init=init_data(mover, token="1:other-bot")), "bad_init_data", 401),
        (await site.post(gid, "play", body, init=init_data(mover, age=4000)), "init_data_expired", 401),
        (await site.post(gid, "play", body, CAROL), "not_a_player", 403),  # another user, validly signed
        (await site.post(gid, "play", body, waiting), "not_your_turn", 403),
        (await site.post(gid, "play", {"version": v - 1, "text": text}, mover), "stale", 409),
        (await site.post(gid, "play", {"version": v, "text": "resign"}, mover), "not_a_play", 400),
        (await site.post(gid, "play", {"version": v, "text": "24/off"}, mover), "no_checker", 400),
        (await site.post(gid, "play", [1, 2], mover), "bad_request", 400),
        (await site.post(gid, "play", {"version": "1", "text": text}, mover), "bad_request", 400),
        (await site.post(gid, "play", {"version": v, "text": "x" * 5000}, mover), "too_large", 413),
        (await site.post(gid, "steps", {"version": v, "pending": [[1, 2]] * 50}, mover), "bad_request", 400),
    ]
    for (status, ans), code, want in checks:
        await _unchanged(site, gid, v, status, ans, code, want)
    # A token of another game: Alice plays here, not there.
    other_v = await stored_version(site.core, other)
    resp = await site.client.post(f"/api/g/{site.token(other)}/play", json={"version": other_v, "text": text},
                                  headers={"X-Init-Data": init_data(ALICE)})
    await _unchanged(site, other, other_v, resp.status, await resp.json(), "not_a_player", 403)
    forged = await site.client.post(f"/api/g/{gid}.AAAAAAAAAAAAAAAAAAAAAA/play", json=body,
                                    headers={"X-Init-Data": init_data(mover)})
    assert forged.status == 404 and (await forged.json())["code"] == "bad_link"
    raw = await site.client.post(f"/api/g/{site.token(gid)}/play", data=b"{" * 5000,
                                 headers={"X-Init-Data": init_data(mover), "Content-Type": "application/json"})
    assert raw.status == 413
    form = await site.client.post(f"/api/g/{site.token(gid)}/play", data={"version": str(v), "text": text},
                                  headers={"X-Init-Data": init_data(mover)})
    assert form.status == 415 and (await form.json())["code"] == "not_json"
    assert (await site.core.service.board(mover, ROOM, gid)).view.status == "play"  # type: ignore[union-attr]
    assert await stored_version(site.core, gid) == v


async def test_undo_and_confirm_work_on_the_chats_step_buttons(site: Site) -> None:
    gid = await start_game(site.core)
    _st, mover, _ = await site.mover(gid)
    handled = await site.core.handle_text(mover, ROOM, "board")
    board = next(r for r in handled.replies if r.game_id)
    for _ in range(4):  # build a whole play with the chat's step buttons
        steps = [b for b in board.buttons if b.kind == "step"]
        if not steps:
            break
        board = next(r for r in (await site.core.press(mover, ROOM, steps[0].token)).replies if r.game_id)
    v = await stored_version(site.core, gid)
    built = (await site.state(gid))["pending"]
    assert built
    status, ans = await site.post(gid, "undo", {"version": v}, mover)
    assert status == 200 and ans["state"]["pending"] == built[:-1] and ans["state"]["version"] == v + 1
    status, ans = await site.post(gid, "confirm", {"version": v + 1}, mover)
    assert status == 400 and ans["code"]  # the play is not complete any more: the chat's own refusal
    assert await stored_version(site.core, gid) == v + 1


async def test_a_finished_game_reveals_its_seed_and_the_page_can_verify_it(site: Site) -> None:
    gid = await start_game(site.core)
    for _ in range(2):  # both players move: a resignation before that only calls the game off
        st, mover, _ = await site.mover(gid)
        text = await site.a_play(gid, mover, st["version"])
        assert (await site.post(gid, "play", {"version": st["version"], "text": text}, mover))[0] == 200
    _st, mover, _ = await site.mover(gid)
    handled = await site.core.handle_text(mover, ROOM, "resign")
    prompt = [b for r in handled.replies for b in r.buttons if b.kind == "resign_confirm"]
    if prompt:
        await site.core.press(mover, ROOM, prompt[0].token)
    done = await site.state(gid)
    assert done["over"] and done["turn"] is None and done["result"]["kind"] in ("resigned", "mars", "single")
    fair = done["fair"]
    assert fair["seed"] and verify_dice(fair["seed"], fair["commitment"], fair["rolls"])
    status, ans = await site.post(gid, "play", {"version": done["version"], "text": "1/4"}, mover)
    assert status == 403 and ans["code"] == "not_your_turn"


async def test_moves_replay_to_the_position(site: Site, core: BotCore) -> None:
    gid = await start_game(core)
    for _ in range(6):
        st, mover, _ = await site.mover(gid)
        text = await site.a_play(gid, mover, st["version"])
        status, ans = await site.post(gid, "play", {"version": st["version"], "text": text}, mover)
        assert status == 200, ans
    st = await site.state(gid)
    assert st["replay_ok"] and st["moves"][-1]["points"] == st["points"]
    assert st["last_play"]["steps"] == next(m["steps"] for m in reversed(st["moves"]) if m["steps"])
