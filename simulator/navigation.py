"""Shortest action sequences between agent poses on a scene's navigable grid (oracle use).

Breadth-first search over (cell, rotation) states with MoveAhead / RotateLeft /
RotateRight, then LookUp / LookDown to the wanted horizon. Used by oracle experts and
rule-based Commanders (which know the map); a Follower plans on its own map instead.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from simulator.geometry import heading_vector
from simulator.scenes import Scene, to_cell

Pose = tuple[float, float, int, float]  # x, z, rotation, horizon
State = tuple[tuple[int, int], int]  # cell, rotation


def _rotation(value: float) -> int:
    return int(round(value / 90.0)) * 90 % 360


def _neighbours(state: State) -> tuple[tuple[str, State], ...]:
    cell, rotation = state
    dx, dz = heading_vector(rotation)
    return (
        ("MoveAhead", ((cell[0] + round(dx), cell[1] + round(dz)), rotation)),
        ("RotateLeft", (cell, (rotation - 90) % 360)),
        ("RotateRight", (cell, (rotation + 90) % 360)),
    )


def search(
    scene: Scene, start: Pose, is_goal: Callable[[State], bool], blocked: frozenset = frozenset()
) -> list[tuple[str, State]] | None:
    """Breadth-first: the (action, state) steps to the nearest state satisfying ``is_goal``."""
    first = (to_cell(start[0], start[1]), _rotation(start[2]))
    parents: dict[State, tuple[State, str] | None] = {first: None}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        if is_goal(state):
            steps = []
            while parents[state] is not None:
                previous, action = parents[state]
                steps.append((action, state))
                state = previous
            return steps[::-1]
        for action, nxt in _neighbours(state):
            if nxt in parents or nxt[0] not in scene.navigable or nxt[0] in blocked:
                continue
            parents[nxt] = (state, action)
            queue.append(nxt)
    return None


def look_actions(from_horizon: float, to_horizon: float, look_step: float = 15.0) -> list[str]:
    delta = to_horizon - from_horizon
    return ["LookDown" if delta > 0 else "LookUp"] * int(round(abs(delta) / look_step))


def path_to(scene: Scene, start: Pose, goal: Pose, look_step: float = 15.0) -> list[str] | None:
    """ALFRED action names from ``start`` to ``goal`` (None if the goal cell is unreachable)."""
    target = (to_cell(goal[0], goal[1]), _rotation(goal[2]))
    steps = search(scene, start, lambda state: state == target)
    if steps is None:
        return None
    return [action for action, _ in steps] + look_actions(start[3], goal[3], look_step)
