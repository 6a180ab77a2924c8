"""What a renderer draws (:class:`GameView`) and which buttons a game offers now (:class:`Action`)."""

from __future__ import annotations

from bot.service.button_kinds import ButtonKind
from bot.service.play_codes import play_code
from fevga import StepState, format_play
from fevga.dice import FairDice
from fevga.errors import IllegalStepError
from fevga.rules import OFF

from .fairness import both_moved
from .models import Action, GameView
from .rematches import rematch_refused
from .session import Session

PICKER_MAX = 5  # whole plays offered as buttons when the roll allows at most this many distinct results


def step_state(s: Session) -> StepState | None:
    """The step builder for the player to move (None when the game is not being played)."""
    game = s.game
    if s.status != "play" or game.dice is None or game.is_over():
        return None
    try:
        return game.step_options(s.pending)
    except IllegalStepError:
        return game.step_options([])


def build_view(s: Session, version: int) -> GameView:
    """Everything needed to draw the session's current (or last) game."""
    game = s.game
    last = game.last_play
    outcome = game.outcome
    state = step_state(s)
    source = game.dice_source
    return GameView(
        game_id=s.id,
        version=version,
        position_id=game.view(0).id(),
        turn=game.turn,
        dice=game.dice,
        players=s.players,
        last_steps=last.steps if last else (),
        last_mover=last.player if last else None,
        last_dice=last.dice if last else None,
        match_length=s.length,
        score=(s.score[0], s.score[1]),
        game_no=s.game_no,
        winner=outcome.winner if outcome else None,
        match_winner=s.winner,
        points=outcome.points if outcome else 0,
        mars=bool(outcome and outcome.mars and not outcome.resigned),  # a resignation is said as one
        mother=bool(outcome and outcome.by_mother),
        resigned=bool(outcome and outcome.resigned and outcome.winner is not None),
        legal_from=state.options if state else {},
        dice_left=state.dice_left if state else (),
        pending=state.steps if state else (),
        pending_complete=bool(state and state.play is not None),
        status=s.status,
        deadline=s.deadline if s.status == "play" else None,
        commitment=source.commitment if isinstance(source, FairDice) else "",
        rules=s.rules.to_dict(),
        rated=s.rated and len(s.human_seats()) == 2,
        game=s.game_name,
        kind=s.kind,
        last_hits=last.hits if last else (),
        drawn=bool(outcome and outcome.is_draw),
        previous_drawn=s.previous_drawn,
        end=s.end,
    )


def play_actions(s: Session, view: GameView) -> list[Action]:
    """One button per whole play when the roll allows at most PICKER_MAX distinct ones (none once a step
    is pending): labelled with its canonical text, with its steps as a code the button hands back."""
    if view.pending or not view.legal_from:
        return []
    plays = s.game.legal_plays()
    if not 1 <= len(plays) <= PICKER_MAX or plays[0].is_pass:
        return []
    return [
        Action(ButtonKind.PLAY, s.id, view.version, "btn_play",
               {"play": format_play(p), "code": play_code(p.steps, getattr(p, "hits", ()))})
        for p in plays
    ]


def step_label(game: str, point: int, die: int, hitting: frozenset[tuple[int, int]]) -> str:
    """The label of a step button: from the bar (Portes) and a landing that hits (Portes) or pins (Plakoto)
    are marked."""
    mark = ("_pin" if game == "plakoto" else "_hit") if (point, die) in hitting else ""
    return "btn_step" + ("_bar" if point == 0 else "") + mark


def abortable(s: Session) -> bool:
    """Abort is allowed in a match's first game until both players have made a play."""
    return s.status == "play" and not both_moved(s)


def actions_for(s: Session, view: GameView, now: float) -> list[Action]:
    """The buttons to show under this game now. The service still checks who presses them."""
    gid, v = s.id, view.version
    out: list[Action] = []
    if s.status != "play":
        if s.status == "done" and rematch_refused(s) is None:  # not after a leaver or a tournament's pairing
            out.append(Action(ButtonKind.REMATCH, gid, v, "btn_rematch", {}))
        return out
    if not s.is_ai(view.turn):
        state = step_state(s) if view.legal_from and s.game_name != "fevga" else None  # Fevga never hits
        hitting = state.hitting if state is not None else frozenset()
        for point, dice in sorted(view.legal_from.items()):
            for die in dice:
                to = point + die if point + die < OFF else "off"
                out.append(Action(ButtonKind.STEP, gid, v, step_label(s.game_name, point, die, hitting),
                                  {"from_point": point, "die": die, "to": to}))
        out.extend(play_actions(s, view))
        if view.pending:
            out.append(Action(ButtonKind.UNDO, gid, v, "btn_undo", {}))
        if view.pending_complete:
            out.append(Action(ButtonKind.CONFIRM, gid, v, "btn_confirm", {}))
    out.append(Action(ButtonKind.RESIGN, gid, v, "btn_resign", {}))
    if abortable(s):
        out.append(Action(ButtonKind.ABORT, gid, v, "btn_abort", {}))
    if now >= s.deadline:
        out.append(Action(ButtonKind.CLAIM, gid, v, "btn_claim", {}))
    return out
