"""The verifier of the scale tests: reads the workers' journals and the store, and checks that no
acknowledged move was lost, every game decodes and is finished, and every finished rated match's result
was applied exactly once to both players' rating documents (their win/loss counts match the matches)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.service import keys
from bot.service.session import Session, decode
from bot.service.stats_docs import parse_stats
from bot.storage.base import Store, split_versioned

from .tables import PLATFORM, SCOPE


@dataclass
class Journals:
    """Everything the workers wrote: acknowledged moves per game, failed attempts, per-worker summaries."""

    acks: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    failures: list[dict[str, Any]] = field(default_factory=list)
    finished: list[dict[str, Any]] = field(default_factory=list)
    done: dict[str, dict[str, Any]] = field(default_factory=dict)
    notes: list[dict[str, Any]] = field(default_factory=list)
    recovered: list[dict[str, Any]] = field(default_factory=list)  # commands that failed, then succeeded

    @classmethod
    def read(cls, paths: Iterable[Path]) -> Journals:
        """Every entry of the journals at ``paths``."""
        out = cls()
        for path in paths:
            for line in path.read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                if "ack" in entry:
                    out.acks[entry["ack"]].append(entry)
                elif "fail" in entry:
                    out.failures.append(entry)
                elif "finished" in entry:
                    out.finished.append(entry)
                elif "done" in entry:
                    out.done[entry["done"]] = entry
                elif "note" in entry:
                    out.notes.append(entry)
                elif "recovered" in entry:
                    out.recovered.append(entry)
        return out

    def failures_between(self, start: float, end: float) -> list[dict[str, Any]]:
        """Failed attempts that ended in [start, end] (wall clock)."""
        return [f for f in self.failures if start <= f["t"] <= end]


@dataclass
class Verdict:
    """What the verifier found; ``problems`` must be empty."""

    games: int = 0
    moves: int = 0
    rated_matches: int = 0
    problems: list[str] = field(default_factory=list)


async def _sessions(store: Store, game_ids: list[str]) -> dict[str, tuple[int, Session | str]]:
    """Each game's (stored version, session), or (0/version, the reason it did not decode)."""
    out: dict[str, tuple[int, Session | str]] = {}
    for start in range(0, len(game_ids), 200):
        chunk = game_ids[start:start + 200]
        raws = await store.read([("get", keys.game(g)) for g in chunk])
        for gid, raw in zip(chunk, raws, strict=True):
            if raw is None:
                out[gid] = (0, "missing")
                continue
            try:
                version, blob = split_versioned(raw)
                out[gid] = (version, decode(blob))
            except ValueError as exc:
                out[gid] = (0, f"corrupt: {exc}")
    return out


def check_games(journals: Journals, sessions: dict[str, tuple[int, Session | str]], verdict: Verdict) -> None:
    """Every acknowledged move is in its game's stored history at its place; every game is finished."""
    for gid, acks in journals.acks.items():
        verdict.games += 1
        version, session = sessions[gid]
        if isinstance(session, str):
            verdict.problems.append(f"{gid}: {session}")
            continue
        if session.status != "done" or gid not in journals.done:
            verdict.problems.append(f"{gid}: not finished (status {session.status})")
        top = max(a["v"] for a in acks)
        if version < top:
            verdict.problems.append(f"{gid}: stored version {version} < acknowledged {top}")
        plays = [t.text() for t in session.game.history if not t.is_pass]
        for ack in acks:
            if ack["kind"] != "move":
                continue
            verdict.moves += 1
            k = ack["k"]
            if k >= len(plays) or plays[k] != ack["play"]:
                found = plays[k] if k < len(plays) else None
                verdict.problems.append(f"{gid}: acknowledged move {k} {ack['play']!r} lost (stored {found!r})")


def match_winner(session: Session) -> int:
    """The seat that won a finished match, from its score (the stored ``winner`` field drops seat 0: the
    session codec leaves out falsy fields)."""
    return 0 if session.score[0] >= session.length else 1


def expected_results(sessions: dict[str, tuple[int, Session | str]]) -> Counter[tuple[str, str]]:
    """(user id, 'w'/'l') -> finished rated matches, from the stored sessions."""
    expected: Counter[tuple[str, str]] = Counter()
    for _, session in sessions.values():
        if isinstance(session, Session) and session.status == "done" and session.rated:
            winner = match_winner(session)
            expected[(session.players[winner].user_id, "w")] += 1
            expected[(session.players[1 - winner].user_id, "l")] += 1
    return expected


async def rating_mismatches(store: Store, expected: Counter[tuple[str, str]]) -> list[str]:
    """Players whose documents (place board and global board) disagree with their finished matches."""
    users = sorted({u for u, _ in expected})
    scopes = (keys.board_scope(PLATFORM, SCOPE), keys.board_scope(PLATFORM, None))
    wanted = [(scope, u) for u in users for scope in scopes]
    raws = await store.read([("get", keys.player_stats(s, u)) for s, u in wanted])
    out = []
    for (scope, user), raw in zip(wanted, raws, strict=True):
        data = parse_stats(raw)[1] if raw is not None else {"w": 0, "l": 0}
        got, want = (data.get("w"), data.get("l")), (expected[(user, "w")], expected[(user, "l")])
        if got != want:
            out.append(f"{user} on {scope}: wins/losses {got}, finished matches say {want}")
    return out


async def verify(store: Store, journals: Journals, rating_wait: float = 30.0,
                 settle: Callable[[], Awaitable[object]] | None = None) -> Verdict:
    """Check the games, then the ratings, waiting up to ``rating_wait`` s for work still owed (a match end's
    ratings left pending by a failed writer): ``settle`` runs what a live bot instance runs meanwhile (its
    tick, which sweeps pending writes), since instances keep running after the workers' matches end."""
    verdict = Verdict()
    print("verify: reading the games", flush=True)
    sessions = await _sessions(store, sorted(journals.acks))
    check_games(journals, sessions, verdict)
    expected = expected_results(sessions)
    verdict.rated_matches = sum(n for (_, kind), n in expected.items() if kind == "w")
    deadline = time.monotonic() + rating_wait
    while True:
        mismatches = await rating_mismatches(store, expected)
        print(f"verify: {len(mismatches)} rating mismatches", flush=True)
        if not mismatches or time.monotonic() > deadline:
            break
        if settle is not None:
            with contextlib.suppress(Exception):  # bounded: a sweep stuck on a dead node must not stall this
                await asyncio.wait_for(settle(), 30)
        await asyncio.sleep(0.5)
    verdict.problems.extend(mismatches)
    return verdict
