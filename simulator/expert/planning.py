"""Step-by-step oracle plans: fix one problem key at a time, in a fork.

``KeyPlanner`` plans the skill for the first unsatisfied problem key in a fork of the
simulator (TEACh action names and click targets), cuts it into chunks that end at an
interaction, and hands them out one by one. Before each chunk it checks that the real
world is in the state the plan expected; if not (a failed or different action), it
replans. When the key's object cannot be worked on at all (no pose sees it: a slice buried
under others) and the same fix on another instance of its type raises the number of goal
conditions met (any two slices of a potato may be the cooked ones), that instance is
worked on instead. Used by the teach-lowlevel Commander (which utters chunks) and the oracle
planner of the modular Follower (which executes them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from simulator.expert.actor import TEACH_NAMES, SkillFailed
from simulator.expert.solver import TaskExpert
from simulator.expert.solver_keys import ProblemKey
from simulator.sim import FOLLOWER, Simulator

MOTIONS = {TEACH_NAMES[a] for a in ("MoveAhead", "RotateLeft", "RotateRight", "LookUp", "LookDown")}
MAX_SUBSTITUTES = 6  # other instances tried, nearest the Follower first

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
        self.chunks, self._whole_plan = [], []
        expert = self._expert()
        keys = expert.goal.keys(expert.world)
        if not keys:
            return
        failure = self._fix(expert, keys[0])
        if failure is not None and not expert.actor.actions:  # nothing done: the fork is unchanged
            before = expert.goal.satisfied(expert.world)
            for other in self._substitutes(keys[0]):
                trial = self._expert()
                if self._fix(trial, other) is None and trial.goal.satisfied(trial.world) > before:
                    expert, failure = trial, None
                    break
        self.last_failure = failure  # keep what was planned before a failure, if anything
        actions, states = expert.actor.actions, expert.actor.states
        start = 0
        for i, (name, _) in enumerate(actions):
            if name not in MOTIONS or i == len(actions) - 1:
                self.chunks.append((actions[start: i + 1], states[i]))
                start = i + 1
        self._whole_plan = list(self.chunks)

    def _expert(self) -> TaskExpert:
        """An expert working in a new fork, speaking TEACh's action names."""
        expert = TaskExpert(self.copy(), self.goal)
        expert.actor.vocabulary = "teach"
        expert.actor.trace_states = True
        return expert

    @staticmethod
    def _fix(expert: TaskExpert, key: ProblemKey) -> str | None:
        """Fix ``key`` in the expert's fork; why it failed (None: it did not)."""
        try:
            expert.fix(key)
        except SkillFailed as exc:
            return str(exc)
        return None

    def _substitutes(self, key: ProblemKey) -> list[ProblemKey]:
        """The key on the other instances of its object's type, nearest the Follower first."""
        world = self.sim.world
        kind = world.objects[key.object_id].object_type if key.object_id in world.objects else None
        agent = world.agents[FOLLOWER]
        others = sorted(
            (o for oid, o in world.objects.items() if o.object_type == kind and oid != key.object_id),
            key=lambda o: ((o.position[0] - agent.x) ** 2 + (o.position[2] - agent.z) ** 2, o.object_id),
        )
        return [replace(key, object_id=o.object_id) for o in others[:MAX_SUBSTITUTES]]

    def next_chunk(self) -> Chunk:
        """The next piece of the plan (empty if there is nothing to do or no way to do it)."""
        if not self.chunks or self.sim.state_hash() != self.expected:
            self._replan()
        if not self.chunks:
            return []
        chunk, self.expected = self.chunks.pop(0)
        return chunk
