"""Where a plan puts down what it only needs out of its hand.

A plan often empties the hand without caring where: the knife after slicing, before the
slice is taken; a tool held when the task starts. Fast Downward's plans are satisficing
(lazy greedy search, no action costs), so such a put goes to whichever receptacle of the
problem the search met first: in TATC valid_unseen 0241 the butter knife went to a
"bathtub basin" the detector had seen in the kitchen, 30 steps away, and when that was not
found, to a "bathtub", then to the counter it had stood at (55 steps for one put).

``repark`` moves such a put to the open surface (``knowledge.open_surface``) that makes the
walk shortest: from where the step before it acts to the surface, then on to where the step
after it acts, measured to the instances' footprints. A put is moved only when nothing
depends on where the thing lands: neither the thing nor the receptacle is named by the
goal, no other step of the plan acts on the receptacle, and the put does nothing but put
(an open surface, or a basin under no tap that is running or turned on in the plan: the tap
that rinses a plate in the sink does not pin the knife's put to a bathtub basin). The new
surface is one such a thing usually goes on (``problem.sensible``), seen in more than one
frame, not shut in, not full, and acted on by no other step.
"""

from __future__ import annotations

from dataclasses import replace

from contracts.language import Subgoal
from contracts.planning import PlannedSubgoal
from planner import knowledge
from planner.problem import sensible
from planner.symbolic import SymbolicState

GAIN = 0.75  # metres of walking a new surface must save before a put is moved (three steps)


def repark(steps: list[PlannedSubgoal], state: SymbolicState, goal_keys: frozenset[str],
           full: set[str]) -> list[PlannedSubgoal]:
    """The plan with each free put moved to the surface on the shortest way (see above)."""
    out = list(steps)
    for i, step in enumerate(out):
        if not _free_put(out, i, state, goal_keys):
            continue
        ends = [p for p in (_where(out[i - 1], state) if i > 0 else state.agent,
                            _where(out[i + 1], state) if i + 1 < len(out) else None) if p is not None]
        item, target = step.object_key, step.receptacle_key  # both set: a free put
        best = min((k for k in state.types if _takes(k, item, out, state, full)),
                   key=lambda k: (_detour(state, k, ends), k), default=None)
        if best is not None and _detour(state, best, ends) + GAIN < _detour(state, target, ends):
            out[i] = replace(step, subgoal=Subgoal("PutObject", step.subgoal.object, state.types[best]),
                             receptacle_key=best)
    return out


def _detour(state: SymbolicState, key: str, ends: list[tuple[float, float]]) -> float:
    """Metres from the step before to ``key``'s footprint and on to the step after."""
    return sum(state.gap(key, point) for point in ends)


def _acted_on(steps: list[PlannedSubgoal], key: str, skip: int) -> bool:
    return any(key in (s.object_key, s.receptacle_key) for n, s in enumerate(steps) if n != skip)


def _free_put(steps: list[PlannedSubgoal], i: int, state: SymbolicState, goal_keys: frozenset[str]) -> bool:
    """Does nothing depend on where the put of step ``i`` lands?"""
    step = steps[i]
    item, target = step.object_key, step.receptacle_key
    if step.subgoal.action != "PutObject" or item not in state.types or target not in state.types:
        return False
    if item in goal_keys or target in goal_keys or _acted_on(steps, target, i):
        return False
    kind = state.types[target]
    if knowledge.open_surface(kind):
        return True
    if kind not in knowledge.BASINS:
        return False
    taps = {f[1] for f in state.facts if f[0] == "controls" and f[2] == target}
    return not any(state.holds("on", tap) for tap in taps) and not any(
        s.subgoal.action == "ToggleObjectOn" and s.object_key in taps for s in steps)


def _takes(key: str, item: str, steps: list[PlannedSubgoal], state: SymbolicState, full: set[str]) -> bool:
    """May the free put of ``item`` go to ``key`` instead?"""
    kind = state.types[key]
    return (knowledge.open_surface(kind) and state.holds("present", key) and key not in state.placeholders
            and key not in state.glimpsed and state.accessible(key) and key not in full
            and sensible(state.types[item], kind, False)
            and not _acted_on(steps, key, -1))


def _where(step: PlannedSubgoal, state: SymbolicState) -> tuple[float, float] | None:
    """Where a step acts (what it puts into, else what it acts on); None for a search."""
    key = step.receptacle_key or step.object_key
    if step.search or key is None:
        return None
    return state.positions.get(key)
