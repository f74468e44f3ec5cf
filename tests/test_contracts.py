"""The shared contracts carry real data: odometry observations, typed detections, the
Belief's grid (unknown / free / obstacle) and object memory, the one TEACh task table."""

from __future__ import annotations

import argparse
import math

import numpy as np
import pytest

from contracts.belief import Cell, GridMap, ObjectMemory
from contracts.geometry import (
    CameraIntrinsics,
    Pose,
    depth_to_points,
    relative_pose,
    world_to_odometry,
)
from contracts.observation import FOLLOWER, ModuleContext
from contracts.perception import Detection, box_mask, mask_box
from contracts.tasks import BY_NAME, TEACH_TASK_TYPES, named_params, positional_params
from mapping.oracle_map import OracleMap
from simulator.episodes.model import load_episodes, shipped_path
from simulator.oracle import OracleAccess
from simulator.render import available
from simulator.sim import Simulator
from simulator.tasks import load_task_library
from simulator.tasks.benchmark import TEACH_TASK_TYPES as SIM_TASK_TYPES

EPISODE = load_episodes(shipped_path("valid_unseen"))[0][0]
CAMERA = CameraIntrinsics(300, 300, 90.0, 1.576)


def test_observations_carry_odometry_relative_to_the_start_pose():
    sim = Simulator()
    first = sim.reset(EPISODE.start)
    assert (first.pose.x, first.pose.z, first.pose.heading) == (0.0, 0.0, 0.0)
    moved = next(r for a in ("MoveAhead", "RotateRight", "RotateLeft") if (r := sim.step(FOLLOWER, a)).success
                 and a == "MoveAhead" or a != "MoveAhead" and r.success).observation
    agent = sim.world.agents[FOLLOWER]
    expected = relative_pose(sim.odometry_origin(), agent.pose())
    assert moved.pose == expected
    sim.step(FOLLOWER, "RotateRight")
    assert sim.observe(FOLLOWER).pose.heading == (expected.heading + 90) % 360


def test_relative_pose_and_world_to_odometry_agree():
    start = (1.0, 2.0, 90.0, 0.0)  # facing +x: odometry "ahead" is world +x, "right" is world -z
    assert relative_pose(start, (1.5, 2.0, 90.0, 30.0)) == Pose(0.0, 0.5, 0.0, 30.0)
    assert relative_pose(start, (1.0, 1.75, 180.0, 0.0)) == Pose(0.25, 0.0, 90.0, 0.0)
    np.testing.assert_allclose(world_to_odometry(np.array([[1.0, 0.9, 1.75]]), start), [[0.25, 0.9, 0.0]], atol=1e-9)


def test_detections_are_typed_and_clickable():
    mask = np.zeros((10, 20), dtype=bool)
    mask[2:5, 3:9] = True
    detection = Detection("Mug", 0.9, mask_box(mask), mask)
    assert detection.box == (3.0, 2.0, 9.0, 5.0) and detection.pixels == 18
    x, y = detection.click_point()
    assert mask[int(y * 10), int(x * 20)]
    assert (box_mask(detection.box, 10, 20) == mask).all()
    with pytest.raises(TypeError, match="bool numpy array"):
        Detection("Mug", 0.9, (0, 0, 1, 1), mask.astype(np.uint8))
    with pytest.raises(ValueError, match="score"):
        Detection("Mug", 1.5, (0, 0, 1, 1), mask)


def test_a_new_grid_is_unknown_and_frontiers_border_the_unknown():
    grid = GridMap.empty((-1.0, -1.0), (8, 8), 0.25, ("Mug",))
    assert (grid.occupancy == Cell.UNKNOWN).all() and not grid.explored.any()
    assert grid.state_at(0.0, 0.0) == Cell.UNKNOWN and grid.state_at(50.0, 0.0) == Cell.UNKNOWN
    grid.occupancy[2:6, 2:6] = Cell.FREE
    grid.occupancy[3, 3] = Cell.OBSTACLE
    frontier = grid.frontiers()
    assert frontier[2, 2] and frontier[5, 4] and not frontier[4, 4] and not frontier[0, 0]
    x, z = grid.center_of(3, 3)
    assert grid.cell_of(x, z) == (3, 3) and grid.state_at(x, z) == Cell.OBSTACLE
    assert grid.class_evidence("Mug").shape == (8, 8) and not grid.class_evidence("Apple").any()


def _oracle_belief(sim: Simulator, episode=EPISODE):
    mapper = OracleMap()
    mapper.attach_oracle(OracleAccess(sim, episode))
    mapper.reset(ModuleContext(CAMERA, False))
    return mapper.update(sim.observe(FOLLOWER), [])


def test_oracle_map_fills_the_belief_in_the_odometry_frame():
    sim = Simulator()
    sim.reset(EPISODE.start)
    belief = _oracle_belief(sim)
    grid = belief.grid
    assert grid.state_at(0.0, 0.0) == Cell.FREE  # where the Follower stands
    assert (grid.occupancy == Cell.OBSTACLE).any() and (grid.occupancy == Cell.FREE).any()
    assert grid.state_at(100.0, 100.0) == Cell.UNKNOWN
    origin = sim.odometry_origin()
    for object_id, obj in list(sim.world.objects.items())[:20]:
        instance = belief.memory.instances[object_id]
        np.testing.assert_allclose(instance.position, world_to_odometry(np.array(obj.position), origin), atol=1e-9)
        if grid.inside(*grid.cell_of(instance.position[0], instance.position[2])):
            assert grid.class_evidence(obj.object_type)[grid.cell_of(instance.position[0], instance.position[2])] == 1
    # a floor-standing object's cell is not free
    fridge = next(o for o in sim.world.objects.values() if o.object_type in ("Fridge", "Bed", "Sofa", "DiningTable"))
    x, _, z = world_to_odometry(np.array(fridge.position), origin)
    assert grid.state_at(x, z) != Cell.FREE


def test_object_memory_fuses_sightings_and_keeps_instances_apart():
    memory = ObjectMemory()
    first = memory.observe("Mug", (1.0, 0.9, 2.0), (0.1, 0.1, 0.1), 0.6, step=1)
    again = memory.observe("Mug", (1.1, 0.9, 2.0), (0.12, 0.1, 0.1), 0.6, step=2)
    other = memory.observe("Mug", (3.0, 0.9, 2.0), (0.1, 0.1, 0.1), 0.9, step=2)
    assert again is first and other is not first and len(memory.of_type("Mug")) == 2
    assert first.times_seen == 2 and first.last_seen == 2 and math.isclose(first.position[0], 1.05)
    assert math.isclose(first.confidence, 1 - 0.4 * 0.4) and first.extent[0] == 0.12
    assert [i.key for i in memory.of_type("Mug")] == [other.key, first.key]  # most confident first


def test_object_memory_keeps_a_sighting_a_storey_below_apart_when_told():
    memory = ObjectMemory()
    hinted = memory.add("Bowl", (-0.36, 2.03, -3.36), confidence=0.3)  # believed in the cabinet above the counter
    below = memory.observe("Bowl", (-0.6, 1.04, -3.24), (0.05, 0.06, 0.05), 0.8, step=1, vertical_radius=0.5)
    assert below is not hinted and hinted.position[1] == 2.03
    assert memory.observe("Bowl", (-0.5, 0.95, -3.2), (0.05, 0.06, 0.05), 0.8, step=2, vertical_radius=0.5) is below
    assert memory.observe("Bowl", (-0.3, 1.0, -3.3), (0.05, 0.06, 0.05), 0.8, step=3) in (hinted, below)  # no limit


def test_a_detection_with_depth_becomes_a_memory_instance_where_it_is():
    depth = np.full((CAMERA.height, CAMERA.width), 2.0, dtype=np.float32)  # a wall 2 m ahead
    mask = np.zeros_like(depth, dtype=bool)
    mask[140:160, 140:160] = True  # a thing in the middle of the view
    detection = Detection("Apple", 0.8, mask_box(mask), mask)
    pose = Pose(0.5, 1.0, 90.0, 0.0)  # facing odometry +x
    points = depth_to_points(depth, pose, CAMERA)[detection.mask]
    centroid = tuple(np.nanmean(points, axis=0))
    memory = ObjectMemory()
    instance = memory.observe(detection.object_type, centroid, tuple(np.ptp(points, axis=0)), detection.score, step=3)
    np.testing.assert_allclose(instance.position, (2.5, CAMERA.camera_height, 1.0), atol=0.02)
    assert instance.key == "Apple#1" and instance.confidence == 0.8


@pytest.mark.skipif(not available(), reason="no headless OpenGL (EGL) context")
def test_oracle_seg_masks_back_project_onto_the_objects():
    from perception.oracle_seg import OracleSegPerception

    sim = Simulator(argparse.Namespace(render="egl", width=200, height=200))
    observation = sim.reset(EPISODE.start)
    access = OracleAccess(sim, EPISODE)
    perception = OracleSegPerception()
    perception.attach_oracle(access)
    context = ModuleContext(sim.camera_intrinsics(), True)
    perception.reset(context)
    detections = perception.detect(observation)
    for _ in range(3):  # turn until something is in view
        if len(detections) >= 3:
            break
        observation = sim.step(FOLLOWER, "RotateRight").observation
        detections = perception.detect(observation)
    assert detections and all(d.mask.shape == (200, 200) and d.mask.dtype == bool for d in detections)
    belief = _oracle_belief(sim)
    close = 0
    for d in detections:
        points = depth_to_points(observation.depth, observation.pose, context.camera)[d.mask]
        centroid = np.nanmean(points, axis=0)
        nearest = min(np.linalg.norm(np.array(i.position)[[0, 2]] - centroid[[0, 2]])
                      for i in belief.memory.of_type(d.object_type))
        close += nearest < 0.6
    assert close >= 0.8 * len(detections)
    sim.close()


def test_the_teach_task_table_matches_the_task_library():
    library = load_task_library()
    assert len(TEACH_TASK_TYPES) == 12
    for task_type in TEACH_TASK_TYPES:
        definition = library.tasks[task_type.definition]
        assert definition.task_nparams == len(task_type.params), task_type.name
        assert SIM_TASK_TYPES[task_type.name][0] == task_type.definition
    put = BY_NAME["Put All X In One Y"]
    assert named_params(put.definition, ("Pencil", "in", "Drawer")) == {"X": "Pencil", "relation": "in", "Y": "Drawer"}
    assert positional_params(put.definition, {"X": "Pencil", "Y": "Drawer"}) == ("Pencil", None, "Drawer")
    with pytest.raises(ValueError, match="no parameter"):
        positional_params(put.definition, {"Z": 1})


def test_goal_prefer_replaces_a_pick_and_leaves_a_goal_whose_pick_stands_as_it_is():
    """Picked already, the same pick changes nothing (a changed goal would interrupt the
    skill doing the step): the picks keep their order."""
    from contracts.language import TaskSpec
    from contracts.planning import Goal

    goal = Goal(TaskSpec(teach_task="Sandwich")).prefer("Plate", "Plate#2").prefer("Bread", "Bread#1")
    assert goal.preferred == (("Plate", "Plate#2"), ("Bread", "Bread#1"))
    assert goal.prefer("Plate", "Plate#2") is goal
    assert goal.prefer("Plate", "Plate#1").preferred == (("Bread", "Bread#1"), ("Plate", "Plate#1"))
