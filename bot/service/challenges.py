"""Challenges (named or open), accepting one into a game, games against the AI, and rematches."""

from __future__ import annotations

import json
import logging

from bot.service.button_kinds import ButtonKind
from bot.storage.base import Commit, DamagedKey, Store
from fevga import FairDice, Game, Rules

from . import fairness, keys
from .challenge import Challenge, match_error
from .challenge_find import Role, challenge_here, load_challenge, supersede
from .commits import Change
from .config import Clock, Options
from .damaged import free_stale
from .flow import MatchFlow
from .game_words import AI_LEVELS
from .models import Action, Msg, Place, PlayerRef, Result
from .reads import Reads, read_one
from .rematches import rematch_refused
from .session import AI_PLATFORM, Session, rules_of
from .sessions import Sessions
from .settings import Settings, owner_of

log = logging.getLogger(__name__)


def unrated_note() -> Msg:
    """Said with a challenge and a game start whose turn deadline is too short for a rated match."""
    return Msg("unrated_deadline", {"seconds": fairness.MIN_RATED_DEADLINE})


class Challenges:
    """challenge / accept / decline / cancel / play_ai / rematch, and starting a game (a new session)."""

    def __init__(self, store: Store, clock: Clock, options: Options, sessions: Sessions, flow: MatchFlow,
                 settings: Settings) -> None:
        self.store, self.clock, self.options = store, clock, options
        self.sessions, self.flow, self.settings = sessions, flow, settings

    async def challenge(self, actor: PlayerRef, place: Place, opponent: PlayerRef | None, length: int = 1,
                        rules: Rules | None = None, idem: str | None = None, quick: bool = False,
                        kind: str | None = None) -> Result:
        """Challenge ``opponent`` (None: an open challenge anyone here may take) to a match of ``length`` of
        ``kind`` (fevga, portes, plakoto, tavli; None: the place's ``default_game``)."""
        if (bad := match_error(length, kind)) is not None:
            return bad
        if owner_of(place) is not None and place.platform != "terminal":  # the terminal's friend sits beside him
            return Result.error("challenge_private_place")  # nobody else can see a private chat to accept
        if opponent is not None and (actor.same(opponent) or opponent.platform != actor.platform):
            return Result.error("challenge_self" if actor.same(opponent) else "not_for_you")
        if opponent is not None and (opponent.bot or opponent.away):  # a challenge nobody could ever accept
            return Result.error("challenge_bot" if opponent.bot else "challenge_not_member", player=opponent.name)
        for _ in range(2):  # a lost race with the same challenge sent at once: the second look names it
            answer = await self._challenge(actor, place, opponent, length, rules, idem, quick, kind)
            if answer is not None:
                return answer
        return Result.error("busy_try_again")

    async def _challenge(self, actor: PlayerRef, place: Place, opponent: PlayerRef | None, length: int,
                         rules: Rules | None, idem: str | None, quick: bool, kind: str | None) -> Result | None:
        """One attempt at :meth:`challenge`; None when the commit lost a race."""
        entry = f"{actor.user_id}|{opponent.user_id if opponent else ''}"
        reads = Reads()
        cached = reads.idem(actor.platform, idem, place)
        mine = reads.hget(keys.channel_games(place), actor.user_id)
        theirs = reads.hget(keys.channel_games(place), opponent.user_id) if opponent is not None else None
        pending = reads.hgetall(keys.channel_challenges(place))
        paired = reads.hget(keys.channel_pairs(place), entry)
        await reads.run(self.store)
        if cached.value is not None:
            return await self.sessions.replay(cached.value)
        freed = await free_stale(self.store, place, actor.user_id) if mine.value is not None else None
        if mine.value is not None and freed is None:
            return Result.error("already_in_game_here")
        if (opponent is not None and theirs is not None and theirs.value not in (None, freed)
                and not await free_stale(self.store, place, opponent.user_id)):
            return Result.error("opponent_in_game_here", player=opponent.name)
        now = self.clock()
        commit = Commit()
        same = {cid for cid, pair in pending.value.items() if pair == entry} | {paired.value} - {None}
        for old_id in sorted(str(c) for c in same):
            old_version, old = await self.load(old_id)
            if old is not None and now < old.expires:  # the same challenge is still open: say which
                return Result.error("challenge_duplicate" if opponent else "challenge_duplicate_open",
                                    challenge_id=old_id, opponent=opponent.name if opponent else "",
                                    seconds=max(0.0, old.expires - now))
            if old is not None:  # expired, its timer not yet fired: it goes now (its version is checked)
                old.drop(commit, old_version, "expired")
        if paired.value is None:
            commit.field_free(keys.channel_pairs(place), entry)  # two at once: one commits
        elif paired.value not in pending.value:  # names a challenge that is gone: freed
            commit.hdel(keys.channel_pairs(place), entry, only_if=paired.value)
        deadline, place_rules, place_kind = await self.settings.place_choice(place)
        if rules is None:
            rules = place_rules
        kind = kind or place_kind
        ttl = self.options.challenge_ttl
        cid = keys.new_id_in(keys.place_bucket(place))  # the challenge lives in its channel's home
        ch = Challenge(cid, actor, opponent, place, length, rules, now, now + ttl, quick, kind)
        cid = ch.id
        commit.expect(keys.challenge(cid), 0)
        commit.put_versioned(keys.challenge(cid), 1, ch.encode())
        commit.hset(keys.channel_challenges(place), cid, ch.index_entry())
        commit.hset(keys.channel_pairs(place), entry, cid)
        member = keys.timer("c", cid, place.platform)
        commit.zadd(keys.timers(member), member, ch.expires)
        commit.publish(keys.place_events(place.platform, place.channel_id),
                       json.dumps({"challenge_id": cid, "kind": "challenge", "game_id": None, "version": 1,
                                   "platform": place.platform, "scope_id": place.scope_id,
                                   "channel_id": place.channel_id}).encode())
        args = {"player": actor.name, "opponent": opponent.name if opponent else "", "length": length,
                "challenge_id": cid, "seconds": ttl, "kind": kind}
        actions = [Action(ButtonKind.ACCEPT, cid, 1, "btn_accept", {"challenge_id": cid})]
        if opponent is not None:
            actions.append(Action(ButtonKind.DECLINE, cid, 1, "btn_decline", {"challenge_id": cid}))
        actions.append(Action(ButtonKind.CANCEL, cid, 1, "btn_cancel", {"challenge_id": cid}))
        messages = [Msg("challenge_open" if opponent is None else "challenge_sent", args)]
        if not fairness.deadline_rated(self.options.quick_deadline if quick else deadline):
            messages.append(unrated_note())
        result = Result(ok=True, messages=messages, actions=actions, to_notify=[opponent] if opponent else [],
                        place=place)
        return await self.sessions.commit_once(commit, actor, idem, result, place)

    async def load(self, cid: str) -> tuple[int, Challenge | None]:
        """A stored challenge and its version: (0, None) when gone, (-1, None) when corrupt."""
        return await load_challenge(self.store, cid)

    async def _here(self, actor: PlayerRef, place: Place, challenge_id: str | None, role: Role,
                    open_ok: bool = True) -> tuple[int, Challenge] | Result:
        """The challenge the actor means in this channel, with its version, or an error."""
        return await challenge_here(self.store, actor, place, challenge_id, role, open_ok)

    async def accept(self, actor: PlayerRef, place: Place, challenge_id: str | None = None,
                     idem: str | None = None) -> Result:
        """Take a challenge addressed to the actor, or an open one: the game starts at once."""
        for _ in range(self.options.max_retries):
            cached = await self.sessions.retried(actor, idem, place)  # the first answer (another instance's too)
            if cached is not None:
                return cached
            found = await self._here(actor, place, challenge_id, "to")
            if isinstance(found, Result):  # gone: maybe taken by this very update on another instance
                return await self.sessions.retried(actor, idem, place) or found
            version, ch = found
            if ch.from_.same(actor):
                return Result.error("own_challenge")
            if ch.to is not None and not ch.to.same(actor):
                return Result.error("challenge_for_other", player=ch.to.name, challenger=ch.from_.name)
            if self.clock() >= ch.expires:
                return Result.error("challenge_expired")
            commit = ch.drop(Commit(), version, "accepted", actor.name)
            result = await self.start(actor, place, (ch.from_, actor), ch.length, ch.rules, commit,
                                      quick=ch.quick, idem=idem, kind=ch.kind)
            if result is not None:
                return result
        return Result.error("busy_try_again")

    async def start(self, actor: PlayerRef, place: Place, players: tuple[PlayerRef, PlayerRef], length: int,
                    rules: Rules, commit: Commit, quick: bool = False, ai_level: str | None = None,
                    idem: str | None = None, kind: str = "fevga", game_id: str | None = None,
                    rated: bool = True, event: str | None = None) -> Result | None:
        """Create the match of ``kind`` and its first game (opening roll by the service) and commit it; None
        when the commit lost a race. ``game_id`` (in the place's home), ``rated=False``, ``event`` serve tournaments."""
        humans = [p for p in players if p.platform != AI_PLATFORM]
        reads = Reads()
        busy = [reads.hget(keys.channel_games(place), p.user_id) for p in humans]
        player_settings = [reads.hgetall(keys.player_settings(p.platform, p.user_id)) for p in players]
        cached = reads.idem(actor.platform, idem, place)
        try:
            await reads.run(self.store)
            autoplay = [chosen.value.get("autoplay") == "on" for chosen in player_settings]
        except DamagedKey as exc:  # a damaged player settings hash: defaults, never a blocked game
            if not exc.key.endswith("}:set"):
                raise
            log.error("player settings %s are damaged; using the defaults", exc.key)
            reads = Reads()
            busy = [reads.hget(keys.channel_games(place), p.user_id) for p in humans]
            cached = reads.idem(actor.platform, idem, place)
            await reads.run(self.store)
            autoplay = [False, False]
        if cached.value is not None:  # another instance handled this very update first
            return await self.sessions.replay(cached.value)
        for p, running in zip(humans, busy, strict=True):
            if running.value is not None and await free_stale(self.store, place, p.user_id):
                return None  # a gone or damaged game was freed: the caller tries again
            if running.value is not None:
                return Result.error("already_in_game_here" if p.same(actor) else "opponent_in_game_here",
                                    player=p.name)
        await supersede(self.store, place, humans, commit)
        deadline = self.options.quick_deadline if quick else (await self.settings.place_defaults(place))[0]
        now = round(self.clock(), 3)
        gid = game_id or keys.new_id_in(keys.place_bucket(place))  # the game lives in its channel's home
        rated = rated and ai_level is None and fairness.deadline_rated(deadline)
        s = Session(gid, place, players, length, rules, Game.new(rules_of(kind, rules, 1), FairDice(), at=now), now,
                    deadline, turn_start=now, ai_level=ai_level, rated=rated, kind=kind, event=event)
        s.autoplay = autoplay
        change = Change(kind="start", extra=commit)
        opening = s.game.opening[-1] if s.game.opening else None
        change.messages.append(Msg("game_started", {
            "player0": players[0].name, "player1": players[1].name, "length": length, "kind": kind,
            "game": s.game_name,
            "starter": players[s.game.turn].name,
            "opening": f"{opening[0]}-{opening[1]}" if opening else "",
            "commitment": s.game.dice_source.commitment if isinstance(s.game.dice_source, FairDice) else "",
        }))
        if ai_level is None and not rated:
            change.messages.append(unrated_note())
        self.flow.note_passes(s, s.game.history, change)
        await self.flow.advance(s, change)
        for p in humans:
            commit.field_free(keys.channel_games(place), p.user_id)
        if s.status == "play":
            for p in humans:
                commit.hset(keys.channel_games(place), p.user_id, gid)
        else:
            change.finished = True
        result = self.sessions.result(s, 1, change.messages, change.notify)
        return await self.sessions.save(s, 0, change, result, actor, idem)

    async def decline(self, actor: PlayerRef, place: Place, challenge_id: str | None = None,
                      idem: str | None = None) -> Result:
        """The addressee turns a challenge down."""
        return await self._withdraw(actor, place, challenge_id, idem, "to")

    async def cancel(self, actor: PlayerRef, place: Place, challenge_id: str | None = None,
                     idem: str | None = None) -> Result:
        """The challenger takes a challenge back."""
        return await self._withdraw(actor, place, challenge_id, idem, "from")

    async def _withdraw(self, actor: PlayerRef, place: Place, challenge_id: str | None, idem: str | None,
                        role: Role) -> Result:
        """Decline (``to``) or cancel (``from``) a challenge: it is deleted, the other side told."""
        cached = await self.sessions.retried(actor, idem, place)
        if cached is not None:
            return cached
        found = await self._here(actor, place, challenge_id, role, open_ok=False)
        if isinstance(found, Result):  # gone: maybe by this very update on another instance
            return await self.sessions.retried(actor, idem, place) or found
        version, ch = found
        challenger, target = ch.from_, ch.to
        if role == "from" and not challenger.same(actor):
            return Result.error("not_your_challenge")
        if role == "to" and target is None:
            return Result.error("not_for_you", player="")
        if role == "to" and target is not None and not target.same(actor):
            return Result.error("challenge_for_other", player=target.name, challenger=challenger.name)
        commit = ch.drop(Commit(), version, "cancelled" if role == "from" else "declined", actor.name)
        key = "challenge_cancelled" if role == "from" else "challenge_declined"
        notify = challenger if role == "to" else target
        result = Result(ok=True, messages=[Msg(key, {"player": actor.name, "challenge_id": ch.id})],
                        to_notify=[notify] if notify else [], place=place)
        answer = await self.sessions.commit_once(commit, actor, idem, result, place)
        return answer if answer is not None else Result.error("no_challenge")

    async def play_ai(self, actor: PlayerRef, place: Place, level: str = "medium", length: int = 1,
                      idem: str | None = None, kind: str | None = None) -> Result:
        """Start a match of ``kind`` (None: the place's ``default_game``) against the built-in AI (unrated);
        the human sits in seat 0."""
        if level not in AI_LEVELS:
            return Result.error("bad_level", levels=", ".join(AI_LEVELS))
        if (bad := match_error(length, kind)) is not None:
            return bad
        ai = PlayerRef(AI_PLATFORM, level, f"AI ({level})")
        _deadline, rules, place_kind = await self.settings.place_choice(place)
        for _ in range(self.options.max_retries):
            cached = await self.sessions.retried(actor, idem, place)  # the first answer (another instance's too)
            if cached is not None:
                return cached
            result = await self.start(actor, place, (actor, ai), length, rules, Commit(), ai_level=level, idem=idem,
                                      kind=kind or place_kind)
            if result is not None:
                return result
        return Result.error("busy_try_again")

    async def rematch(self, actor: PlayerRef, place: Place, idem: str | None = None,
                      button_game: str | None = None) -> Result:
        """A new match with the same opponent, length and rules as the actor's last one here."""
        gid = await read_one(self.store, lambda r: r.hget(keys.channel_last(place), actor.user_id))
        if gid is None:
            return Result.error("no_last_game")
        if button_game is not None and button_game != gid:  # an older game's button
            return Result.error("button_stale")
        loaded = await self.sessions.load(gid, take=False)
        if (s := loaded.session) is None or (seat := s.seat_of(actor)) is None:
            return loaded.error or Result.error("no_last_game" if s is None else "not_in_game")
        if s.ai_level is not None:
            return await self.play_ai(actor, place, level=s.ai_level, length=s.length, idem=idem, kind=s.kind)
        if (refused := rematch_refused(s)) is not None:  # he left, or a tournament's pairing: nobody to ask
            return Result.error(refused)
        opponent = s.players[seat ^ 1]
        theirs = await read_one(self.store, lambda r: r.hget(keys.channel_pairs(place),
                                                             f"{opponent.user_id}|{actor.user_id}"))
        # he asked for the rematch first (both pressed it): accepting it is the actor's answer
        if theirs is not None and (taken := await self.accept(actor, place, str(theirs), idem)).ok:
            return taken
        return await self.challenge(actor, place, opponent, length=s.length, rules=s.rules, idem=idem, kind=s.kind)
