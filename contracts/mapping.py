"""The mapping contract: ``Mapper.update(observation, detections, outcome, hints) -> Belief``.

Each step the mapper gets the observation (depth, odometry pose), the perception module's
detections, the outcome of the Follower's last low-level action (which memory instances it
was meant for, and whether it succeeded: picked up, put, opened, sliced...) and the location
hints heard in dialogue ("the knife is in the drawer"), and returns the Belief. It also
provides the ``Navigator`` that moves the Follower over the maps it builds
(``contracts.navigation``), which the Follower hands to the planner's skills.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from contracts.belief import Belief
from contracts.language import LocationHint
from contracts.navigation import Navigator
from contracts.observation import ModuleContext, Observation
from contracts.perception import Detection
from contracts.planning import ActionOutcome


class Mapper(ABC):
    """Observations -> Belief. ``reset`` starts an episode (an empty map)."""

    def reset(self, context: ModuleContext) -> None:
        self.context = context

    @abstractmethod
    def update(self, observation: Observation, detections: list[Detection],
               outcome: ActionOutcome | None = None, hints: Sequence[LocationHint] = ()) -> Belief:
        """The Belief after this observation."""

    @abstractmethod
    def navigator(self) -> Navigator:
        """The navigator for this mapper's Belief (one per episode: made anew at ``reset``)."""
