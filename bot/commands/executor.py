"""Carry out an intent on the game service: the one place where commands meet service calls, whether the
intent was typed (``grammar.parse_command``) or pressed (``bot.chat.buttons.decode``)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.service.keys import is_game_id
from bot.service.models import Msg, Place, PlayerRef, Result
from bot.service.service import GameService, command

from . import intents as i
from . import puzzle_intents as pz
from . import tournament_intents as t


def _info(key: str, **args: object) -> Result:
    return Result(ok=True, messages=[Msg(key, dict(args))])


def _error(key: str, **args: object) -> Result:
    return Result.error(key, **args)


def _player(name: str, mentions: Mapping[str, PlayerRef]) -> PlayerRef | None:
    """The player a typed name or mention stands for, as the frontend resolved it; None when unknown."""
    return mentions.get(name) or mentions.get(name.lower())


async def execute(
    service: GameService,
    actor: PlayerRef,
    place: Place,
    intent: i.Intent,
    *,
    idem: str | None = None,
    mentions: Mapping[str, PlayerRef] | None = None,
    is_admin: bool = False,
) -> Result:
    """Run one intent for ``actor`` in ``place`` and return the service's platform-neutral result.
    (``Replay`` draws a GIF, not a Result: ``BotCore`` answers it through ``bot.chat.replay``.)"""
    mentions = mentions or {}
    match intent:
        case i.Help(topic=topic):
            return _info(f"help_{topic}" if topic else "help")
        case i.ShowRules(game=game):
            return _info("rules_summary" if game in (None, "fevga") else f"rules_{game}")
        case i.Challenge(target=target, length=length, rules=rules, kind=kind):
            opponent = None
            if target is not None:
                opponent = mentions.get(target) or mentions.get(target.lower())
                if opponent is None:
                    return _error("cmd_unknown_player", name=target)
                if opponent == actor or (opponent.platform, opponent.user_id) == (actor.platform, actor.user_id):
                    return _error("challenge_self")
            return await service.challenge(actor, place, opponent, length=length, rules=rules, idem=idem, kind=kind)
        case i.Accept(challenge_id=cid):
            return await service.accept(actor, place, challenge_id=cid, idem=idem)
        case i.Decline(challenge_id=cid):
            return await service.decline(actor, place, challenge_id=cid, idem=idem)
        case i.Cancel(challenge_id=cid):
            return await service.cancel(actor, place, challenge_id=cid, idem=idem)
        case i.PlayAI(level=level, length=length, kind=kind):
            return await service.play_ai(actor, place, level=level, length=length, idem=idem, kind=kind)
        case i.Move(text=text, game_id=gid, version=version):
            return await service.move(actor, place, text, game_id=gid, idem=idem, version=version)
        case i.Step(game_id=gid, version=version, from_point=from_point, die=die):
            return await service.step(actor, place, gid, version, from_point, die, idem=idem)
        case i.Undo(game_id=gid, version=version):
            return await service.undo(actor, place, game_id=gid, idem=idem, version=version)
        case i.Confirm(game_id=gid, version=version):
            return await service.confirm(actor, place, game_id=gid, idem=idem, version=version)
        case i.ShowBoard():
            return await service.board(actor, place)
        case i.Hint(game_id=gid):
            return await service.hint(actor, place, game_id=gid)
        case i.ResignPrompt(game_id=gid, whole_match=whole):
            return await service.resign_prompt(actor, place, game_id=gid, whole_match=whole)
        case i.MyGames():
            return await service.mygames(actor)
        case i.Resign(whole_match=whole, game_id=gid, version=version):
            return await service.resign(actor, place, whole_match=whole, game_id=gid, idem=idem, version=version)
        case i.Abort(game_id=gid):
            return await service.abort(actor, place, game_id=gid, idem=idem)
        case i.Claim(game_id=gid):
            return await service.claim(actor, place, game_id=gid, idem=idem)
        case i.Rematch(game_id=gid):
            return await service.rematch(actor, place, idem=idem, game_id=gid)
        case i.Top(kind=kind, season=str() as season):
            return await service.season_top(place, month=season or None, kind=kind)
        case i.Top(global_=global_, count=count, kind=kind):
            return await service.top(place, n=count, global_=global_, kind=kind)
        case i.Stats(target=target, versus=versus):
            named = [_player(n, mentions) if n is not None else actor for n in (target, versus)]
            for name, found in zip((target, versus), named, strict=True):
                if found is None:
                    return _error("cmd_unknown_player", name=name)
            who, other = named
            assert who is not None
            return await service.stats(who, place, versus=other if versus is not None else None)
        case i.Dice(target=target):
            if target is None:
                return await service.dice(place, who=actor)
            found = _player(target, mentions)
            if found is not None:
                return await service.dice(place, who=found)
            if is_game_id(target):
                return await service.dice(place, game_id=target)
            return _error("dice_unknown", name=target)
        case i.Export():
            return await service.export(actor, place)
        case i.Analyze(game_id=gid):
            return await service.analyze(actor, place, game_id=gid)
        case i.Lang(code=code):
            return await service.set_setting(actor, place, "lang", code, is_admin=is_admin, idem=idem)
        case i.Settings(setting=None):
            return await service.settings(actor, place)
        case i.Settings(setting=name, value=value):
            return await service.set_setting(actor, place, name or "", value or "", is_admin=is_admin, idem=idem)
        case pz.PuzzleShow(game=game):
            return await service.puzzle(actor, place, game)
        case pz.PuzzleAnswer(text=text):
            return await service.puzzle_answer(actor, place, text)
        case pz.PuzzleStep(pid=pid, owner=owner, path=path):
            return await service.puzzle_step(actor, place, pid, owner, path)
        case pz.PuzzleTop(count=count):
            return await service.top_puzzles(place, n=count)
    if isinstance(intent, t.TournamentCreate | t.TournamentAct | t.TournamentRemove | t.TournamentShow
                  | t.TournamentList):
        return await command(_tournament)(service, actor, place, intent, mentions, is_admin)
    return _error("cmd_unknown", word=intent.word or type(intent).__name__.lower(), suggestion="help")


async def _tournament(service: GameService, actor: PlayerRef, place: Place, intent: i.Intent,
                      mentions: Mapping[str, PlayerRef], is_admin: bool) -> Result:
    """The tournament commands (bot/service/tournaments), guarded like every service command."""
    events = service.tournaments
    match intent:
        case t.TournamentCreate(kind=kind, rounds=rounds, points=points, deadline=deadline, start_in=start_in,
                                start_at=start_at, rated=rated, game=game):
            starts = start_at if start_in is None else service.clock() + start_in  # None: on "tournament start"
            return await events.create(actor, place, kind, rounds, points, deadline, starts, rated, is_admin, game)
        case t.TournamentAct(action="join"):
            return await events.join(actor, place)
        case t.TournamentAct(action="leave"):
            return await events.leave(actor, place)
        case t.TournamentAct(action="start"):
            return await events.start(actor, place, is_admin)
        case t.TournamentAct(action="cancel"):
            return await events.cancel(actor, place, is_admin)
        case t.TournamentRemove(target=target):
            who = mentions.get(target) or mentions.get(target.lower())
            if who is None:
                return _error("cmd_unknown_player", name=target)
            return await events.remove(actor, place, who, is_admin)
        case t.TournamentShow(tournament_id=tid):
            return await events.standings(place, tid)
        case t.TournamentList():
            return await events.history(place)
    return _error("cmd_tournament_usage")
