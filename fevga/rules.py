"""Per-game rule variants (RULES.md marks them *variant*); everything else is fixed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import FevgaError

CHECKERS = 15
POINTS = 24
OFF = 25
HOME_START = 19  # points 19..24 are the home quarter


@dataclass(frozen=True, slots=True)
class Rules:
    """Variant options: ``unlock_point`` (13 or 14) and ``strict_start_quarter`` (R1 per step)."""

    unlock_point: int = 13
    strict_start_quarter: bool = False

    def __post_init__(self) -> None:
        if type(self.unlock_point) is not int or self.unlock_point not in (13, 14):  # 13.0 is no point number
            raise FevgaError("unlock_point must be 13 or 14", key="bad_variant", name="unlock_point")
        if not isinstance(self.strict_start_quarter, bool):
            raise FevgaError(
                "strict_start_quarter must be true or false", key="bad_variant", name="strict_start_quarter"
            )

    def to_dict(self) -> dict[str, Any]:
        return {"unlock_point": self.unlock_point, "strict_start_quarter": self.strict_start_quarter}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        unlock = data.get("unlock_point", 13)
        strict = data.get("strict_start_quarter", False)
        if not isinstance(unlock, int) or isinstance(unlock, bool):
            raise FevgaError("unlock_point must be 13 or 14", key="bad_variant", name="unlock_point")
        return cls(unlock_point=unlock, strict_start_quarter=strict)


DEFAULT_RULES = Rules()
