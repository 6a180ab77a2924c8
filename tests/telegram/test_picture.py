"""Through the real Telegram stack: each step re-uploads a picture showing it, the caption lists the steps,
and a whole-play button plays the move in one tap."""

from __future__ import annotations

from bot.chat.presenter import steps_text
from tests.fakes.telegram import FakeTelegram

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place
from .scenes import check_board, group_game


async def test_steps_show_on_the_board_and_a_play_button_plays(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice, bob, room, board = await group_game(fake, chat, core)
    users = {"101": alice, "102": bob}
    view = await game_view(core, actor_ref(alice), group_place(room))
    mover = users[view.players[view.turn].user_id]
    before = board.photo
    await chat.press(mover, board, core.tokens("step")[0])
    stepped = await game_view(core, actor_ref(alice), group_place(room))
    assert len(stepped.pending) == 1 and board.history[-1].method == "editMessageMedia"
    assert board.photo != before  # a new picture was uploaded, not the same bytes again
    check_board(board, stepped)  # ... showing the checker moved
    assert f"{steps_text(stepped.pending)} — " in board.content
    await chat.press(mover, board, core.tokens("undo")[0])
    assert board.photo == before and "→" not in board.content
    labels = {b.token: b.label for b in core.last_board().buttons if b.kind == "play"}
    assert labels, "an opening roll of Fevga allows only a few plays"
    token, label = sorted(labels.items())[0]
    assert label in {b["text"] for row in board.reply_markup["inline_keyboard"] for b in row}  # type: ignore[index]
    await chat.press(mover, board, token)
    played = await game_view(core, actor_ref(alice), group_place(room))
    assert played.version > stepped.version and played.last_mover == view.turn
    assert label == "Play " + " ".join(f"{a}/{'off' if b == 25 else b}" for a, b in played.last_steps)
    check_board(board, played)
