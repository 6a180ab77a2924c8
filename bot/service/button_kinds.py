"""The kinds of button the bot shows: one enum shared by the service's actions, the token codec, the
presenter and every frontend's layout, so an unknown kind cannot exist."""

from __future__ import annotations

from enum import StrEnum


class ButtonKind(StrEnum):
    """What a button does; its value is the word frontends lay out by (and Discord puts in custom ids)."""

    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"
    STEP = "step"  # move one checker from a point with one die
    PLAY = "play"  # a whole play in one tap (offered when the roll allows only a few)
    UNDO = "undo"
    CONFIRM = "confirm"
    RESIGN = "resign"  # asks first: shows a RESIGN_CONFIRM button
    RESIGN_CONFIRM = "resign_confirm"
    RESIGN_MATCH_CONFIRM = "resign_match_confirm"  # the whole match given up (``resign match`` asked first)
    REMATCH = "rematch"
    CLAIM = "claim"
    ABORT = "abort"
    HINT = "hint"
