"""Shortest action sequences between agent poses on a scene's navigable grid (oracle use).

Breadth-first search over (cell, rotation) states with MoveAhead / RotateLeft /
RotateRight, then LookUp / LookDown to the wanted horizon. Used by oracle experts and
rule-based Commanders (which know the map); a Follower plans on its own map instead.
"""

from __future__ import annotations

from collections import deque

from simulator.geometry import heading_vector
from simulator.scenes import Scene, to_cell

Pose = tuple[float, float, int, float]  # x, z, rotation, horizon


def _rotation(value: float) -> int:
    return int(round(value / 90.0)) * 90 % 360


def path_to(scene: Scene, start: Pose, goal: Pose, look_step: float = 15.0) -> list[str] | None:
    """ALFRED action names from ``start`` to ``goal`` (None if the goal cell is unreachable)."""
    start_state = (to_cell(start[0], start[1]), _rotation(start[2]))
    goal_state = (to_cell(goal[0], goal[1]), _rotation(goal[2]))
    parents: dict[tuple, tuple | None] = {start_state: None}
    queue = deque([start_state])
    while queue and goal_state not in parents:
        cell, rotation = queue.popleft()
        dx, dz = heading_vector(rotation)
        moves = (
            ("MoveAhead", ((cell[0] + round(dx), cell[1] + round(dz)), rotation)),
            ("RotateLeft", (cell, (rotation - 90) % 360)),
            ("RotateRight", (cell, (rotation + 90) % 360)),
        )
        for action, state in moves:
            if state in parents or state[0] not in scene.navigable:
                continue
            parents[state] = ((cell, rotation), action)
            queue.append(state)
    if goal_state not in parents:
        return None
    actions: list[str] = []
    state = goal_state
    while parents[state] is not None:
        state, action = parents[state]
        actions.append(action)
    actions.reverse()
    delta = goal[3] - start[3]
    steps = int(round(abs(delta) / look_step))
    actions += ["LookDown" if delta > 0 else "LookUp"] * steps
    return actions
