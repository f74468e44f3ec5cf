"""Random start states: things rest where AI2-THOR's do and never inside one another."""

from __future__ import annotations

import pytest

from simulator.geometry import CAMERA_HEIGHT
from simulator.objects import encloses
from simulator.placement import CLEARANCE, INNER_FLOOR
from simulator.spawn import random_start
from simulator.start_state import build_world


@pytest.mark.parametrize("scene", ["FloorPlan10", "FloorPlan219", "FloorPlan308", "FloorPlan424"])
def test_no_two_spawned_things_interpenetrate(scene):
    for seed in range(6):
        world = build_world(random_start(scene, seed))
        movables = [o for o in world.objects.values() if not o.fixed]
        assert len(movables) > 5
        for i, a in enumerate(movables):
            for b in movables[i + 1:]:
                assert not all(
                    abs(a.position[k] - b.position[k]) < (a.size[k] + b.size[k]) / 2 - CLEARANCE for k in range(3)
                ), (a.object_id, b.object_id)


def test_things_in_an_enclosure_rest_on_its_shelf_and_above_the_eye_near_its_front():
    placed = 0
    for seed in range(40):
        world = build_world(random_start("FloorPlan10", seed))
        for o in world.objects.values():
            parent = world.objects[o.parent] if o.parent else None
            if o.fixed or parent is None or not encloses(parent) or not parent.levels:
                continue
            bottom = o.position[1] - o.size[1] / 2
            assert min(abs(bottom - level) for level in parent.levels) < 2e-3  # on a shelf
            if bottom > CAMERA_HEIGHT:  # a wall cabinet or the microwave over the stove
                fixed = world.scene.fixed_objects[parent.object_id]
                assert fixed.front is not None and fixed.interaction_pose is not None
                axis, sign = (0, fixed.front[0]) if fixed.front[0] else (2, fixed.front[1])
                eye = (fixed.interaction_pose[0], fixed.interaction_pose[1])[0 if axis == 0 else 1]
                edge = parent.position[axis] + sign * parent.size[axis] / 2  # the shelf's front edge
                face = o.position[axis] + sign * o.size[axis] / 2  # the thing's front face
                top = bottom + o.size[1]
                ray_at_edge = CAMERA_HEIGHT + (top - CAMERA_HEIGHT) * abs(eye - edge) / abs(eye - face)
                foremost = edge - sign * INNER_FLOOR  # its face as far forward as it fits inside the walls
                # its face's top shows past the edge from the pose, or it is as far forward as it fits
                assert ray_at_edge >= bottom - 1e-6 or sign * (face - foremost) >= -1e-3
                placed += 1
    assert placed > 0
