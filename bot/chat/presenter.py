"""Turn a service Result into Replies: translated text, the board picture and text board, buttons."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from functools import lru_cache

from bot.chat.analysis_reply import analysis_reply
from bot.chat.buttons import encode, encode_puzzle
from bot.chat.draw_pool import draw_board
from bot.chat.puzzle_reply import PUZZLE_KEYS, puzzle_reply
from bot.chat.standings_reply import standings_picture
from bot.delivery.replies import Button, Reply
from bot.i18n import (
    COMMAND_FORMS,
    PLATFORM_WORDS,
    catalogue,
    display_name,
    generation,
    greek_agreeing,
    has,
    translate,
)
from bot.service.button_kinds import ButtonKind
from bot.service.models import Action, GameView, Msg, PlayerRef, Result
from fevga.rules import OFF
from fevga.variants import any_position_from_id
from renderers import BoardScene, render_text
from renderers.labels import DEFAULT_LABELS

log = logging.getLogger(__name__)

STYLES: dict[ButtonKind, str] = {
    ButtonKind.ACCEPT: "success",
    ButtonKind.CONFIRM: "success",
    ButtonKind.DECLINE: "danger",
    ButtonKind.RESIGN: "danger",
    ButtonKind.RESIGN_CONFIRM: "danger",
    ButtonKind.RESIGN_MATCH_CONFIRM: "danger",
    ButtonKind.STEP: "primary",
    ButtonKind.PLAY: "primary",
}
RICH = ("export", "record", "analysis", *PUZZLE_KEYS)  # messages shown as their own reply, not as a line of text
ROWS: dict[ButtonKind, int] = {
    ButtonKind.STEP: 0, ButtonKind.PLAY: 0, ButtonKind.UNDO: 1, ButtonKind.CONFIRM: 1,
    ButtonKind.ACCEPT: 0, ButtonKind.DECLINE: 0, ButtonKind.CANCEL: 0,
}


SUBJECT = {"game_started": "starter"}  # the argument naming whom a message is about (else "player")


def context_words(platform: str | None, lang: str) -> dict[str, str]:
    """The platform's words for ``{here}``, ``{elsewhere}``, ``{scope}`` and ``{slash}`` in ``lang``: a Telegram
    "chat" is a Discord "channel"; its leaderboard is the group's, not the server's. Also the commands in the
    form that reaches the bot in a group there (``{puzzle_cmd}``: ``/puzzle`` on Telegram)."""
    kind = platform if platform in ("discord", "telegram", "terminal") else "discord"
    words = {word: translate(f"word_{word}_{kind}", lang) for word in PLATFORM_WORDS}
    return {**words, **{name: forms.get(kind, forms["any"]) for name, forms in COMMAND_FORMS.items()}}


def message_text(msg: Msg, lang: str, words: dict[str, str], you: str | None = None) -> str:
    """One message in ``lang``, with the platform words; about ``you`` (the terminal's own player) it uses
    the second-person form ``<key>_you`` when there is one ("You start", not "You starts")."""
    key = msg.key
    if you is not None and msg.args.get(SUBJECT.get(key, "player")) == you and has(f"{key}_you", lang):
        key = f"{key}_you"
    return translate(key, lang, **{**words, **msg.args})


def result_words(result: Result, lang: str, actor: PlayerRef | None = None) -> dict[str, str]:
    """The platform words of the actor's platform (else the result's place's) in ``lang``."""
    platform = actor.platform if actor is not None else result.place.platform if result.place else None
    return context_words(platform, lang)


def texts(result: Result, lang: str, actor: PlayerRef | None = None, you: str | None = None) -> str:
    """The result's messages (but the rich ones) as lines of text in ``lang``."""
    words = result_words(result, lang, actor)
    return "\n".join(message_text(m, lang, words, you) for m in result.messages if m.key not in RICH)


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


WON_LABELS = tuple(key for key in DEFAULT_LABELS if key.split("_")[0] in ("banner", "result", "wins"))  # any kind
YOU_ROLES = {"won": WON_LABELS, "turn": ("to_play", "turn_dice"), "last": ("last",)}  # winner, mover, last mover


def agreed_labels(labels: tuple[tuple[str, str], ...], names: dict[str, str | None]) -> tuple[tuple[str, str], ...]:
    """Greek board words about one of the bot's own masculine names (``names``: the winner's, the mover's, the
    last mover's, by role) with "ο", not "ο/η" ("Παίζει ο Υπολογιστής (μέτριο)")."""
    who = {key: name for role, name in names.items() if name for key in YOU_ROLES[role]}
    return tuple((key, greek_agreeing(text, name=who[key]) if key in who else text) for key, text in labels)


def board_labels(lang: str, you_won: bool = False, you_turn: bool = False, you_last: bool = False,
                 ) -> tuple[tuple[str, str], ...]:
    """The words drawn on the board, from the catalogue of ``lang``; ``you_won`` (``you_turn``, ``you_last``):
    the winner (the player to move, the last to move) is the terminal's own player, so the words about him
    read in the second person ("You win", "Παίζεις εσύ"). Looked up once per catalogue version."""
    roles = frozenset(role for role, on in (("won", you_won), ("turn", you_turn), ("last", you_last)) if on)
    return _board_labels(lang, roles, generation())


@lru_cache(maxsize=64)
def _board_labels(lang: str, roles: frozenset[str], _generation: int) -> tuple[tuple[str, str], ...]:
    """:func:`board_labels` for one version of the catalogues."""
    own, english = catalogue(lang), catalogue("en")
    yours = {key for role in roles for key in YOU_ROLES[role]}

    def forms(key: str) -> list[str]:
        return [f"board_{key}_you", f"board_{key}"] if key in yours else [f"board_{key}"]

    return tuple(
        (key, next((c[f] for f in forms(key) for c in (own, english) if f in c), text))
        for key, text in DEFAULT_LABELS.items()
    )


def dice_used(view: GameView) -> tuple[int, ...]:
    """The dice the pending steps spent: the roll's dice (four of a double) less those left."""
    if view.dice is None or not view.pending:
        return ()
    left = list(view.dice_left)
    used: list[int] = []
    for die in list(view.dice) * (2 if view.dice[0] == view.dice[1] else 1):
        if die in left:
            left.remove(die)
        else:
            used.append(die)
    return tuple(used)


def steps_text(steps: tuple[tuple[int, int], ...]) -> str:
    """Steps as the buttons show them: ``1→7, 7→12``, ``20→off`` to bear off, ``bar→3`` to enter (Portes)."""
    return ", ".join(f"{'bar' if a == 0 else a}→{'off' if b == OFF else b}" for a, b in steps)


def scene_for(view: GameView, lang: str = "en", you: str | None = None) -> BoardScene:
    """The picture's scene for a view in ``lang``, the turn being built included."""
    over = view.status != "play" or view.winner is not None or view.drawn
    you_won = you is not None and view.winner is not None and view.names[view.winner] == you
    you_turn = you is not None and not over and view.names[view.turn] == you
    you_last = you is not None and view.last_mover is not None and view.names[view.last_mover] == you
    shown = (display_name(view.names[0], lang), display_name(view.names[1], lang))
    return BoardScene(
        position=any_position_from_id(view.position_id),
        turn=None if over else view.turn,
        dice=None if over else view.dice,
        names=shown,
        last_play_steps=view.last_steps,
        last_play_hits=view.last_hits if len(view.last_hits) == len(view.last_steps) else (),
        last_mover=view.last_mover,
        match_length=view.match_length,
        score=view.score,
        winner=view.winner,
        mars=view.mars,
        mother=view.mother,
        resigned=view.resigned and view.winner is not None,
        points=min(view.points, 3) if view.winner is not None else 0,
        labels=agreed_labels(board_labels(lang, you_won, you_turn, you_last), {
            "won": None if view.winner is None else shown[view.winner], "turn": None if over else shown[view.turn],
            "last": None if view.last_mover is None else shown[view.last_mover]}) if lang == "el" else
        board_labels(lang, you_won, you_turn, you_last),
        pending_steps=() if over else view.pending,
        dice_used=() if over else dice_used(view),
        match_kind=view.kind,
        game_number=view.game_no,  # said on the match line of Portes, Plakoto and tavli boards
        drawn=view.drawn and view.winner is None,
    )


def caption(view: GameView, lang: str, you: str | None = None) -> str:
    """One line: the players, the score, whose turn with which dice (or who won)."""
    names = view.names
    head = f"{display_name(names[0], lang)} – {display_name(names[1], lang)}"
    if view.match_length > 1:
        head += f"  ({view.score[0]}-{view.score[1]} / {view.match_length})"
    if not view.rated and all(p.platform != "ai" for p in view.players):  # said on every board of the match
        head += "  · " + translate("caption_unrated", lang)
    if view.drawn and view.winner is None:  # a drawn Plakoto game shown as it ended (both mothers pinned)
        return head + "  · " + translate("caption_drawn", lang)
    if view.status == "play" and view.winner is None:
        dice = f"{view.dice[0]}-{view.dice[1]}" if view.dice else ""
        line = head + "  · " + translate("caption_turn", lang, player=names[view.turn], dice=dice)
        if view.pending:
            key = "caption_steps_done" if view.pending_complete else "caption_steps_next"
            line += "  · " + translate(key, lang, steps=steps_text(view.pending))
        return line
    won = view.match_winner
    if view.status == "done" and won is not None and view.match_length > 1 and view.score[won] < view.match_length:
        key = "caption_match_won_you" if you is not None and names[won] == you else "caption_match_won"  # ended early
        return head + "  · " + translate(key, lang, player=names[won])
    if view.winner is not None:
        key = "caption_won_you" if you is not None and names[view.winner] == you else "caption_won"
        return head + "  · " + translate(key, lang, player=names[view.winner], points=view.points)
    return head


def button(action: Action, lang: str) -> Button:
    """The button for one service action: its translated label, its token, and where it goes."""
    payload = action.payload
    label = translate(action.label_key, lang, **payload)
    if "puzzle" in payload:  # a puzzle's step or undo: the puzzle, its owner and the steps clicked in the token
        token = encode_puzzle(action.game_id, str(payload.get("owner", "")), str(payload["puzzle"]))
    else:
        token = encode(
            action.kind, action.game_id, action.version, int(payload.get("from_point", 0)),
            int(payload.get("die", 0)), play=str(payload.get("code", "")),
        )
    return Button(label, token, action.kind, STYLES.get(action.kind, "secondary"), ROWS.get(action.kind, 2))


async def present(result: Result, lang: str, actor: PlayerRef | None = None, *, draw: bool = True,
                  you: str | None = None, text_board: bool = True) -> list[Reply]:
    """The replies for one result. Errors are private; a result with a game view becomes its board.
    ``you``: the name addressed in the second person (the terminal's player); ``text_board``: also write the
    board as text (the terminal shows it; the chats, which post the picture, need not pay for it)."""
    text = texts(result, lang, actor, you)
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
            replies.append(await analysis_reply(msg.args, lang, draw=draw, labels=board_labels(lang)))
        elif msg.key in PUZZLE_KEYS:  # the result's other lines (and its step buttons) go with the puzzle
            shown = await puzzle_reply(msg.key, msg.args, lang, text, draw=draw, labels=board_labels(lang),
                                       words=result_words(result, lang, actor))
            replies.append(replace(shown, buttons=buttons) if msg.key != "puzzle_verdict" else shown)
            buttons = () if msg.key != "puzzle_verdict" else buttons
            text = ""
    view = result.view
    if view is None:
        if text or buttons:
            table = await asyncio.to_thread(standings_picture, result.messages, lang) if draw else None
            replies.insert(0, Reply(text=text, buttons=buttons, mention=tuple(result.to_notify), image=table,
                                    image_name="standings.png" if table else None))
        return replies
    scene = scene_for(view, lang, you)
    seat = perspective_for(view, actor)
    image = await draw_board(scene, seat) if draw else None  # a thread, or a drawing process (draw_pool.py)
    board = Reply(
        text=text,
        image=image,
        image_name="board.png" if image else None,
        buttons=buttons,
        game_id=view.game_id,
        version=view.version,
        caption=caption(view, lang, you),
        board_text=render_text(scene, seat) if text_board else None,
        mention=tuple(result.to_notify),
        lang=lang,
    )
    return [board, *replies]


async def present_safely(result: Result, lang: str, actor: PlayerRef | None = None, *,
                         draw: bool = True, you: str | None = None, text_board: bool = True) -> list[Reply]:
    """Like :func:`present`, but drawing a result that is already saved can never turn it into an error
    reply: on a failure the result's text is sent without the picture, and failing that a plain "saved;
    the board will be shown shortly"."""
    try:
        return await present(result, lang, actor, draw=draw, you=you, text_board=text_board)
    except Exception:
        log.exception("presenting a result failed; sending its text only")
    try:
        text = texts(result, lang, actor, you)
        if not result.ok:
            return [Reply(text=text, private=True, error=True, code=result.error_key)]
        if result.view is not None or not text:
            text = "\n".join(t for t in (text, translate("saved_board_later", lang)) if t)
        return [Reply(text=text, mention=tuple(result.to_notify))]
    except Exception:
        log.exception("even the plain text of a result failed")
        return [Reply(text=translate("saved_board_later", lang) if result.ok else translate("internal_error", lang),
                      private=not result.ok, error=not result.ok)]
