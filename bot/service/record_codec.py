"""The compact stored form of a finished game's record (~400 bytes for 90 turns instead of ~1.7 KB).

Layout (then zlib): ``R2`` + compact JSON of everything but the turns, times and seed + ``\\n`` + the seed
(32 bytes) + one header byte per turn (dice and number of steps) + one byte per step (from point and
die, or bear-off) + the turn times as varint seconds since the match start. A record that does not fit
this layout (an unusual turn text) is stored as plain compressed JSON; :func:`unpack` reads both.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from typing import Any

from bot.storage.base import DamagedValue
from bot.storage.bounded import inflate
from fevga import FairDice

MAGIC = b"R2"
MAX_PACKED = 64 * 1024  # compressed bytes of one game's record; more is damage
OFF = 6  # step code for bearing off (codes 0-5 are the die 1-6)
MAX_TURNS = 2000  # a game has ~90 turns
FIELDS = ("game_id", "game_no", "place", "players", "length", "score_before", "created", "ended",
          "outcome", "status", "end")  # a record's fields, stored by position
GAME_FIELDS = ("rules", "first", "opening", "resigned", "position", "turn")  # besides dice, turns and times
CONSTANTS = {"format": "fevga-record", "v": 1}
GAME_CONSTANTS = {"format": "fevga-game", "v": 1}
DEFAULT_RULES = {"unlock_point": 13, "strict_start_quarter": False}
ABSOLUTE = 10**8  # an "ended" value this large is a time, not seconds after the start
OUTCOME = ("winner", "points", "mars", "resigned")


def _squeeze(record: dict[str, Any], game: dict[str, Any]) -> list[Any]:
    """The record's fields (not dice, turns, times) as a list: constants left out, defaults as 0."""
    if (set(record) != set(FIELDS) | set(CONSTANTS) | {"game"} or set(game) != set(GAME_FIELDS) | set(GAME_CONSTANTS)
            | {"dice", "turns", "times"} or any(record[k] != v for k, v in CONSTANTS.items())
            or any(game[k] != v for k, v in GAME_CONSTANTS.items())):
        raise _Unfit("unknown record fields")
    out = {k: record[k] for k in FIELDS}
    if out["ended"] is not None:  # seconds after the start when that reads back exactly, else as it is
        delta = round(out["ended"] - out["created"], 3)
        out["ended"] = delta if out["created"] + delta == out["ended"] and 0 <= delta < ABSOLUTE else out["ended"]
    if out["outcome"] is not None:
        out["outcome"] = [out["outcome"][k] for k in OUTCOME]
    rest = {k: game[k] for k in GAME_FIELDS}
    if rest["rules"] == DEFAULT_RULES:
        rest["rules"] = 0
    return [out[k] for k in FIELDS] + [rest[k] for k in GAME_FIELDS]


def _unsqueeze(meta: list[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Inverse of :func:`_squeeze`: (record fields, game fields)."""
    record = {**CONSTANTS, **dict(zip(FIELDS, meta, strict=False))}
    game = {**GAME_CONSTANTS, **dict(zip(GAME_FIELDS, meta[len(FIELDS):], strict=False))}
    if record["ended"] is not None and record["ended"] < ABSOLUTE:
        record["ended"] = record["created"] + record["ended"]
    if record["outcome"] is not None:
        record["outcome"] = dict(zip(OUTCOME, record["outcome"], strict=True))
    if game["rules"] == 0:
        game["rules"] = dict(DEFAULT_RULES)
    return record, game


class _Unfit(ValueError):
    """The record does not fit the compact layout (it is then stored as JSON)."""


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _turn_bytes(turn: str, derived: tuple[int, int] | None = None) -> bytes:
    roll, _, steps = turn.partition(":")
    if len(roll) != 2 or not roll.isdigit() or not all("1" <= c <= "6" for c in roll):
        raise _Unfit(turn)
    parts = [] if steps == "pass" else steps.split(" ")
    if len(parts) > 4 or (not parts and steps != "pass"):
        raise _Unfit(turn)
    if derived is not None:  # the dice follow from the seed: only the number of steps is kept
        if (int(roll[0]), int(roll[1])) != derived:
            raise _Unfit(turn)
        out = bytearray([len(parts)])
    else:
        out = bytearray([((int(roll[0]) - 1) * 6 + int(roll[1]) - 1) * 5 + len(parts)])
    for step in parts:
        src, _, dst = step.partition("/")
        if not src.isdigit() or not 1 <= int(src) <= 24:
            raise _Unfit(turn)
        code = OFF if dst == "off" else int(dst) - int(src) - 1 if dst.isdigit() else -1
        if not 0 <= code <= OFF:
            raise _Unfit(turn)
        out.append(int(src) << 3 | code)
    return bytes(out)


def _turn_bits(turns: list[str], rolled: list[tuple[int, int]]) -> bytes:
    """Turns whose dice follow from the seed, as bits: 3 for the number of steps, then 7 per step (the
    from point, and which die moved it or bear-off)."""
    acc = nbits = 0
    out = bytearray()

    def put(value: int, width: int) -> None:
        nonlocal acc, nbits
        acc, nbits = acc << width | value, nbits + width
        while nbits >= 8:
            nbits -= 8
            out.append(acc >> nbits & 0xFF)
        acc &= (1 << nbits) - 1

    for turn, roll in zip(turns, rolled, strict=True):
        dice, _, steps = turn.partition(":")
        parts = [] if steps == "pass" else steps.split(" ")
        if dice != f"{roll[0]}{roll[1]}" or len(parts) > 4 or (not parts and steps != "pass"):
            raise _Unfit(turn)
        put(len(parts), 3)
        for step in parts:
            src, _, dst = step.partition("/")
            if not src.isdigit() or not 1 <= int(src) <= 24:
                raise _Unfit(turn)
            if dst == "off":
                put(int(src) << 2 | 2, 7)
            elif dst.isdigit() and int(dst) - int(src) in roll:
                put(int(src) << 2 | roll.index(int(dst) - int(src)), 7)
            else:
                raise _Unfit(turn)
    if nbits:
        put(0, 8 - nbits)
    return bytes(out)


def _read_bits(data: bytes, rolled: list[tuple[int, int]]) -> tuple[list[str], int]:
    """Inverse of :func:`_turn_bits`: the turns, and the bytes used."""
    pos = 0

    def get(width: int) -> int:
        nonlocal pos
        value = 0
        for _ in range(width):
            value = value << 1 | (data[pos >> 3] >> (7 - (pos & 7)) & 1)
            pos += 1
        return value

    turns = []
    for roll in rolled:
        steps = []
        for _ in range(get(3)):
            code = get(7)
            src, kind = code >> 2, code & 3
            steps.append(f"{src}/{'off' if kind == 2 else src + roll[kind]}")
        turns.append(f"{roll[0]}{roll[1]}:{' '.join(steps) if steps else 'pass'}")
    return turns, (pos + 7) >> 3


def _read_turns(data: bytes, count: int, dice_of: list[tuple[int, int]] | None) -> tuple[list[str], int]:
    turns, i = [], 0
    for k in range(count):
        head = data[i]
        i += 1
        if dice_of is not None:
            n, dice = head, (dice_of[k][0] - 1) * 6 + dice_of[k][1] - 1
        else:
            n, dice = head % 5, head // 5
        steps = []
        for _ in range(n):
            src, code = data[i] >> 3, data[i] & 7
            i += 1
            steps.append(f"{src}/{'off' if code == OFF else src + code + 1}")
        turns.append(f"{dice // 6 + 1}{dice % 6 + 1}:{' '.join(steps) if steps else 'pass'}")
    return turns, i


def _compact(record: dict[str, Any]) -> bytes:
    game = dict(record["game"])
    dice = dict(game.pop("dice"))
    turns, times = game.pop("turns"), game.pop("times")
    t0 = float(record["created"])
    if dice.get("kind") != "fair" or len(times) != len(turns):
        raise _Unfit("not a fair-dice game")
    seed = bytes.fromhex(dice.get("seed") or "")
    if len(seed) != 32:
        raise _Unfit("no revealed seed")
    meta = _squeeze(record, record["game"])
    rolled = _rolls(seed, len(game.get("opening") or []), len(turns))
    try:
        steps = _turn_bits(turns, rolled)
        meta.append(1)  # dice derived from the seed
    except _Unfit:
        steps = b"".join(_turn_bytes(turn) for turn in turns)
    body = bytearray(json.dumps(meta, separators=(",", ":")).encode() + b"\n" + seed + _varint(len(turns)))
    body += steps
    last = t0
    for t in times:  # seconds since the previous time (0: none)
        if t is None:
            body += _varint(0)
            continue
        step = max(0, round(float(t) - last))
        last += step
        body += _varint(1 + step)
    return MAGIC + zlib.compress(bytes(body), 9)


def _expand(body: bytes) -> dict[str, Any]:
    head, _, rest = body.partition(b"\n")
    meta = json.loads(head)
    record, game = _unsqueeze(meta)
    derive = len(meta) > len(FIELDS) + len(GAME_FIELDS)
    seed, rest = rest[:32], rest[32:]
    count, i = _read_varint(rest, 0)
    if count > MAX_TURNS:
        raise DamagedValue("absurd number of turns")
    if derive:
        turns, used = _read_bits(rest[i:], _rolls(seed, len(game.get("opening") or []), count))
    else:
        turns, used = _read_turns(rest[i:], count, None)
    i += used
    last, times = float(record["created"]), []
    for _ in range(count):
        value, i = _read_varint(rest, i)
        if value:
            last += value - 1
        times.append(None if value == 0 else last)
    game["dice"] = {"kind": "fair", "seed": seed.hex(), "commitment": _commit(seed)}
    game.update({"turns": turns, "times": times})
    record["game"] = game
    return record


def _rolls(seed: bytes, first: int, count: int) -> list[tuple[int, int]]:
    """The rolls the seed gives for ``count`` turns after ``first`` opening rolls."""
    dice = FairDice(seed)
    return [tuple(dice.roll(first + k)) for k in range(count)]  # type: ignore[misc]


def _commit(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def _read_varint(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, i
        if shift > 63:
            raise DamagedValue("varint too long")


def pack(record: dict[str, Any]) -> bytes:
    """A record as stored: compact when it fits (checked by reading it back), else compressed JSON."""
    try:
        packed = _compact(record)
        if _same(unpack(packed), record):
            return packed
    except (_Unfit, KeyError, TypeError, ValueError, IndexError):
        pass
    return zlib.compress(json.dumps(record, separators=(",", ":")).encode(), 9)


def _same(back: dict[str, Any], record: dict[str, Any]) -> bool:
    """The record read back is the record (turn times to the second)."""
    times, kept = back["game"].pop("times"), record["game"].pop("times")
    try:
        return back == record and len(times) == len(kept) and all(
            (a is None) == (b is None) and (a is None or abs(a - b) <= 0.5) for a, b in zip(times, kept, strict=True))
    finally:
        back["game"]["times"], record["game"]["times"] = times, kept


def unpack(blob: bytes) -> dict[str, Any]:
    """A kept record, decoded within bounds (DamagedValue, a ValueError, when it is not one)."""
    try:
        if blob[:2] == MAGIC:
            data = _expand(inflate(blob[2:], MAX_PACKED, 16 * MAX_PACKED))
        else:
            data = json.loads(inflate(blob, MAX_PACKED, 16 * MAX_PACKED))
    except DamagedValue:
        raise
    except (ValueError, IndexError, TypeError, KeyError) as exc:
        raise DamagedValue(f"unreadable game record: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != "fevga-record":
        raise DamagedValue("not a game record")
    return data
