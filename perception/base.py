"""The perception interface: ``detect(observation) -> list[Detection]``."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from contracts.language import Detection


@runtime_checkable
class Perception(Protocol):
    def reset(self) -> None: ...

    def detect(self, observation: Any) -> list[Detection]: ...
