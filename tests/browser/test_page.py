"""The page itself in a real browser: a phone's width without horizontal scrolling, one move played with
the keyboard alone, the first load's weight, the Mini App entry by start_param, Greek text, the replay
slider, and the fair dice checked in the browser on plain http (our own SHA-256/HMAC, no WebCrypto)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
from typing import Any
from urllib.parse import quote

from playwright.async_api import Page

from bot.i18n import translate
from bot.web import links
from fevga.dice import verify
from tests.fakes.telegram import FakeTelegram, FakeUser
from tests.telegram.harness import Chat, CoreSpy, actor_ref, game_view, group_place
from tests.telegram.scenes import a_legal_play, group_game

from .harness import ARTIFACTS, PLAIN_HOST, Chromium, Site, drawn_board, in_viewer_numbering, init_data
from .test_play import IDLE, mini_app_url, open_as

PHONE = {"width": 360, "height": 740}
MAX_FIRST_LOAD = 150 * 1024

# Move the keyboard focus to a point ("off" = the tray) with arrow keys only, the way the board lies.
PLACE = """(p) => p === 'off' ? [1, 12] : (p <= 12 ? [0, 12 - p] : [1, p - 13])"""


async def focused_point(page: Page) -> Any:
    raw = await page.evaluate("() => document.activeElement && document.activeElement.getAttribute('data-point')")
    return None if raw is None else raw if raw == "off" else int(raw)


async def arrow_to(page: Page, target: Any) -> None:
    for _ in range(40):
        here = await focused_point(page)
        if here == target:
            return
        (r0, c0), (r1, c1) = await page.evaluate(f"([a, b]) => [({PLACE})(a), ({PLACE})(b)]", [here, target])
        key = ("ArrowUp" if r1 < r0 else "ArrowDown") if r0 != r1 else ("ArrowLeft" if c1 < c0 else "ArrowRight")
        await page.keyboard.press(key)
    raise AssertionError(f"could not reach point {target} with the arrow keys")


async def test_a_phone_plays_one_move_with_the_keyboard_alone(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
):
    alice, bob, room, board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    mover: FakeUser = {"101": alice, "102": bob}[view.players[view.turn].user_id]
    page = await open_as(browser, mini_app_url(site, view.game_id, init_data(fake.token, mover.id, mover.first_name)),
                         view.version, viewport=PHONE, is_mobile=True, has_touch=True)
    width = await page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1] == 360, width  # no horizontal scroll at 360 px
    await page.wait_for_function(IDLE)
    for _ in range(3):  # Tab reaches the board's points
        await page.keyboard.press("Tab")
        if await focused_point(page) is not None:
            break
    assert await focused_point(page) is not None
    assert await page.locator('#board [tabindex="0"]').count() == 1  # arrows, not 25 Tab stops
    edits = len(board.history)
    while not await page.evaluate("() => FV.app.play.complete"):
        src = (await page.evaluate("() => FV.app.play.sources()"))[0]
        await arrow_to(page, src)
        await page.keyboard.press("Enter")
        assert await page.evaluate("() => FV.app.play.selected") == src
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "phone-play.png"), full_page=True)
        dst = (await page.evaluate(f"() => FV.app.play.targets({src})"))[0]
        await arrow_to(page, dst)
        await page.keyboard.press(" ")
        await page.wait_for_function(IDLE)
    for _ in range(4):  # on to the confirm button: the board is one stop in the Tab order
        if await page.evaluate("() => document.activeElement.id") == "confirm":
            break
        await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await page.wait_for_function(f"() => FV.app.state.version === {view.version + 1}")
    await fake.wait_for(lambda: len(board.history) > edits or None, timeout=5.0, what="the board edited")
    after = await game_view(core, actor_ref(alice), group_place(room))
    assert after.version == view.version + 1
    seat = view.turn
    assert await drawn_board(page, seat) == in_viewer_numbering(after.position_id, seat)  # from his side


async def test_the_first_load_weighs_at_most_150_kb(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
):
    alice, _bob, room, _board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    page = await browser.new_page(viewport=PHONE)
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("Network.enable")
    done: dict[str, int] = {}
    streamed: dict[str, int] = {}
    urls: dict[str, str] = {}
    cdp.on("Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
    cdp.on("Network.loadingFinished", lambda e: done.__setitem__(e["requestId"], int(e["encodedDataLength"])))
    cdp.on("Network.dataReceived", lambda e: streamed.__setitem__(
        e["requestId"], streamed.get(e["requestId"], 0) + int(e["encodedDataLength"])))
    await page.goto(site.page_url(view.game_id))
    await page.wait_for_selector("#conn.live")
    await asyncio.sleep(0.3)
    total = sum(done.get(r, streamed.get(r, 0)) for r in urls)
    print(f"first load: {total} bytes over {len(urls)} requests: "
          + ", ".join(f"{u.rsplit('/', 1)[-1][:24]}={done.get(r, streamed.get(r, 0))}" for r, u in urls.items()))
    assert len(urls) >= 8 and total <= MAX_FIRST_LOAD  # page, css, 6 scripts, state, events
    assert all(u.startswith(site.base) for u in urls.values())  # nothing from outside


async def test_mini_app_entry_by_start_param_in_greek(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
):
    alice, bob, room, _board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    mover: FakeUser = {"101": alice, "102": bob}[view.players[view.turn].user_id]
    await chat.say(mover, room, "/lang el")
    token = links.compact(site.key, view.game_id)  # what t.me/<bot>/<app>?startapp= carries
    data = init_data(fake.token, mover.id, mover.first_name, lang="el", start_param=token)
    page = await browser.new_page(viewport=PHONE)
    # the Telegram app's side of its web events, as the mobile apps expose it
    await page.add_init_script("window.__tg = []; window.TelegramWebviewProxy = "
                               "{postEvent: (type, data) => window.__tg.push(type)};")
    theme = quote('{"bg_color":"#102030","text_color":"#f0f0f0","hint_color":"bad;color"}', safe="")
    await page.goto(f"{site.base}/app#tgWebAppData={quote(data, safe='')}&tgWebAppVersion=7.0"
                    f"&tgWebAppThemeParams={theme}")
    await page.wait_for_function("() => window.FV && FV.app.state && FV.app.play && !FV.app.play.busy")
    assert await page.evaluate("() => FV.app.state.viewer.to_move") is True
    assert await page.evaluate("() => window.__tg") == ["web_app_ready", "web_app_expand"]
    assert await page.evaluate("() => document.documentElement.lang") == "el"
    assert (await page.inner_text("#status")).startswith("Σειρά σου · παίξε έως ")
    assert await page.inner_text("#confirm") == "Επιβεβαίωση"
    colours = await page.evaluate("() => [getComputedStyle(document.body).backgroundColor,"
                                  " getComputedStyle(document.body).color]")
    assert colours == ["rgb(16, 32, 48)", "rgb(240, 240, 240)"]  # Telegram's theme; a bad colour ignored
    ARTIFACTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / "mini-app-el.png"), full_page=True)


async def test_replay_and_the_dice_checked_in_the_browser_on_plain_http(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
):
    alice, bob, room, _board = await group_game(fake, chat, core)
    users = {"101": alice, "102": bob}


    rng = random.Random(5)
    view = await game_view(core, actor_ref(alice), group_place(room))
    positions = [view.position_id]  # the board after each turn, from the start
    for _ in range(3):
        mover = view.turn
        await chat.say(users[view.players[mover].user_id], room, a_legal_play(view, rng))
        view = await game_view(core, actor_ref(alice), group_place(room))
        positions.append(view.position_id)
        if view.turn == mover:  # the other side had no legal play: his turn passed, the board as it was
            positions.append(view.position_id)
    await chat.say(users[view.players[view.turn].user_id], room, "/resign yes")
    over = await game_view(core, actor_ref(alice), group_place(room))
    assert over.status != "play" or over.winner is not None
    await chat.say(alice, room, "/analyze")  # stored with the game: the page shows it

    page = await browser.new_page(viewport=PHONE)
    await page.goto(site.page_url(over.game_id, host=PLAIN_HOST))
    await page.wait_for_function("() => window.FV && FV.app.state && FV.app.state.over && FV.app.state.fair.seed")
    assert await page.evaluate("() => window.isSecureContext") is False  # so the fallback hash is used
    state = await page.evaluate("() => FV.app.state")
    fair = state["fair"]
    assert verify(fair["seed"], fair["commitment"], fair["rolls"])  # the engine agrees ...
    await page.click("#verify")
    await page.wait_for_selector("#verdict.good")  # ... and so does the browser
    ARTIFACTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / "finished.png"), full_page=True)
    assert state["analysis"] is not None and await page.is_visible("#analysis")
    rows = await page.locator("#analysis tbody tr").all_inner_texts()
    assert len(rows) == 2 and "Alice" in rows[0] + rows[1] and "Bob" in rows[0] + rows[1]
    assert str(len(fair["rolls"])) in await page.inner_text("#verdict")
    tampered = [list(r) for r in fair["rolls"]]
    tampered[-1] = [tampered[-1][1] % 6 + 1, tampered[-1][0]]
    bad = await page.evaluate("([s, c, r]) => FV.fair.verify(s, c, r)", [fair["seed"], fair["commitment"], tampered])
    assert bad["ok"] is False and bad["bad"] == len(tampered) - 1
    wrong = await page.evaluate("([s, c, r]) => FV.fair.verify(s, c, r)", ["00" * 32, fair["commitment"], []])
    assert wrong["ok"] is False and wrong["commitment_ok"] is False

    # our own SHA-256/HMAC against Python's, across the padding edges and a key longer than a block
    lengths = [0, 3, 55, 56, 63, 64, 65, 1000]
    mine = await page.evaluate("""(lengths) => lengths.map((n) => {
        const m = new Uint8Array(n).map((_, i) => (i * 7 + 1) & 255), k = new Uint8Array(100).map((_, i) => i);
        return [FV.fair.hex(FV.fair.sha256(m)), FV.fair.hex(FV.fair.hmac(k, m))];
      })""", lengths)
    for n, (digest, mac) in zip(lengths, mine, strict=True):
        data = bytes((i * 7 + 1) & 255 for i in range(n))
        assert digest == hashlib.sha256(data).hexdigest(), n
        assert mac == hmac.new(bytes(range(100)), data, hashlib.sha256).hexdigest(), n

    assert await page.evaluate("() => document.getElementById('slider').max") == str(len(positions) - 1)
    for i, pid in enumerate(positions):  # the slider shows the position after each turn
        await page.fill("#slider", str(i))
        assert await drawn_board(page, 0) == in_viewer_numbering(pid, 0), i
    assert await page.evaluate("() => FV.app.index") is None  # after the last turn: the live board
    await page.click("#prev")
    assert await page.evaluate("() => FV.app.index") == len(positions) - 2 and await page.is_visible("#tolive")
    await page.click("#tolive")
    assert await page.evaluate("() => FV.app.index") is None


async def test_a_page_without_a_game_says_so(site: Site, browser: Chromium):
    page = await browser.new_page(viewport=PHONE)
    await page.goto(f"{site.base}/app")  # the Mini App opened without a start_param: no game to name
    await page.wait_for_selector("#status.bad")
    assert await page.inner_text("#status") == translate("web_no_token", "en")
    # the pointer's hit test agrees with the drawing: every checker slot is on its own point
    misses = await page.evaluate("""() => {
        const bad = [];
        for (let p = 1; p <= 24; p++) for (let s = 0; s < 5; s++) {
          const [x, y] = FV.board.centre(p, s);
          if (FV.board.hit(x, y) !== p) bad.push([p, s]);
        }
        return bad;
      }""")
    assert misses == []
    await page.goto(f"{site.base}/app#tgWebAppData=garbage")
    await page.wait_for_selector("#status.bad")
    assert await page.inner_text("#status") == translate("web_no_token", "en")
