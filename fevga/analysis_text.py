"""The analysis as text: a one-line summary and a short report for the terminal chat.

Every word comes from ``WORDS`` (English); the bot can pass its own translations of the same keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .analysis import Move, PlayerReport, Report

WORDS: dict[str, str] = {
    "first_player": "{name}: error rate {rate} ({band})",
    "other_player": "{name}: {rate} ({band})",
    "no_decisions": "{name}: no decisions to judge",  # only forced turns: no error rate, no band
    "blunders_one": "{n} blunder",
    "blunders_many": "{n} blunders",
    "no_blunders": "no blunders",
    "luck": "luckier: {name}, by {luck}",  # the difference of the two players' luck
    "luck_even": "luck even",
    "separator": "; ",  # between the summary's parts (Greek writes "· ": its ";" is a question mark)
    "title": "Analysis by {judge}, in points",
    "title_match": "Analysis by {judge}, at the match score (+1 a single win, -1 a single loss)",
    "player": (
        "{name}: {n} decisions ({forced} forced), error rate {rate} ({band}), {errors} errors, {blunders} blunders"
    ),
    "player_none": "{name}: no decisions to judge ({forced} forced)",
    "player_luck": "  luck {luck}, luck-adjusted result {adjusted}",
    "player_luck_running": "  luck {luck}",
    "worst": "  turn {turn}, {dice}: played {played} ({played_eq}), best {best} ({best_eq}), loss {loss} {mark}",
    "result": "Result: {name} {points}",
    "band_world_class": "world class",
    "band_expert": "expert",
    "band_advanced": "advanced",
    "band_intermediate": "intermediate",
    "band_casual": "casual",
    "band_beginner": "beginner",
}


def _w(words: Mapping[str, str], key: str, **args: object) -> str:
    """One phrase, from ``words`` or the English default."""
    return (words.get(key) or WORDS[key]).format(**args)


def signed(value: float, digits: int = 3) -> str:
    """An equity with its sign (``+0.412``, ``-0.080``)."""
    return f"{value:+.{digits}f}"


def band_name(player: PlayerReport, words: Mapping[str, str] = WORDS) -> str:
    """The player's band in words."""
    return _w(words, f"band_{player.band}")


def _blunders(n: int, words: Mapping[str, str]) -> str:
    """The blunder count in words (none, one, many)."""
    phrase = "no_blunders" if n == 0 else "blunders_one" if n == 1 else "blunders_many"
    return _w(words, phrase, n=n)


def summary(report: Report, names: Sequence[str], words: Mapping[str, str] = WORDS) -> str:
    """One line: both error rates with their bands and blunders (a player without decisions has
    neither), and who had more luck than the other, by how much.

    ``Alice: error rate 6.2 (expert), 1 blunder; Bob: 11.8 (advanced), 3 blunders; luckier: Alice, by 0.4``
    """
    parts = []
    for seat, player in enumerate(report.players):
        if player.decisions == 0:
            parts.append(_w(words, "no_decisions", name=names[seat]))
            continue
        phrase = "first_player" if seat == 0 else "other_player"
        head = _w(words, phrase, name=names[seat], rate=f"{player.error_rate:.1f}", band=band_name(player, words))
        parts.append(f"{head}, {_blunders(player.blunders, words)}")
    net = round(report.players[0].luck - report.players[1].luck, 1)
    if net == 0:
        parts.append(_w(words, "luck_even"))
    else:
        parts.append(_w(words, "luck", name=names[0 if net > 0 else 1], luck=f"{abs(net):.1f}"))
    return _w(words, "separator").join(parts)


def _move_line(move: Move, words: Mapping[str, str]) -> str:
    """One worst move as a text line."""
    return _w(
        words,
        "worst",
        turn=move.index + 1,
        dice=f"{move.dice[0]}-{move.dice[1]}",
        played=move.played,
        played_eq=signed(move.played_equity),
        best=move.best,
        best_eq=signed(move.best_equity),
        loss=f"{move.loss:.3f}",
        mark=move.mark,
    ).rstrip()


def _player_line(player: PlayerReport, name: str, words: Mapping[str, str]) -> str:
    """A player's figures; with only forced turns, no error rate or band (there was nothing to judge)."""
    if player.decisions == 0:
        return _w(words, "player_none", name=name, forced=player.forced)
    return _w(
        words,
        "player",
        name=name,
        n=player.decisions,
        forced=player.forced,
        rate=f"{player.error_rate:.1f}",
        band=band_name(player, words),
        errors=player.errors,
        blunders=player.blunders,
    )


def report_text(report: Report, names: Sequence[str], words: Mapping[str, str] = WORDS) -> str:
    """A few lines per player: figures, luck and the worst moves; then the result."""
    lines = [_w(words, "title_match" if report.match else "title", judge=report.judge)]
    for seat, player in enumerate(report.players):
        lines.append(_player_line(player, names[seat], words))
        if player.luck_adjusted is None:
            lines.append(_w(words, "player_luck_running", luck=signed(player.luck)))
        else:
            lines.append(_w(words, "player_luck", luck=signed(player.luck), adjusted=signed(player.luck_adjusted)))
        lines.extend(_move_line(m, words) for m in player.worst)
    if report.result is not None:
        winner = 0 if report.result > 0 else 1
        lines.append(_w(words, "result", name=names[winner], points=f"+{abs(report.result)}"))
    return "\n".join(lines)


__all__ = ["WORDS", "band_name", "report_text", "signed", "summary"]
