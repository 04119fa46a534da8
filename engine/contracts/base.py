"""The base of every contract, and the closed sets several contract modules share."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

BBox = tuple[float, float, float, float]
"""A rectangle on a page in PDF points: (x0, y0, x1, y1), origin top-left (PyMuPDF convention)."""


class Contract(BaseModel):
    """Base of every contract: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


StrategyName = Literal["auto", "single_pass", "dispatched", "dynamic", "plan_execute"]
EffectiveStrategy = Literal["single_pass", "dispatched", "dynamic", "plan_execute"]
