"""Playing in the Telegram Mini App: the player taps or drags a legal play on the page and confirms; the chat's
board is edited and the game's version advances once. initData that is forged, expired or another user's is
refused, and nothing changes."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from playwright.async_api import Page

from tests.fakes.telegram import FakeTelegram, FakeUser
from tests.telegram.harness import Chat, CoreSpy, actor_ref, game_view, group_place
from tests.telegram.scenes import group_game

from .harness import READ_BOARD, Chromium, Site, drawn_board, in_viewer_numbering, init_data

IDLE = "() => FV.app.play && !FV.app.play.busy"


def mini_app_url(site: Site, game_id: str, data: str) -> str:
    """The page as Telegram opens it: initData in the URL hash."""
    return f"{site.page_url(game_id)}#tgWebAppData={quote(data, safe='')}&tgWebAppVersion=7.0&tgWebAppPlatform=android"


async def open_as(browser: Chromium, url: str, version: int, **kw: Any) -> Page:
    page = await browser.new_page(**kw)
    await page.goto(url)
    await page.wait_for_function(f"() => window.FV && FV.app.state && FV.app.state.version === {version}")
    return page


async def centre(page: Page, point: Any) -> tuple[float, float]:
    box = await page.locator(f'#board [data-point="{point}"]').bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def undo_one_step(page: Page, before: list[int]) -> None:
    """Undo the one step built: the board is back to ``before`` (the drawn counts) and nothing is pending."""
    assert await page.evaluate("() => FV.app.play.pending.length") == 1
    await page.click("#undo")
    await page.wait_for_function(IDLE)
    assert await page.evaluate("() => FV.app.play.pending.length") == 0
    assert (await page.evaluate(READ_BOARD))["points"] == before
    assert await page.is_disabled("#undo")


async def play_by_hand(page: Page, drag_first: bool) -> str:
    """Build a legal play from the page's highlights (the first step dragged, or every step tapped; then
    the first tapped step is undone once and built again); the play's text."""
    await page.wait_for_function(IDLE)
    before = (await page.evaluate(READ_BOARD))["points"]
    undone = drag_first
    first = True
    while not await page.evaluate("() => FV.app.play.complete"):
        sources = await page.evaluate("() => FV.app.play.sources()")
        assert sources, "no movable checker although the play is not complete"
        src = sources[0]
        if first and drag_first:
            dst = (await page.evaluate(f"() => FV.app.play.targets({src})"))[0]
            x0, y0 = await centre(page, src)
            x1, y1 = await centre(page, dst)
            await page.mouse.move(x0, y0)
            await page.mouse.down()
            await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
            await page.mouse.move(x1, y1, steps=4)
            await page.mouse.up()
        else:
            await page.click(f'#board [data-point="{src}"]')
            targets = await page.evaluate("() => FV.app.play.targets(FV.app.play.selected)")
            assert targets, "a selected checker has somewhere to go"
            dst = targets[0]
            assert await page.locator(f'#board [data-point="{dst}"].target').count() == 1  # highlighted
            await page.click(f'#board [data-point="{dst}"]')
        first = False
        await page.wait_for_function(IDLE)
        if not undone:
            await undo_one_step(page, before)
            undone = first = True
    text: str = await page.evaluate("() => FV.app.play.text")
    assert await page.is_enabled("#confirm")
    return text


async def test_a_play_made_on_the_mini_app_reaches_the_chat(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
):
    alice, bob, room, board = await group_game(fake, chat, core)
    for drag in (True, False):  # one turn dragged, the next tapped
        view = await game_view(core, actor_ref(alice), group_place(room))
        mover: FakeUser = {"101": alice, "102": bob}[view.players[view.turn].user_id]
        data = init_data(fake.token, mover.id, mover.first_name)
        page = await open_as(browser, mini_app_url(site, view.game_id, data), view.version,
                             viewport={"width": 390, "height": 800})
        assert await page.evaluate("() => FV.app.state.viewer.to_move") is True
        assert await page.is_visible("#playbar")
        seat = view.turn  # each player sees the board from his own side
        assert await drawn_board(page, seat) == in_viewer_numbering(view.position_id, seat)
        edits = len(board.history)
        text = await play_by_hand(page, drag_first=drag)
        await page.click("#confirm")
        await page.wait_for_function(f"() => FV.app.state.version === {view.version + 1}")
        await chat.idle()
        after = await game_view(core, actor_ref(alice), group_place(room))
        assert after.version == view.version + 1, "one play, one new version"
        # the chat's board is brought up to date by the outbox consumer (the play was not made in the chat)
        await fake.wait_for(lambda n=edits: len(board.history) > n or None, timeout=5.0, what="the board edited")
        await fake.settle()
        assert len(board.history) == edits + 1 and board.history[-1].method == "editMessageMedia"
        assert text.split()[0] in board.content or after.last_steps
        # now the opponent's turn, unless his roll was a forced pass (the engine adds it to the same version)
        mine_again = after.turn == seat and after.status == "play"
        assert await page.is_visible("#playbar") is mine_again, (after.turn, seat, after.status)
        await page.close()


async def test_refused_init_data_changes_nothing(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
):
    alice, bob, room, _board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    mover: FakeUser = {"101": alice, "102": bob}[view.players[view.turn].user_id]
    carol = fake.user(103, "Carol", "carol_tavli")
    good = init_data(fake.token, mover.id, mover.first_name)
    forged = good.replace("first_name%22%3A%22", "first_name%22%3A%22X")  # the signed data changed
    cases = {
        "forged": (forged, 401, "bad_init_data"),
        "expired": (init_data(fake.token, mover.id, mover.first_name, age=2 * 3600), 401, "init_data_expired"),
        "other user": (init_data(fake.token, carol.id, carol.first_name), 403, "not_a_player"),
        "wrong bot": (init_data("123:not-this-bot", mover.id, mover.first_name), 401, "bad_init_data"),
    }
    messages = len(fake.calls)
    for name, (data, status, code) in cases.items():
        page = await open_as(browser, mini_app_url(site, view.game_id, data), view.version)
        assert not await page.is_visible("#playbar"), name  # read-only
        mode = await page.inner_text("#mode")
        assert mode.strip(), name  # says why it cannot play
        answer = await page.evaluate(
            """async ([data, version]) => {
                 const r = await fetch(location.pathname.replace('/g/', '/api/g/') + '/play', {method: 'POST',
                   headers: {'Content-Type': 'application/json', 'X-Init-Data': data},
                   body: JSON.stringify({version, text: '1/7 1/6'})});
                 return [r.status, await r.json()];
               }""", [data, view.version])
        assert answer[0] == status and answer[1]["code"] == code and answer[1]["ok"] is False, (name, answer)
        await page.close()
    await chat.idle()
    after = await game_view(core, actor_ref(alice), group_place(room))
    assert after.version == view.version and after.position_id == view.position_id
    board_calls = [c for c in fake.calls[messages:] if c.method not in ("getUpdates",)
                   and not (c.method == "editMessageText" and "accepted by" in str(c.params.get("text")))]
    assert board_calls == []  # (the challenge message's own "accepted" edit may land meanwhile)


async def test_a_refused_play_shows_the_chats_error_and_changes_nothing(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
):
    alice, bob, room, board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    mover: FakeUser = {"101": alice, "102": bob}[view.players[view.turn].user_id]
    page = await open_as(browser, mini_app_url(site, view.game_id, init_data(fake.token, mover.id, mover.first_name)),
                         view.version)
    await page.wait_for_function(IDLE)
    edits = len(board.history)
    # the text the page sends is the chat's: an illegal one gets the chat's own explanation
    answers: list[Any] = []
    page.on("response", lambda r: answers.append(r) if r.url.endswith("/play") else None)
    await page.evaluate("() => { FV.app.play.complete = true; FV.app.play.text = '24/off'; FV.app.render(); }")
    await page.click("#confirm")
    await page.wait_for_function("() => document.getElementById('error').textContent.length > 0")
    body = await answers[0].json()
    assert body["ok"] is False and body["code"] and await page.inner_text("#error") == body["error"]
    assert body["code"] == "no_checker" and "no checker on point 24" in body["error"], body  # the rule, in words
    await chat.idle()
    after = await game_view(core, actor_ref(alice), group_place(room))
    assert after.version == view.version and len(board.history) == edits
    assert await page.is_visible("#playbar")  # still his turn: he can try again
