"""The navigation contract: how a skill gets the Follower where it can act, over the Belief.

The mapper that builds the Belief also provides its ``Navigator`` (``Mapper.navigator()``);
the Follower hands it to the planner's skills (``Planner.skill(step, belief, navigator)``),
so skills navigate without importing the mapping package. ``Navigator.step`` is called
once per Follower step and plans again over the current map every time, so a failed move
or a map that changed is taken into account at once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import StrEnum

from contracts.belief import Belief
from contracts.observation import Observation


@dataclass(frozen=True)
class NavigationGoal:
    """Where to go: a pose from which a memory instance is in view and within reach
    (``instance``), or onto an odometry point (``point`` = (x, z))."""

    instance: str | None = None
    point: tuple[float, float] | None = None
    reach: float = 1.5  # metres (AI2-THOR's interaction distance)

    def __post_init__(self) -> None:
        if (self.instance is None) == (self.point is None):
            raise ValueError("a NavigationGoal names exactly one of instance or point")


class NavigationState(StrEnum):
    MOVING = "moving"  # ``action`` is the next motion
    ARRIVED = "arrived"  # in view and within reach (or on the point)
    UNREACHABLE = "unreachable"  # no path over the current map


@dataclass(frozen=True)
class NavigationStep:
    state: NavigationState
    action: str | None = None  # a TEACh motion: Forward, Turn Left, Turn Right, Look Up, Look Down
    reason: str = ""


class Navigator(ABC):
    @abstractmethod
    def step(self, observation: Observation, belief: Belief, goal: NavigationGoal) -> NavigationStep:
        """The next motion towards ``goal``, ARRIVED, or UNREACHABLE (with a reason)."""
