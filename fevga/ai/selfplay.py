"""One TD(λ) self-play game and its λ-return targets (used by the trainer and its worker processes)."""

from __future__ import annotations

import random

import numpy as np

from fevga import DEFAULT_RULES, Position, Rules, legal_plays

from .encoding import FloatArray, encode
from .evaluate import afterstate_outputs, terminal_points
from .games import GameKind, kind
from .network import Network, equity, flip_outputs
from .players import Player

MAX_TURNS = 2000


def self_play_game(
    net: Network,
    seed: int,
    rules: Rules = DEFAULT_RULES,
    game: str = "fevga",
    opponent: Player | None = None,
    opponent_seat: int = 1,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Play one 0-ply self-play game of ``game``; return (inputs of each position on roll, the
    network's estimate of the *next* position from its own mover's side, the final result for the
    last mover). ``opponent`` (Portes and Plakoto only) plays seat ``opponent_seat`` instead."""
    if game != "fevga":
        return tavli_self_play_game(net, seed, kind(game), opponent, opponent_seat)
    if opponent is not None:
        raise ValueError("training against another player is for Portes and Plakoto")
    rng = random.Random(seed)
    position = Position.start()
    rows: list[FloatArray] = [encode([position], net.n_inputs)[0]]
    next_values: list[FloatArray] = []
    for _ in range(MAX_TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice, rules)
        x, out = afterstate_outputs(net, [p.result for p in plays])
        eq = -equity(out)
        final = None
        for k, p in enumerate(plays):
            points = terminal_points(p.result)
            if points is not None:
                eq[k] = points + 10.0  # a game-ending play is always best
                final = k
        k = int(np.argmax(eq))
        if final is not None and k == final:
            result = plays[k].result
            z = np.array([1.0, 1.0 if result.opp_off == 0 else 0.0, 0.0])
            return np.array(rows), np.array(next_values).reshape(-1, 3), z
        rows.append(x[k])
        next_values.append(out[k])
        position = plays[k].result.flip()
    raise RuntimeError(f"self-play game {seed} did not end")


def lambda_returns(next_values: FloatArray, z: FloatArray, lam: float) -> FloatArray:
    """Targets for positions 0..T-1: G_{T-1} = z; G_t = (1-λ) flip(V_{t+1}) + λ flip(G_{t+1})."""
    t_count = next_values.shape[0] + 1
    targets = np.empty((t_count, 3))
    targets[-1] = z
    flipped_v = flip_outputs(next_values) if len(next_values) else next_values
    for t in range(t_count - 2, -1, -1):
        g = targets[t + 1]
        flipped_g = np.array([1.0 - g[0], g[2], g[1]])
        targets[t] = (1.0 - lam) * flipped_v[t] + lam * flipped_g
    return targets


def outcome_target(points: float) -> FloatArray:
    """The network's target for the mover of a play that ended the game with ``points`` for him:
    (win, win 2+, lose 2+); a draw is half a win."""
    if points == 0:
        return np.array([0.5, 0.0, 0.0])
    if points > 0:
        return np.array([1.0, 1.0 if points >= 2 else 0.0, 0.0])
    return np.array([0.0, 0.0, 1.0 if points <= -2 else 0.0])


def tavli_self_play_game(
    net: Network, seed: int, game: GameKind, opponent: Player | None = None, opponent_seat: int = 1
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """:func:`self_play_game` for Portes or Plakoto: the first play that wins is always taken, a
    draw is judged like any other play (equity 0). A game still going after MAX_TURNS (both sides
    stuck) is learnt as a draw. With ``opponent``, that player makes the plays of seat
    ``opponent_seat`` (1: the second to move) and the network learns from both sides' positions
    all the same, so it learns what that player's plays lead to (training against the heuristic)."""
    rng = random.Random(seed)
    position: Position = game.start()
    rows: list[FloatArray] = [game.encode([position])[0]]
    next_values: list[FloatArray] = []
    for turn in range(MAX_TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if opponent is not None and turn % 2 == opponent_seat:
            results = [opponent.choose(position, dice, DEFAULT_RULES).result]
            x, points = game.afterstates(results)
            out = net.forward(x)
            k = 0
        else:
            results = [p.result for p in legal_plays(position, dice)]
            x, points = game.afterstates(results)
            out = net.forward(x)
            eq = np.where(np.isnan(points), -equity(out), np.where(points > 0, points + 10.0, points))
            k = int(np.argmax(eq))
        if not np.isnan(points[k]):
            return np.array(rows), np.array(next_values).reshape(-1, 3), outcome_target(float(points[k]))
        rows.append(x[k])
        next_values.append(out[k])
        position = results[k].flip()
    return np.array(rows), np.array(next_values).reshape(-1, 3), outcome_target(0.0)
