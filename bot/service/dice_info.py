"""The ``dice`` command: a player's rolls over his kept games, or one match's rolls and its fair-dice commitment.

Reads only: the player's finished matches (``keys.player_done``) and their records (``keys.game_record``), in
one batch; the figures come from :mod:`bot.service.dice_stats`.
"""

from __future__ import annotations

from typing import Any

from bot.storage.base import Commit, Store

from . import keys
from .dice_stats import (
    DOUBLES_RATE,
    EXPECTED_PIPS,
    MIN_EXPECTED,
    MIN_ROLLS,
    ROLLS,
    Tally,
    expected_share,
    tally_records,
    verdict,
)
from .info import Info
from .models import Msg, Place, PlayerRef, Result
from .reads import Handle, Reads, read_one
from .record_codec import unpack

MAX_MATCHES = 50  # the player's latest finished matches counted by ``dice``
MAX_INDEXED = 200  # older entries of his finished-matches index are dropped when it is read
MAX_GAMES_PER_MATCH = 60  # a match of 25 points has at most 49 games; more is damage


def _entry(value: str) -> tuple[int, int] | None:
    """A ``player_done`` field value ``<ended>:<games>`` -> (ended, games); unreadable -> None."""
    ended, _, games = value.partition(":")
    if not (ended.isdigit() and games.isdigit()) or not 1 <= int(games) <= MAX_GAMES_PER_MATCH:
        return None
    return int(ended), int(games)


def tally_messages(tally: Tally, player: str, games: int) -> list[Msg]:
    """The figures of one player's tally: summary, the 21 rolls against their expected counts, the verdict (or,
    with fewer than ``MIN_ROLLS`` rolls, that there are too few for one)."""
    total = tally.rolls
    if total == 0:
        return [Msg("dice_none", {"player": player})]
    rows = " ".join(f"{hi}{lo}:{tally.counts[(hi, lo)]}/{total * expected_share((hi, lo)):.0f}" for hi, lo in ROLLS)
    return [
        Msg("dice_summary", {"player": player, "rolls": total, "games": games,
                             "doubles": tally.doubles, "doubles_pct": round(100 * tally.doubles / total, 1),
                             "doubles_expected": round(100 * DOUBLES_RATE, 1),
                             "pips": round(tally.average_pips, 2), "pips_expected": round(EXPECTED_PIPS, 2)}),
        Msg("dice_rolls", {"rows": rows}),
        judged(tally),
    ]


def judged(tally: Tally) -> Msg:
    """The chi-square verdict of a tally, or, below ``MIN_ROLLS`` rolls (where the test means nothing), how many
    rolls one needs."""
    if not tally.testable:
        return Msg("dice_too_few", {"rolls": tally.rolls, "needed": MIN_ROLLS, "expected": MIN_EXPECTED})
    p = tally.p_value()
    return Msg(f"dice_verdict_{verdict(p)}", {"chi2": round(tally.chi_square(), 1), "p": round(p, 3)})


class DiceInfo:
    """``dice [player|game]``: dice statistics over kept records."""

    def __init__(self, store: Store, info: Info) -> None:
        self.store = store
        self.info = info

    async def ask(self, place: Place, who: PlayerRef | None, game_id: str | None) -> Result:
        """One match's dice when ``game_id`` is given, else ``who``'s."""
        if game_id is not None:
            return await self.game(game_id, place)
        if who is None:
            return Result.error("dice_who")
        return await self.player(who, place)

    async def player(self, who: PlayerRef, place: Place) -> Result:
        """``who``'s rolls over his latest finished matches (at most ``MAX_MATCHES``)."""
        records = await finished_records(self.store, who)
        tally = tally_records(records, who.platform, who.user_id)
        return Result(ok=True, messages=tally_messages(tally, who.name, len(records)), place=place)

    async def game(self, game_id: str, place: Place) -> Result:
        """Both players' rolls in one match, and each game's fair-dice commitment and how to check it."""
        records, err = await self.info.records(game_id)
        if err is not None:
            return err
        messages = [Msg("dice_game_header", {"game_id": game_id, "games": len(records)})]
        for player in records[0]["players"][:2]:
            tally = tally_records(records, str(player[0]), str(player[1]))
            messages.extend(tally_messages(tally, str(player[2]), len(records)))
        for record in records:
            dice = record["game"].get("dice") or {}
            commitment = str(dice.get("commitment", ""))
            if dice.get("seed"):
                messages.append(Msg("dice_game_seed", {"game_no": record["game_no"], "commitment": commitment,
                                                       "seed": str(dice["seed"])}))
            else:
                messages.append(Msg("dice_game_hidden", {"game_no": record["game_no"], "commitment": commitment}))
        messages.append(Msg("dice_check_how", {"game_id": game_id}))
        return Result(ok=True, messages=messages, game_id=game_id, place=place)


async def finished_records(store: Store, who: PlayerRef) -> list[dict[str, Any]]:
    """The kept records of ``who``'s latest finished matches (newest match first, its games in order), read in
    one batch; the index is trimmed of unreadable and old entries on the way."""
    index = keys.player_done(who.platform, who.user_id)
    done = await read_one(store, lambda r: r.hgetall(index))
    entries = sorted(((e, gid) for gid, raw in done.items() if (e := _entry(str(raw))) is not None), reverse=True)
    stale = [gid for gid, raw in done.items() if _entry(str(raw)) is None] + [g for _, g in entries[MAX_INDEXED:]]
    if stale:  # unreadable or too old: drop them so the index stays small
        commit = Commit()
        for gid in stale:
            commit.hdel(index, gid)
        await store.commit(commit)
    reads = Reads()
    handles: list[Handle[bytes | None]] = [reads.get(keys.game_record(gid, n))
                                           for (_ended, games), gid in entries[:MAX_MATCHES]
                                           for n in range(1, games + 1)]
    await reads.run(store)
    return _readable(h.value for h in handles)


def _readable(raws: Any) -> list[dict[str, Any]]:
    """Unpacked records, missing (expired) and unreadable ones left out."""
    out = []
    for raw in raws:
        if raw is None:
            continue
        try:
            out.append(unpack(raw))
        except ValueError:
            continue
    return out
