"""The mapping interface: ``update(observation, detections) -> Belief``."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from contracts.language import Belief, Detection


@runtime_checkable
class Mapper(Protocol):
    def reset(self) -> None: ...

    def update(self, observation: Any, detections: list[Detection]) -> Belief: ...
