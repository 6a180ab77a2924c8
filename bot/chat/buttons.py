"""Button tokens: a service Action packed into a short string (≤ 64 bytes, Telegram's limit) and back.

A token carries the kind, the game (or challenge) id and the state version, so a stale or forged
button is recognised and changes nothing. Decoding gives the same typed intent as the text the button
stands for, which then runs through the one executor (``bot.commands.executor``).
"""

from __future__ import annotations

from typing import assert_never

from bot.commands import intents as i
from bot.commands.numbers import whole_number
from bot.commands.puzzle_intents import PuzzleStep
from bot.delivery.replies import TOKEN_MAX_BYTES
from bot.service.button_kinds import ButtonKind
from bot.service.play_codes import play_text, steps_of

CODES: dict[ButtonKind, str] = {
    ButtonKind.ACCEPT: "A",
    ButtonKind.DECLINE: "D",
    ButtonKind.CANCEL: "C",
    ButtonKind.STEP: "S",
    ButtonKind.PLAY: "P",
    ButtonKind.UNDO: "U",
    ButtonKind.CONFIRM: "K",
    ButtonKind.RESIGN: "R",
    ButtonKind.RESIGN_CONFIRM: "Y",
    ButtonKind.RESIGN_MATCH_CONFIRM: "W",
    ButtonKind.REMATCH: "M",
    ButtonKind.CLAIM: "L",
    ButtonKind.ABORT: "B",
    ButtonKind.HINT: "H",
}
KINDS: dict[str, ButtonKind] = {code: kind for kind, code in CODES.items()}
PUZZLE = "Z"  # a puzzle's step (or undo) button: its own token form, laid out as a step (undo) button


def _is_id(text: str) -> bool:
    """Letters, digits, ``-`` and ``_`` only (a game, challenge, puzzle or user id)."""
    return all(ch.isalnum() or ch in "-_" for ch in text)


def encode_puzzle(pid: str, owner: str, steps: str) -> str:
    """``Z.<puzzle>.<owner>.<steps>`` (``bot.service.play_codes.steps_code``; the owner empty on the shared post);
    raise ValueError if it would not fit a button."""
    token = ".".join([PUZZLE, pid, owner, steps])
    if not pid or not _is_id(pid) or not _is_id(owner) or steps_of(steps) is None:
        raise ValueError(f"not a puzzle button: {token!r}")
    if len(token.encode()) > TOKEN_MAX_BYTES:
        raise ValueError("button token too long")
    return token


def is_puzzle(token: str) -> bool:
    """Whether a token is a puzzle's step button (kept under a daily puzzle's post; timers' notices drop the rest)."""
    return token.startswith(PUZZLE + ".")


def _decode_puzzle(parts: list[str]) -> PuzzleStep | None:
    """The intent of a puzzle button's parts (see :func:`encode_puzzle`), or None."""
    if len(parts) != 4 or not parts[1] or not _is_id(parts[1]) or not _is_id(parts[2]):
        return None
    path = steps_of(parts[3])
    return None if path is None else PuzzleStep(pid=parts[1], owner=parts[2], path=path)


def encode(kind: ButtonKind, game_id: str, version: int, from_point: int = 0, die: int = 0, play: str = "") -> str:
    """``S.<game>.<version>.<from>.<die>``, ``P.<game>.<version>.<play code>`` (other kinds:
    ``<code>.<game>.<version>``); raise ValueError if it would not fit a button."""
    parts = [CODES[kind], game_id, str(version)]
    if kind is ButtonKind.STEP:
        parts += [str(from_point), str(die)]
    elif kind is ButtonKind.PLAY:
        if play_text(play) is None:
            raise ValueError(f"not a play code: {play!r}")
        parts.append(play)
    token = ".".join(parts)
    if len(token.encode()) > TOKEN_MAX_BYTES:
        raise ValueError("button token too long")
    return token


def intent_of(
    kind: ButtonKind, game_id: str, version: int, from_point: int = 0, die: int = 0, play: str = "pass"
) -> i.Intent:
    """The intent a button of ``kind`` stands for: the same one its text command gives, plus the button's
    game (or challenge) and version. Every kind has one (mypy checks the match is exhaustive)."""
    match kind:
        case ButtonKind.STEP:
            return i.Step(game_id, version, from_point, die)
        case ButtonKind.PLAY:
            return i.Move(play, game_id, version)
        case ButtonKind.ACCEPT:
            return i.Accept(game_id)
        case ButtonKind.DECLINE:
            return i.Decline(game_id)
        case ButtonKind.CANCEL:
            return i.Cancel(game_id)
        case ButtonKind.UNDO:
            return i.Undo(game_id, version)
        case ButtonKind.CONFIRM:
            return i.Confirm(game_id, version)
        case ButtonKind.RESIGN:
            return i.ResignPrompt(game_id, version)
        case ButtonKind.RESIGN_CONFIRM:
            return i.Resign(game_id=game_id, version=version)
        case ButtonKind.RESIGN_MATCH_CONFIRM:
            return i.Resign(whole_match=True, game_id=game_id, version=version)
        case ButtonKind.REMATCH:
            return i.Rematch(game_id)
        case ButtonKind.CLAIM:
            return i.Claim(game_id)
        case ButtonKind.ABORT:
            return i.Abort(game_id)
        case ButtonKind.HINT:
            return i.Hint(game_id)
        case _:
            assert_never(kind)


def decode(token: object) -> i.Intent | None:
    """The intent a token stands for, or None for anything that is not a token of ours."""
    if not isinstance(token, str) or len(token.encode()) > TOKEN_MAX_BYTES:
        return None
    parts = token.split(".")
    if parts[0] == PUZZLE:
        return _decode_puzzle(parts)
    if len(parts) < 3 or parts[0] not in KINDS or not parts[1]:
        return None
    kind, game_id = KINDS[parts[0]], parts[1]
    if not _is_id(game_id):
        return None
    play = "pass"
    if kind is ButtonKind.PLAY:  # its last part is a play code (digits with leading zeros), not a number
        text = play_text(parts[3]) if len(parts) == 4 else None
        if text is None:
            return None
        play, parts = text, parts[:3]
    numbers = [whole_number(part) for part in parts[2:]]
    if any(n is None or n < 0 for n in numbers):
        return None
    if kind is ButtonKind.STEP:
        if len(parts) != 5:
            return None
        version, from_point, die = (int(n or 0) for n in numbers)
        if not (0 <= from_point <= 24 and 1 <= die <= 6):  # 0: the bar (Portes)
            return None
        return intent_of(kind, game_id, version, from_point, die)
    if len(parts) != 3:
        return None
    return intent_of(kind, game_id, int(numbers[0] or 0), play=play)
