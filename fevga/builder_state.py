"""What the step builder answers (``StepState``) and what it is asked (``PendingStep``), apart from
``fevga.builder`` so the Portes/Plakoto builder (``fevga.variants.builder``) shares them without a cycle."""

from __future__ import annotations

from dataclasses import dataclass

from .play import Play
from .steps import Step

PendingStep = tuple[int, int]  # (from point, die) as clicked


@dataclass(frozen=True, slots=True)
class StepState:
    """Where the builder stands: pending steps as (from, to), dice left, next steps, finished play."""

    steps: tuple[Step, ...]
    dice_left: tuple[int, ...]
    options: dict[int, list[int]]  # from point -> dice that can be used from it now
    play: Play | None  # the legal play the pending steps make, once complete
    hits: tuple[bool, ...] = ()  # per pending step: its landing hit or pinned (Portes, Plakoto; empty in Fevga)
    hitting: frozenset[tuple[int, int]] = frozenset()  # offered (from point, die) steps that would hit or pin
