"""Carry out an intent on the game service. The one place where command words meet service calls."""

from __future__ import annotations

from collections.abc import Mapping

from bot.service.models import Msg, Place, PlayerRef, Result
from bot.service.service import GameService

from . import intents as i


def _info(key: str, **args: object) -> Result:
    return Result(ok=True, messages=[Msg(key, dict(args))])


def _error(key: str, **args: object) -> Result:
    return Result.error(key, **args)


async def execute(
    service: GameService,
    actor: PlayerRef,
    place: Place,
    intent: i.Intent,
    *,
    idem: str | None = None,
    mentions: Mapping[str, PlayerRef] | None = None,
    is_admin: bool = False,
    game_id: str | None = None,
) -> Result:
    """Run one intent for ``actor`` in ``place`` and return the service's platform-neutral result."""
    mentions = mentions or {}
    match intent:
        case i.Help(topic=topic):
            return _info(f"help_{topic}" if topic else "help")
        case i.ShowRules():
            return _info("rules_summary")
        case i.Challenge(target=target, length=length, rules=rules):
            opponent = None
            if target is not None:
                opponent = mentions.get(target) or mentions.get(target.lower())
                if opponent is None:
                    return _error("cmd_unknown_player", name=target)
                if opponent == actor or (opponent.platform, opponent.user_id) == (actor.platform, actor.user_id):
                    return _error("challenge_self")
            return await service.challenge(actor, place, opponent, length=length, rules=rules, idem=idem)
        case i.Accept(challenge_id=cid):
            return await service.accept(actor, place, challenge_id=cid, idem=idem)
        case i.Decline(challenge_id=cid):
            return await service.decline(actor, place, challenge_id=cid, idem=idem)
        case i.Cancel(challenge_id=cid):
            return await service.cancel(actor, place, challenge_id=cid, idem=idem)
        case i.PlayAI(level=level, length=length):
            return await service.play_ai(actor, place, level=level, length=length, idem=idem)
        case i.Move(text=text):
            return await service.move(actor, place, text, game_id=game_id, idem=idem)
        case i.Undo():
            return await service.undo(actor, place, game_id=game_id, idem=idem)
        case i.Confirm():
            return await service.confirm(actor, place, game_id=game_id, idem=idem)
        case i.ShowBoard():
            return await service.board(actor, place)
        case i.Hint():
            return await service.hint(actor, place)
        case i.Resign(whole_match=whole):
            return await service.resign(actor, place, whole_match=whole, idem=idem)
        case i.Abort():
            return await service.abort(actor, place, idem=idem)
        case i.Claim():
            return await service.claim(actor, place, idem=idem)
        case i.Rematch():
            return await service.rematch(actor, place, idem=idem)
        case i.Top(global_=global_, count=count):
            return await service.top(place, n=count, global_=global_)
        case i.Stats(target=target):
            who = actor
            if target is not None:
                found = mentions.get(target) or mentions.get(target.lower())
                if found is None:
                    return _error("cmd_unknown_player", name=target)
                who = found
            return await service.stats(who, place)
        case i.Export():
            return await service.export(actor, place, game_id=game_id)
        case i.Replay():
            return await service.export(actor, place, game_id=game_id)
        case i.Lang(code=code):
            return await service.set_setting(actor, place, "lang", code, is_admin=is_admin, idem=idem)
        case i.Settings(setting=None):
            return await service.settings(actor, place)
        case i.Settings(setting=name, value=value):
            return await service.set_setting(actor, place, name or "", value or "", is_admin=is_admin, idem=idem)
    return _error("cmd_unknown", word=intent.name, suggestion="help")
