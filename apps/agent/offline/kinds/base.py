"""What a question kind is: a name, a detector and a builder over the planner's MetricBuilder."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


@dataclass(frozen=True)
class Kind:
    name: str
    detect: Callable[[MetricBuilder], bool]
    build: Callable[[MetricBuilder], None]
