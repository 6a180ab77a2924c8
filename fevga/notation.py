"""Move notation: parse what a player types (``1/7 7/12``, ``1/7/12``, ``19/off``, ``1/6(2)``,
Greek letters, ``pass``) into a legal Play, and format plays back. Errors name the broken rule."""

from __future__ import annotations

import itertools
import re
import unicodedata

from .diagnose import explain_illegal, step_orders
from .errors import IllegalPlayError, NotationError
from .movegen import check_dice, legal_plays
from .play import Play, Step, apply_moves_unordered, format_play
from .position import Position
from .rules import DEFAULT_RULES, OFF, Rules
from .variants import AnyRules, TavliPosition, game_of
from .variants.diagnose import explain_tavli
from .variants.tavli import dice_pool, play_sequence

__all__ = ["ACCEPTED_FORMS", "GREEK_POINTS", "format_play", "parse_moves", "parse_play"]

GREEK_POINTS = "αβγδεζηθικλμνξοπρστυφχψω"
MAX_TEXT = 200
ACCEPTED_FORMS = (
    "write steps as from/to with your own point numbers, e.g. 1/7 7/12, a chain 1/7/12, "
    "19/off to bear off, 1/6(2) for a repeated step, Greek letters α/ζ, or pass"
)
_TOKEN = re.compile(r"^(?P<chain>[^()]+?)(?:\((?P<count>[^()]+)\))?$")
_OFF_WORDS = {"off", "o", "25", "εξω", "έξω", "βγαλε", "off."}
_BAR_WORDS = {"bar", "μπαρ", "μπάρα", "μπαρα"}


def _not_digits(token: str) -> NotationError:
    """The error for number signs that are not decimal digits (``7²``, ``½``, ``①``): ``int()`` refuses them."""
    return NotationError(f"{token!r} is not written in digits: {ACCEPTED_FORMS}", key="not_digits", token=token)


def _point(word: str, original: str, game: str) -> int:
    """One point of a chain: 1-24 (decimal digits of any script), a Greek letter, off (25), or in Portes ``bar`` (0)."""
    if word in _BAR_WORDS:
        if game == "portes":
            return 0
        raise NotationError(f"there is no bar in {game.capitalize()}", key="no_bar", game=game)
    if word.isdecimal():
        value = int(word)
        if 1 <= value <= 25:
            return value
        raise NotationError(
            f"there is no point {value}: points are 1-24 and off; {ACCEPTED_FORMS}", key="bad_point", point=word
        )
    if word in _OFF_WORDS:
        return OFF
    if any(ch.isnumeric() for ch in word):
        raise _not_digits(original)
    plain = "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))
    if len(plain) == 1 and plain in GREEK_POINTS:
        return GREEK_POINTS.index(plain) + 1
    if plain == "ς":
        return GREEK_POINTS.index("σ") + 1
    raise NotationError(f"I can't read {original!r}: {ACCEPTED_FORMS}", key="bad_token", token=original)


def parse_moves(text: str, game: str = "fevga") -> list[Step] | None:
    """Read the text into checker moves (from, to) in the order typed; None means ``pass``.

    Portes and Plakoto also take ``*`` after any landing (ignored) and Portes ``bar`` (point 0)."""
    if not isinstance(text, str):
        raise NotationError(f"a play is text: {ACCEPTED_FORMS}", key="bad_notation")
    if len(text) > MAX_TEXT:
        raise NotationError(f"that play is too long (at most {MAX_TEXT} characters)", key="too_long")
    cleaned = text.strip().lower().replace("\\", "/").replace("-", "/")
    tokens = [t for t in re.split(r"[\s,;]+", cleaned) if t]
    if not tokens:
        raise NotationError(f"the play is empty: {ACCEPTED_FORMS}", key="empty_play")
    if tokens in (["pass"], ["πασο"], ["πάσο"]):
        return None
    moves: list[Step] = []
    for token in tokens:
        match = _TOKEN.match(token.rstrip("*") if game == "fevga" else token.replace("*", ""))
        if not match:
            raise NotationError(f"I can't read {token!r}: {ACCEPTED_FORMS}", key="bad_token", token=token)
        parts = match.group("chain").split("/")
        if len(parts) < 2 or any(not p for p in parts):
            raise NotationError(f"I can't read {token!r}: {ACCEPTED_FORMS}", key="bad_token", token=token)
        points = [_point(p, token, game) for p in parts]
        repeat = match.group("count") or "1"
        if not repeat.isdecimal():
            if any(ch.isnumeric() for ch in repeat):
                raise _not_digits(token)
            raise NotationError(f"I can't read {token!r}: {ACCEPTED_FORMS}", key="bad_token", token=token)
        count = int(repeat) if len(repeat) <= 2 else 0
        if not 1 <= count <= 4:
            raise NotationError(f"a repeat count is 1 to 4, in {token!r}", key="bad_repeat", token=token)
        chain: list[Step] = []
        for src, dst in itertools.pairwise(points):
            if src == OFF:
                raise NotationError(f"a checker cannot move from off, in {token!r}", key="from_off", token=token)
            if dst == 0:
                raise NotationError(f"a checker cannot move to the bar, in {token!r}", key="to_bar", token=token)
            if dst <= src:
                raise NotationError(
                    f"checkers only move forward (to a higher point): {src}/{dst} goes backwards",
                    key="backwards",
                    src=src,
                    dst=dst,
                )
            chain.append((src, dst))
        moves.extend(chain * count)
        if len(moves) > 8:
            raise NotationError("that is more steps than any roll allows", key="too_many_steps")
    return moves


def parse_play(
    text: str,
    position: Position,
    dice: tuple[int, int],
    rules: AnyRules = DEFAULT_RULES,
    *,
    plays: list[Play] | None = None,
) -> Play:
    """The legal play that ``text`` describes, in any step order; raise a ValueError saying why not.

    ``plays`` are the legal plays of ``position`` and ``dice`` when the caller has them already
    (``Board.parse`` passes its cache), so they are not generated again.
    """
    dice = check_dice(dice)
    game = game_of(position)
    moves = parse_moves(text, game)
    if plays is None:
        plays = legal_plays(position, dice, rules)
    if moves is None:
        if plays[0].is_pass:
            return plays[0]
        raise IllegalPlayError(
            f"you cannot pass: you have a legal play, e.g. {format_play(plays[0])}",
            key="cannot_pass",
            rule="pass",
            example=format_play(plays[0]),
        )
    if plays[0].is_pass:
        raise IllegalPlayError(
            "you have no legal play with these dice: type pass", key="must_pass", rule="pass"
        )
    if game != "fevga":
        return _match_tavli(position, dice, moves, plays)
    assert isinstance(rules, Rules), "a Fevga position takes Fevga rules"
    result = apply_moves_unordered(position, tuple(moves))
    if result is not None:
        for play in plays:
            if play.result == result:
                return play
    raise explain_illegal(position, dice, rules, moves, plays)


def _match_tavli(position: Position, dice: tuple[int, int], moves: list[Step], plays: list[Play]) -> Play:
    """The Portes/Plakoto play the typed moves make in some order of their steps, matched by the whole
    position left (both sides); an error when they make two different plays (a hit or pin on another
    checker on the way: the landing points must be written) or none (naming the broken rule)."""
    assert isinstance(position, TavliPosition)
    by_result = {p.result: p for p in plays}
    found: dict[Position, Play] = {}
    for seq in step_orders(moves, dice_pool(dice)):
        result, _code, _done = play_sequence(position, seq)
        if result is not None and (play := by_result.get(result)) is not None:
            found[result] = play
    if len(found) == 1:
        return next(iter(found.values()))
    if found:
        options = " or ".join(format_play(p, compact=True) for p in plays if p.result in found)
        raise IllegalPlayError(
            f"that can be played {len(found)} ways ({options}): write the points it lands on",
            key="ambiguous_play",
            rule="notation",
            count=len(found),
            options=options,
        )
    raise explain_tavli(position, dice, moves, plays)
