"""Step-by-step oracle plans: fix one problem key at a time, in a fork.

``KeyPlanner`` plans the skill for the first unsatisfied problem key in a fork of the
simulator (TEACh action names and click targets), cuts it into chunks that end at an
interaction, and hands them out one by one. Before each chunk it checks that the real
world is in the state the plan expected; if not (a failed or different action), it
replans. Used by the teach-lowlevel Commander (which utters chunks) and the oracle
planner of the modular Follower (which executes them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simulator.expert.actor import TEACH_NAMES, SkillFailed
from simulator.expert.solver import TaskExpert
from simulator.sim import Simulator

MOTIONS = {TEACH_NAMES[a] for a in ("MoveAhead", "RotateLeft", "RotateRight", "LookUp", "LookDown")}

Chunk = list[tuple[str, dict[str, Any]]]


class KeyPlanner:
    """``goal``: a ``TeachGoal`` / ``AlfredGoal`` or a TEACh task instance. ``sim`` is read
    for its state hash; plans are tried in ``copy()`` (default ``sim.fork``), e.g. an
    ``OracleAccess`` and its ``what_if``."""

    def __init__(self, sim: Simulator | Any, goal: Any, copy: Callable[[], Simulator] | None = None) -> None:
        self.sim = sim
        self.copy = copy or sim.fork
        self.goal = goal
        self.chunks: list[tuple[Chunk, str]] = []
        self.expected: str | None = None
        self.last_failure: str | None = None
        self._planned_from: str | None = None  # the state the current plan started from
        self._whole_plan: list[tuple[Chunk, str]] = []

    def _replan(self) -> None:
        here = self.sim.state_hash()
        if here == self._planned_from:  # nothing happened since we planned: same plan again
            self.chunks = list(self._whole_plan)
            return
        self._planned_from = here
        fork = self.copy()
        expert = TaskExpert(fork, self.goal)
        expert.actor.vocabulary = "teach"
        expert.actor.trace_states = True
        self.chunks, self._whole_plan = [], []
        keys = expert.goal.keys(fork.world)
        if not keys:
            return
        try:
            expert.fix(keys[0])
        except SkillFailed as exc:
            self.last_failure = str(exc)  # keep what was planned before the failure, if anything
        actions, states = expert.actor.actions, expert.actor.states
        start = 0
        for i, (name, _) in enumerate(actions):
            if name not in MOTIONS or i == len(actions) - 1:
                self.chunks.append((actions[start: i + 1], states[i]))
                start = i + 1
        self._whole_plan = list(self.chunks)

    def next_chunk(self) -> Chunk:
        """The next piece of the plan (empty if there is nothing to do or no way to do it)."""
        if not self.chunks or self.sim.state_hash() != self.expected:
            self._replan()
        if not self.chunks:
            return []
        chunk, self.expected = self.chunks.pop(0)
        return chunk
