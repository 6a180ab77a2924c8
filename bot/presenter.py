"""Turn a service Result into Replies: translated text, the board picture and text board, buttons."""

from __future__ import annotations

import asyncio
import logging

from bot.analysis_reply import analysis_reply
from bot.button_kinds import ButtonKind
from bot.buttons import encode
from bot.i18n import catalogue, translate
from bot.replies import Button, Reply
from bot.service.models import Action, GameView, PlayerRef, Result
from fevga import Position
from renderers import BoardScene, render_board, render_text
from renderers.labels import DEFAULT_LABELS

log = logging.getLogger(__name__)

STYLES: dict[ButtonKind, str] = {
    ButtonKind.ACCEPT: "success",
    ButtonKind.CONFIRM: "success",
    ButtonKind.DECLINE: "danger",
    ButtonKind.RESIGN: "danger",
    ButtonKind.RESIGN_CONFIRM: "danger",
    ButtonKind.STEP: "primary",
}
RICH = ("export", "record", "analysis")  # messages shown as their own reply, not as a line of text
ROWS: dict[ButtonKind, int] = {
    ButtonKind.STEP: 0, ButtonKind.UNDO: 1, ButtonKind.CONFIRM: 1,
    ButtonKind.ACCEPT: 0, ButtonKind.DECLINE: 0, ButtonKind.CANCEL: 0,
}


def perspective_for(view: GameView, actor: PlayerRef | None) -> int:
    """Whose numbering the board is drawn in: a human facing the AI, else the player to move (he types
    in his own numbering), at the end the actor or the winner."""
    ai = [p.platform == "ai" for p in view.players]
    if ai[0] != ai[1]:
        return 1 if ai[0] else 0
    if view.status == "play":
        return view.turn
    if actor is not None:
        for seat, player in enumerate(view.players):
            if player.same(actor):
                return seat
    return view.winner if view.winner is not None else 0


def board_labels(lang: str) -> tuple[tuple[str, str], ...]:
    """The words drawn on the board, from the catalogue of ``lang``."""
    own, english = catalogue(lang), catalogue("en")
    return tuple(
        (key, own.get(f"board_{key}") or english.get(f"board_{key}") or text) for key, text in DEFAULT_LABELS.items()
    )


def scene_for(view: GameView, lang: str = "en") -> BoardScene:
    over = view.status != "play" or view.winner is not None
    return BoardScene(
        position=Position.from_id(view.position_id),
        turn=None if over else view.turn,
        dice=None if over else view.dice,
        names=view.names,
        last_play_steps=view.last_steps,
        last_mover=view.last_mover,
        match_length=view.match_length,
        score=view.score,
        winner=view.winner,
        mars=view.mars,
        labels=board_labels(lang),
    )


def caption(view: GameView, lang: str) -> str:
    """One line: the players, the score, whose turn with which dice (or who won)."""
    names = view.names
    head = f"{names[0]} – {names[1]}"
    if view.match_length > 1:
        head += f"  ({view.score[0]}-{view.score[1]} / {view.match_length})"
    if view.status == "play" and view.winner is None:
        dice = f"{view.dice[0]}-{view.dice[1]}" if view.dice else ""
        return head + "  · " + translate("caption_turn", lang, player=names[view.turn], dice=dice)
    if view.winner is not None:
        return head + "  · " + translate("caption_won", lang, player=names[view.winner], points=view.points)
    return head


def button(action: Action, lang: str) -> Button:
    """The button for one service action: its translated label, its token, and where it goes."""
    payload = action.payload
    label = translate(action.label_key, lang, **payload)
    token = encode(
        action.kind, action.game_id, action.version, int(payload.get("from_point", 0)), int(payload.get("die", 0))
    )
    return Button(label, token, action.kind, STYLES.get(action.kind, "secondary"), ROWS.get(action.kind, 2))


async def present(result: Result, lang: str, actor: PlayerRef | None = None, *, draw: bool = True) -> list[Reply]:
    """The replies for one result. Errors are private; a result with a game view becomes its board."""
    text = "\n".join(translate(m.key, lang, **m.args) for m in result.messages if m.key not in RICH)
    buttons = tuple(button(a, lang) for a in result.actions)
    if not result.ok:
        return [Reply(text=text, private=True, error=True, code=result.error_key)]
    replies: list[Reply] = []
    for msg in result.messages:
        if msg.key == "export":
            document = str(msg.args.get("text", "")).encode()
            name = str(msg.args.get("filename", "fevga.mat"))
            replies.append(Reply(text=translate("export", lang, **msg.args), document=document, document_name=name))
        elif msg.key == "analysis":
            replies.append(await analysis_reply(msg.args, lang, draw=draw))
    view = result.view
    if view is None:
        if text or buttons:
            replies.insert(0, Reply(text=text, buttons=buttons, mention=tuple(result.to_notify)))
        return replies
    scene = scene_for(view, lang)
    seat = perspective_for(view, actor)
    image = await asyncio.to_thread(render_board, scene, seat) if draw else None
    board = Reply(
        text=text,
        image=image,
        image_name="board.png" if image else None,
        buttons=buttons,
        game_id=view.game_id,
        version=view.version,
        caption=caption(view, lang),
        board_text=render_text(scene, seat),
        mention=tuple(result.to_notify),
    )
    return [board, *replies]


async def present_safely(result: Result, lang: str, actor: PlayerRef | None = None, *,
                         draw: bool = True) -> list[Reply]:
    """Like :func:`present`, but drawing a result that is already saved can never turn it into an error
    reply: on a failure the result's text is sent without the picture, and failing that a plain "saved;
    the board will be shown shortly"."""
    try:
        return await present(result, lang, actor, draw=draw)
    except Exception:
        log.exception("presenting a result failed; sending its text only")
    try:
        text = "\n".join(translate(m.key, lang, **m.args) for m in result.messages
                         if m.key not in RICH)
        if not result.ok:
            return [Reply(text=text, private=True, error=True, code=result.error_key)]
        if result.view is not None or not text:
            text = "\n".join(t for t in (text, translate("saved_board_later", lang)) if t)
        return [Reply(text=text, mention=tuple(result.to_notify))]
    except Exception:
        log.exception("even the plain text of a result failed")
        return [Reply(text=translate("saved_board_later", lang) if result.ok else translate("internal_error", lang),
                      private=not result.ok, error=not result.ok)]
