"""``OracleAccess``: the read-only window on ground truth that the runner hands to
Follower-side modules named ``oracle-*`` (and only to them; every result lists them).

It can read (the world state, AI2-THOR metadata, the rendered instance buffer, the
episode, its task, the Follower's odometry origin) but it cannot act: it has no way to
step, say, reset or fork the episode's simulator. Oracle planners that need to try actions
ahead plan in a ``what_if()`` copy: a detached simulator over a deep copy of the current
state, which nothing done in it can bring back into the episode.
"""

from __future__ import annotations

from typing import Any

from contracts.observation import FOLLOWER
from simulator.render.types import Frames
from simulator.sim import Simulator
from simulator.world import World


class OracleAccess:
    __slots__ = ("__sim", "episode", "task")

    def __init__(self, sim: Simulator, episode: Any, task: Any = None) -> None:
        self.__sim = sim
        self.episode = episode
        self.task = task

    @property
    def world(self) -> World:
        """The world state (ground truth). Read it; never change it."""
        return self.__sim.world

    def metadata(self, agent_id: int = FOLLOWER) -> dict[str, Any]:
        return self.__sim.metadata(agent_id)

    def instance_frame(self, agent_id: int = FOLLOWER) -> Frames:
        """The rendered view with its instance buffer (needs ``render: egl``)."""
        return self.__sim.instance_frame(agent_id)

    @property
    def rendering(self) -> bool:
        return self.__sim.rendering

    def odometry_origin(self, agent_id: int = FOLLOWER) -> tuple:
        """The world pose the agent's odometry is relative to (its pose at reset)."""
        return self.__sim.odometry_origin(agent_id)

    def state_hash(self) -> str:
        return self.__sim.state_hash()

    def what_if(self) -> Simulator:
        """A detached simulator over a copy of the current state, to try actions in. With
        rendering on, its clicks resolve through the episode's renderer (as a fork's do)."""
        return self.__sim.fork()
