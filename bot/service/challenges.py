"""Challenges (named or open), accepting one into a game, games against the AI, and rematches."""

from __future__ import annotations

import json
from typing import Any

from bot.storage.base import Commit, split_versioned
from fevga import FairDice, FevgaError, Game, Rules
from fevga.match import MAX_LENGTH

from . import keys
from .ai import LEVELS
from .core import Change, error_result, new_id
from .models import Action, Msg, Place, PlayerRef, Result
from .session import AI_PLATFORM, Session
from .settings import SettingsMixin


def _ref(data: list[str] | None) -> PlayerRef | None:
    return PlayerRef(*data) if data else None


class ChallengeMixin(SettingsMixin):
    """challenge / accept / decline / cancel / play_ai / rematch."""

    async def _cached_or(self, actor: PlayerRef, idem: str | None, reads: list[Any]) -> tuple[Result | None, list[Any]]:
        if not idem:
            return None, await self.store.read(reads)
        raw, *rest = await self.store.read([("get", keys.idem(actor.platform, idem)), *reads])
        return self._cached(raw), rest

    async def _commit_with_idem(self, commit: Commit, actor: PlayerRef, idem: str | None, result: Result) -> bool:
        self.remember(commit, actor, idem, result)
        return await self.store.commit(commit)

    async def challenge(
        self,
        actor: PlayerRef,
        place: Place,
        opponent: PlayerRef | None,
        length: int = 1,
        rules: Rules | None = None,
        idem: str | None = None,
        quick: bool = False,
    ) -> Result:
        """Challenge ``opponent`` (None: an open challenge anyone here may take) to a match of ``length``."""
        if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_LENGTH:
            return Result.error("bad_length", max=MAX_LENGTH)
        if opponent is not None and (actor.same(opponent) or opponent.platform != actor.platform):
            return Result.error("challenge_self" if actor.same(opponent) else "not_for_you")
        reads: list[Any] = [("hget", keys.channel_games(place), actor.user_id)]
        if opponent is not None:
            reads.append(("hget", keys.channel_games(place), opponent.user_id))
        cached, busy = await self._cached_or(actor, idem, reads)
        if cached is not None:
            return cached
        if busy[0] is not None:
            return Result.error("already_in_game_here")
        if opponent is not None and busy[1] is not None:
            return Result.error("opponent_in_game_here", player=opponent.name)
        if rules is None:
            rules = (await self.place_defaults(place))[1]
        now = self.clock()
        cid = new_id()
        doc = {"id": cid, "from": list(_as_list(actor)), "to": list(_as_list(opponent)) if opponent else None,
               "place": [place.platform, place.scope_id, place.channel_id], "n": length, "r": rules.to_dict(),
               "created": now, "exp": now + self.challenge_ttl, "quick": quick}
        commit = Commit().expect(keys.challenge(cid), 0)
        commit.put_versioned(keys.challenge(cid), 1, json.dumps(doc).encode())
        commit.hset(keys.channel_challenges(place), cid, f"{actor.user_id}|{opponent.user_id if opponent else ''}")
        commit.zadd(keys.TIMERS, keys.timer("c", cid, place.platform), now + self.challenge_ttl)
        commit.publish(keys.place_events(place.platform, place.channel_id),
                       json.dumps({"challenge_id": cid, "kind": "challenge", "game_id": None, "version": 1,
                                   "platform": place.platform, "scope_id": place.scope_id,
                                   "channel_id": place.channel_id}).encode())
        args = {"player": actor.name, "opponent": opponent.name if opponent else "", "length": length,
                "challenge_id": cid, "minutes": round(self.challenge_ttl / 60)}
        actions = [Action("accept", cid, 1, "btn_accept", {"challenge_id": cid})]
        if opponent is not None:
            actions.append(Action("decline", cid, 1, "btn_decline", {"challenge_id": cid}))
        actions.append(Action("cancel", cid, 1, "btn_cancel", {"challenge_id": cid}))
        result = Result(ok=True, messages=[Msg("challenge_open" if opponent is None else "challenge_sent", args)],
                        actions=actions, to_notify=[opponent] if opponent else [], place=place)
        await self._commit_with_idem(commit, actor, idem, result)
        return result

    async def _find_challenge(
        self, actor: PlayerRef, place: Place, challenge_id: str | None, role: str, open_ok: bool = True
    ) -> tuple[str | None, Result | None]:
        """Pick the challenge meant: by id, else the one here for (or from) the actor."""
        if challenge_id is not None:
            return challenge_id, None
        (index,) = await self.store.read([("hgetall", keys.channel_challenges(place))])
        mine, open_ = [], []
        for cid, pair in index.items():
            src, _, dst = pair.partition("|")
            if (role == "from" and src == actor.user_id) or (role == "to" and dst == actor.user_id):
                mine.append(cid)
            elif role == "to" and not dst and src != actor.user_id and open_ok:
                open_.append(cid)
        found = mine or open_
        if not found:
            return None, Result.error("no_challenge")
        if len(found) > 1 and not mine:
            return None, Result.error("several_challenges", count=len(found))
        return found[-1], None

    async def _load_challenge(self, cid: str) -> tuple[int, dict[str, Any] | None]:
        (raw,) = await self.store.read([("get", keys.challenge(cid))])
        if raw is None:
            return 0, None
        try:
            version, blob = split_versioned(raw)
            doc = json.loads(blob)
            if not _valid_challenge(doc):
                raise ValueError("bad challenge document")
            return version, doc
        except ValueError:
            return -1, None

    def _drop_challenge(self, commit: Commit, cid: str, version: int, place: Place) -> None:
        commit.expect(keys.challenge(cid), version).delete(keys.challenge(cid))
        commit.hdel(keys.channel_challenges(place), cid)
        commit.zrem(keys.TIMERS, keys.timer("c", cid, place.platform))

    async def _challenge_here(
        self, actor: PlayerRef, place: Place, challenge_id: str | None, role: str, open_ok: bool = True
    ) -> tuple[str, int, dict[str, Any], PlayerRef, PlayerRef | None] | Result:
        """The challenge the actor means in this channel: (id, version, doc, challenger, target), or an error."""
        cid, err = await self._find_challenge(actor, place, challenge_id, role, open_ok=open_ok)
        if err is not None or cid is None:
            return err or Result.error("no_challenge")
        version, doc = await self._load_challenge(cid)
        if doc is None:
            return Result.error("corrupt_challenge" if version < 0 else "no_challenge")
        challenger, target = _ref(doc["from"]), _ref(doc["to"])
        assert challenger is not None
        if doc["place"][0] != place.platform or doc["place"][2] != place.channel_id:
            return Result.error("wrong_place")
        return cid, version, doc, challenger, target

    async def accept(self, actor: PlayerRef, place: Place, challenge_id: str | None = None,
                     idem: str | None = None) -> Result:
        """Take a challenge addressed to the actor, or an open one: the game starts at once."""
        cached, _ = await self._cached_or(actor, idem, [])
        if cached is not None:
            return cached
        for _ in range(self.max_retries):
            found = await self._challenge_here(actor, place, challenge_id, "to")
            if isinstance(found, Result):
                return found
            cid, version, doc, challenger, target = found
            if challenger.same(actor):
                return Result.error("own_challenge")
            if target is not None and not target.same(actor):
                return Result.error("not_for_you", player=target.name)
            if self.clock() >= doc["exp"]:
                return Result.error("challenge_expired")
            try:
                rules = Rules.from_dict(doc["r"])
            except FevgaError as exc:
                return error_result(exc)
            commit = Commit()
            self._drop_challenge(commit, cid, version, place)
            result = await self.start_session(actor, place, (challenger, actor), doc["n"], rules, commit,
                                              quick=bool(doc.get("quick")), idem=idem)
            if result is not None:
                return result
        return Result.error("busy_try_again")

    async def start_session(
        self,
        actor: PlayerRef,
        place: Place,
        players: tuple[PlayerRef, PlayerRef],
        length: int,
        rules: Rules,
        commit: Commit,
        quick: bool = False,
        ai_level: str | None = None,
        idem: str | None = None,
    ) -> Result | None:
        """Create the game (opening roll by the service) and commit it; None when the commit lost a race."""
        humans = [p for p in players if p.platform != AI_PLATFORM]
        reads: list[Any] = [("hget", keys.channel_games(place), p.user_id) for p in humans]
        reads += [("hgetall", keys.player_settings(p.platform, p.user_id)) for p in players]
        got = await self.store.read(reads)
        for p, busy in zip(humans, got, strict=False):
            if busy is not None:
                return Result.error("already_in_game_here" if p.same(actor) else "opponent_in_game_here",
                                    player=p.name)
        player_settings = got[len(humans):]
        deadline = self.quick_deadline if quick else (await self.place_defaults(place))[0]
        now = self.clock()
        gid = new_id()
        now = round(now, 3)
        s = Session(gid, place, players, length, rules, Game.new(rules, FairDice(), at=now), now, deadline,
                    turn_start=now, ai_level=ai_level, rated=ai_level is None)
        s.autoplay = [settings.get("autoplay") == "on" for settings in player_settings]
        change = Change(kind="start", extra=commit)
        opening = s.game.opening[-1] if s.game.opening else None
        change.messages.append(Msg("game_started", {
            "player0": players[0].name, "player1": players[1].name, "length": length,
            "starter": players[s.game.turn].name,
            "opening": f"{opening[0]}-{opening[1]}" if opening else "",
            "commitment": s.game.dice_source.commitment if isinstance(s.game.dice_source, FairDice) else "",
        }))
        self.note_passes(s, s.game.history, change)
        await self.advance(s, change)
        for p in humans:
            commit.field_free(keys.channel_games(place), p.user_id)
        if s.status == "play":
            for p in humans:
                commit.hset(keys.channel_games(place), p.user_id, gid)
        else:
            change.finished = True
        result = self.view_result(s, 1, change)
        full = self.session_commit(s, 0, change)
        self.remember(full, actor, idem, result)
        if await self.store.commit(full):
            self.keep(s, 1)
            return result
        return None

    async def decline(self, actor: PlayerRef, place: Place, challenge_id: str | None = None,
                      idem: str | None = None) -> Result:
        """The addressee turns a challenge down."""
        return await self._withdraw(actor, place, challenge_id, idem, "to")

    async def cancel(self, actor: PlayerRef, place: Place, challenge_id: str | None = None,
                     idem: str | None = None) -> Result:
        """The challenger takes a challenge back."""
        return await self._withdraw(actor, place, challenge_id, idem, "from")

    async def _withdraw(self, actor: PlayerRef, place: Place, challenge_id: str | None, idem: str | None,
                        role: str) -> Result:
        cached, _ = await self._cached_or(actor, idem, [])
        if cached is not None:
            return cached
        found = await self._challenge_here(actor, place, challenge_id, role, open_ok=False)
        if isinstance(found, Result):
            return found
        cid, version, _doc, challenger, target = found
        if role == "from" and not challenger.same(actor):
            return Result.error("not_your_challenge")
        if role == "to" and (target is None or not target.same(actor)):
            return Result.error("not_for_you", player=target.name if target else "")
        commit = Commit()
        self._drop_challenge(commit, cid, version, place)
        key = "challenge_cancelled" if role == "from" else "challenge_declined"
        notify = challenger if role == "to" else target
        result = Result(ok=True, messages=[Msg(key, {"player": actor.name, "challenge_id": cid})],
                        to_notify=[notify] if notify else [], place=place)
        if not await self._commit_with_idem(commit, actor, idem, result):
            return Result.error("no_challenge")
        return result

    async def play_ai(self, actor: PlayerRef, place: Place, level: str = "medium", length: int = 1,
                      idem: str | None = None) -> Result:
        """Start a game against the built-in AI (unrated); the human sits in seat 0."""
        if level not in LEVELS:
            return Result.error("bad_level", levels=", ".join(LEVELS))
        if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_LENGTH:
            return Result.error("bad_length", max=MAX_LENGTH)
        cached, _ = await self._cached_or(actor, idem, [])
        if cached is not None:
            return cached
        ai = PlayerRef(AI_PLATFORM, level, f"AI ({level})")
        rules = (await self.place_defaults(place))[1]
        for _ in range(self.max_retries):
            result = await self.start_session(actor, place, (actor, ai), length, rules, Commit(), ai_level=level,
                                              idem=idem)
            if result is not None:
                return result
        return Result.error("busy_try_again")

    async def rematch(self, actor: PlayerRef, place: Place, idem: str | None = None) -> Result:
        """A new match with the same opponent, length and rules as the actor's last one here."""
        (gid,) = await self.store.read([("hget", keys.channel_last(place), actor.user_id)])
        if gid is None:
            return Result.error("no_last_game")
        loaded, _ = await self._load(gid, take=False)
        s = loaded.session
        if s is None:
            return loaded.error or Result.error("no_last_game")
        seat = s.seat_of(actor)
        if seat is None:
            return Result.error("not_in_game")
        other = s.players[seat ^ 1]
        if s.ai_level is not None:
            return await self.play_ai(actor, place, level=s.ai_level, length=s.length, idem=idem)
        return await self.challenge(actor, place, other, length=s.length, rules=s.rules, idem=idem)


def _valid_challenge(doc: Any) -> bool:
    """The fields a challenge document must have, with the right types."""
    if not isinstance(doc, dict):
        return False
    players_ok = isinstance(doc.get("from"), list) and len(doc["from"]) == 3 and (
        doc.get("to") is None or (isinstance(doc["to"], list) and len(doc["to"]) == 3))
    return (players_ok and isinstance(doc.get("place"), list) and len(doc["place"]) == 3
            and isinstance(doc.get("n"), int) and isinstance(doc.get("r"), dict)
            and isinstance(doc.get("exp"), (int, float)))


def _as_list(p: PlayerRef | None) -> list[str]:
    return [p.platform, p.user_id, p.name] if p else []
