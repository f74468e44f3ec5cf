"""The navigation contract: how a skill gets the Follower where it can act, over the Belief.

The mapper that builds the Belief also provides its ``Navigator`` (``Mapper.navigator()``):
it moves the Follower, and when an object is not in memory it says where to search next
(``next_search``: a frontier of the explored area, or a receptacle to open, in the order of
a prior of where such objects tend to be);
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
    centred: bool = False  # an instance: prefer the poses nearest its middle ("go to the desk": its front)
    seen_within: float | None = None  # an instance: arrived once seen this near, on the way (None: ``reach``)

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
    searcher: Searcher  # where to look for an object that is not in memory

    @abstractmethod
    def step(self, observation: Observation, belief: Belief, goal: NavigationGoal) -> NavigationStep:
        """The next motion towards ``goal``, ARRIVED, or UNREACHABLE (with a reason)."""

    def reconsider(self, object_types: frozenset[str]) -> None:
        """The Follower looks for these types afresh (told of them again, or retrying a
        failing plan): what the navigator gave up on about their instances may be tried
        again. By default it remembers nothing to forget."""
        return None


@dataclass(frozen=True)
class SearchTarget:
    """Where to look next for an object: walk to ``goal`` (a frontier point or a receptacle
    instance) and look around there, open the receptacle (``open_receptacle``), or look
    into a container opened already from the pose the goal leads to (``look_inside``)."""

    goal: NavigationGoal
    open_receptacle: bool = False
    look_inside: bool = False
    reason: str = ""  # e.g. "frontier" or "Fridge: P(Apple in Fridge) = 0.31"


class Searcher(ABC):
    """The search half of a navigator (kept apart so a navigator can be built from parts)."""

    @abstractmethod
    def next_search(self, belief: Belief, object_type: str) -> SearchTarget | None:
        """Where to search for ``object_type`` next (None: nothing left to search)."""

    @abstractmethod
    def searched(self, target: SearchTarget) -> None:
        """Mark a target as searched (it is not proposed again this episode)."""

    @abstractmethod
    def start_over(self) -> None:
        """Forget what was searched: every target may be proposed again (the Commander spoke
        again of a type a search gave up on)."""

    def worth_opening(self, belief: Belief, target: SearchTarget) -> bool:
        """Is the container ``target`` proposes still to be opened, now that the Follower
        stands before it? (What was seen on the way may show it is one already open.)"""
        return True
