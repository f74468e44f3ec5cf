"""The semantic mapper: a known depth image lands in the right cells, detections become
memory instances, and each of the Follower's own actions updates the memory."""

from __future__ import annotations

import numpy as np
import pytest

from contracts.belief import Cell, ObjectMemory
from contracts.geometry import CameraIntrinsics, Pose
from contracts.observation import ModuleContext, Observation
from contracts.perception import Detection, mask_box
from contracts.planning import ActionOutcome, LowLevelAction
from mapping.memory_updates import believed_container
from mapping.semantic import SemanticMapper

CAMERA = CameraIntrinsics(120, 120, 90.0, 1.5)
WALL = 3.0  # metres ahead


def room_depth(horizon: float = 0.0) -> np.ndarray:
    """Depth (along the view axis) of a flat floor and a wall WALL m ahead, camera level."""
    assert horizon == 0.0
    rays = CAMERA.pixel_rays()
    up = rays[..., 1]
    floor = np.where(up < 0, -CAMERA.camera_height / np.where(up < 0, up, -1), np.inf)
    return np.minimum(floor, WALL).astype(np.float32)


def mapper() -> SemanticMapper:
    m = SemanticMapper(SemanticMapper.Params(cell_size=0.1, map_size=12.0, stride=1))
    m.reset(ModuleContext(CAMERA, True))
    return m


def observe(pose: Pose, depth: np.ndarray | None = None) -> Observation:
    return Observation(1, pose, False, None, True, "", [], None, depth)


@pytest.mark.parametrize("heading, ahead", [(0.0, lambda d: (0.0, d)), (90.0, lambda d: (d, 0.0))])
def test_a_known_depth_image_lands_in_the_right_cells(heading, ahead):
    m = mapper()
    belief = m.update(observe(Pose(0.0, 0.0, heading, 0.0), room_depth()), [])
    grid = belief.grid
    assert grid.state_at(*ahead(2.0)) == Cell.FREE  # floor seen between the Follower and the wall
    assert grid.state_at(*ahead(WALL + 0.02)) == Cell.OBSTACLE  # the wall
    assert grid.state_at(*ahead(WALL + 1.0)) == Cell.UNKNOWN  # behind the wall: never seen
    assert grid.state_at(*ahead(-1.0)) == Cell.UNKNOWN  # behind the Follower
    assert grid.state_at(0.0, 0.0) == Cell.FREE  # where it stands
    assert grid.explored[grid.cell_of(*ahead(2.5))] and not grid.explored[grid.cell_of(*ahead(-2.0))]
    assert grid.frontiers().any()


def test_a_detection_becomes_an_instance_with_class_evidence():
    m = mapper()
    depth = room_depth()
    mask = np.zeros(depth.shape, dtype=bool)
    mask[40:50, 55:65] = True  # on the wall, a little above the camera's level
    detection = Detection("Painting", 0.7, mask_box(mask), mask)
    belief = m.update(observe(Pose(0.0, 0.0, 0.0, 0.0), depth), [detection])
    (instance,) = belief.memory.of_type("Painting")
    assert instance.position[2] == pytest.approx(WALL, abs=0.05) and instance.position[0] == pytest.approx(0, abs=0.1)
    assert instance.position[1] > CAMERA.camera_height and instance.confidence == 0.7
    assert instance.states["seen_from"] == pytest.approx((0.0, 0.0, WALL), abs=0.05)  # where it was seen nearest from
    assert belief.grid.class_evidence("Painting")[belief.grid.cell_of(0.0, WALL + 0.01)] == pytest.approx(0.7)
    again = m.update(observe(Pose(0.0, 0.0, 0.0, 0.0), depth), [detection])
    assert len(again.memory.of_type("Painting")) == 1 and instance.times_seen == 2


def test_the_mapper_knows_what_the_camera_sees_within_reach():
    m = mapper()
    depth = room_depth()
    mask = np.zeros(depth.shape, dtype=bool)
    mask[40:50, 55:65] = True  # on the wall, WALL m ahead: seen, out of reach
    m.update(observe(Pose(0.0, 0.0, 0.0, 0.0), depth), [Detection("Painting", 0.7, mask_box(mask), mask)])
    assert m.sees("Painting", 1.5) == [] and m.sees("Painting", WALL + 0.1) == ["Painting#1"]
    assert m.navigator().sees("Painting#1", WALL + 0.1) and not m.navigator().sees("Painting#1", 1.5)
    m.update(observe(Pose(0.0, 0.0, 0.0, 0.0), depth), [])  # out of the frame: not seen any more
    assert m.sees("Painting", WALL + 0.1) == []


def test_a_scripted_tour_maps_the_room_on_rendered_frames():
    import argparse

    from agent.map_quality import tour
    from simulator.episodes.model import load_episodes, shipped_path
    from simulator.render import available
    from simulator.sim import Simulator

    if not available():
        pytest.skip("no headless OpenGL (EGL) context")
    sim = Simulator(argparse.Namespace(render="egl", width=160, height=160))
    score = tour(sim, load_episodes(shipped_path("valid_unseen"))[0][5], "oracle-seg", waypoints=1)
    sim.close()
    assert score["free_precision"] > 0.9 and score["explored_navigable"] > 0.3 and score["obstacle_iou"] > 0.2
    assert 1.0 <= score["instances_per_object"] < 2.0 and score["stray_instances"] < 0.05  # oracle-seg: all on their objects


def test_the_map_score_counts_instances_per_fixed_object_in_the_odometry_frame():
    from types import SimpleNamespace

    from agent.map_quality import _count_instances
    from contracts.belief import ObjectMemory

    counters = {"A": SimpleNamespace(object_id="A", object_type="CounterTop", position=(2.0, 0.9, 1.0), size=(2.0, 0.1, 0.6)),
                "B": SimpleNamespace(object_id="B", object_type="CounterTop", position=(0.0, 0.9, 3.0), size=(0.6, 0.1, 1.0))}
    # started at (1, 1) facing +x (rotation 90): odometry x = -(world z - 1), z = world x - 1
    apple = SimpleNamespace(object_id="Ap", object_type="Apple", position=(2.0, 0.95, 1.0), size=(0.1, 0.1, 0.1), fixed=False)
    sim = SimpleNamespace(odometry_origin=lambda agent: (1.0, 1.0, 90, 0),
                          world=SimpleNamespace(scene=SimpleNamespace(fixed_objects=counters),
                                                objects={**counters, "Ap": apple}))
    for counter in counters.values():
        counter.fixed = True
    memory = ObjectMemory()
    for z in (0.3, 1.0, 1.7):  # three parts of counter A (1 to 3 m along world x): one object held as three
        memory.add("CounterTop", (0.0, 0.9, z))
    memory.add("CounterTop", (-2.0, 0.9, -1.0))  # counter B
    memory.add("CounterTop", (2.0, 0.9, 2.0))  # on nothing
    memory.add("Apple", (0.0, 0.95, 1.0))  # not a fixed object's type: counted apart, on the apple
    memory.add("Apple", (0.0, 0.95, 2.0))  # on no apple
    memory.add("Knife", (0.0, 0.95, 1.0), times_seen=1)  # no knife in the scene
    memory.add("Apple", (0.0, 0.95, 1.05), times_seen=3)  # on the apple, seen again
    score = _count_instances(memory, sim)
    assert score == pytest.approx({"instances_per_object": 2.0, "duplicated_objects": 0.5, "stray_instances": 0.2,
                                   "stray_movable": 2 / 4, "stray_movable_glimpsed": 2 / 3,
                                   "stray_movable_seen_again": 0.0})


def test_replay_draws_the_followers_own_map_beside_its_view():
    from agent.evaluation.replay import ReplayError, replay_log
    from agent.pairing import build_agents
    from agent.runner import run_episode
    from agent.settings import load_config
    from simulator.episodes.model import load_episodes, shipped_path
    from simulator.render import available
    from simulator.sim import Simulator

    if not available():
        pytest.skip("no headless OpenGL (EGL) context")
    loaded = load_config("ablations/oracle-seg", ["simulator.width=120", "simulator.height=120"])
    episode = next(e for e in load_episodes(shipped_path("valid_unseen"))[0] if e.task_type == "Water Plant")
    sim = Simulator(loaded.config.simulator)
    _, log = run_episode(episode, build_agents(loaded), sim, limits=(12, 5))
    sim.close()
    log["simulator"] = {"render": "egl", "width": 120, "height": 120}
    plain = replay_log(log, egocentric=False)
    mapped = replay_log(log, egocentric=False, follower_map=("oracle-seg", "semantic"))
    assert mapped.frames[-1].shape[1] == plain.frames[-1].shape[1] * 2  # the map panel beside the top-down one
    assert mapped.frames[-1][:300, 300:].std() > 0  # something is drawn
    log["simulator"] = {"render": "none"}
    with pytest.raises(ReplayError, match="depth frames"):
        replay_log(log, egocentric=False, follower_map=("oracle-seg", "semantic"))


def test_what_the_follower_put_down_stays_where_it_put_it_while_it_rests_there():
    m = mapper()
    m.memory.add("CounterTop", (0.0, 0.9, 1.0), extent=(2.0, 0.1, 0.6), times_seen=1)
    m.memory.add("StoveBurner", (0.5, 0.92, 1.0), extent=(0.2, 0.02, 0.2), times_seen=1)
    pot = m.memory.add("Pot", (0.0, 0.0, 0.0), extent=(0.3, 0.15, 0.3), times_seen=1)
    m.memory.held = pot.key
    put = ActionOutcome(LowLevelAction("Place", {"x": 0.5, "y": 0.5}, pot.key, "StoveBurner#1"), True)
    m.update(observe(Pose(0.0, 0.0, 0.0, 0.0)), [], put)
    pot.position = (0.52, 1.0, 1.02)  # seen again on the burner
    assert believed_container(m.memory, pot) == "CounterTop#1"  # geometry alone: the burner is smaller than the pot
    assert m.placements.container(m.memory, pot) == "StoveBurner#1"
    pot.position = (-0.6, 1.0, 1.0)  # it landed elsewhere (or was moved): geometry again, for good
    assert m.placements.container(m.memory, pot) == "CounterTop#1"
    pot.position = (0.52, 1.0, 1.02)
    assert m.placements.container(m.memory, pot) == "CounterTop#1"


def test_the_mapper_believes_the_pieces_of_a_slice_only_when_it_sees_none():
    here = Pose(0.0, 0.0, 0.0, 0.0)
    for pieces_in_view in (False, True):
        m = mapper()
        m.update(observe(here, room_depth()), [_wall_detection("Apple", slice(55, 60), slice(55, 65))])
        seen = [_wall_detection("AppleSliced", slice(55, 60), slice(55, 57))] if pieces_in_view else []
        m.update(observe(here, room_depth()), seen, ActionOutcome(LowLevelAction("Slice", {}, "Apple#1"), True))
        pieces = m.memory.of_type("AppleSliced")
        assert len(pieces) == (1 if pieces_in_view else 8)
        assert all(p.states.get("inferred", False) is not pieces_in_view for p in pieces)


def test_what_the_follower_put_down_is_inferred_there_until_it_is_detected_or_picked_up():
    m = mapper()
    here = Pose(0.0, 0.0, 0.0, 0.0)
    m.update(observe(here, room_depth()), [_wall_detection("Shelf", slice(60, 70), slice(50, 70))])
    pot = m.memory.add("Pot", (0.0, 0.0, 0.0), extent=(0.3, 0.15, 0.3), times_seen=1)
    m.memory.held = pot.key
    m.update(observe(here, room_depth()), [], ActionOutcome(LowLevelAction("Place", {}, pot.key, "Shelf#1"), True))
    assert pot.states["inferred"] is True  # believed on the shelf, not seen there (a pot in a sink basin mostly is not)
    m.update(observe(here, room_depth()), [_wall_detection("Pot", slice(55, 60), slice(55, 65))])
    assert "inferred" not in pot.states and pot.times_seen == 2
    m.memory.held = None
    m.update(observe(here, room_depth()), [], ActionOutcome(LowLevelAction("Pickup", {}, pot.key), True))
    m.update(observe(here, room_depth()), [], ActionOutcome(LowLevelAction("Place", {}, pot.key, "Shelf#1"), True))
    assert pot.states["inferred"] is True
    m.update(observe(here, room_depth()), [], ActionOutcome(LowLevelAction("Pickup", {}, pot.key), True))
    assert m.memory.held == pot.key and "inferred" not in pot.states


def test_the_mapper_remembers_how_near_a_surface_was_seen_from_above():
    from types import SimpleNamespace

    mapper = SemanticMapper()
    mapper.context = SimpleNamespace(camera=SimpleNamespace(camera_height=1.5))
    mapper.memory = ObjectMemory()
    low = mapper.memory.add("CounterTop", (0.0, 0.9, 1.0), extent=(1.0, 0.04, 0.5), times_seen=1)
    high = mapper.memory.add("Shelf", (0.0, 1.6, 1.0), extent=(1.0, 0.04, 0.3), times_seen=1)
    mapper.top_views = {}
    mapper.in_view = {low.key: 0.9, high.key: 0.8}
    mapper._note_top_views()
    mapper.in_view = {low.key: 1.4}
    mapper._note_top_views()
    assert mapper.top_views == {low.key: 0.9}  # the nearest view; the shelf's top is above the camera


def _wall_detection(object_type: str, rows: slice, cols: slice) -> Detection:
    mask = np.zeros(room_depth().shape, dtype=bool)
    mask[rows, cols] = True
    return Detection(object_type, 1.0, mask_box(mask), mask)


def test_a_container_seen_cut_by_the_frames_side_joins_the_one_it_overlaps():
    m = mapper()
    here = Pose(0.0, 0.0, 0.0, 0.0)
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(70, 80), slice(20, 38))])  # 0.9 m wide
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(70, 80), slice(0, 25))])  # its left end, cut
    assert len(m.memory.of_type("Cabinet")) == 1 and m.memory.instances["Cabinet#1"].times_seen == 2
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(70, 80), slice(5, 15))])  # whole, beside it
    assert len(m.memory.of_type("Cabinet")) == 2  # not cut by the frame: a cabinet of its own


def test_an_opened_cabinet_grows_to_hold_its_open_door():
    m = mapper()
    here = Pose(0.0, 0.0, 0.0, 0.0)
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(30, 90), slice(50, 70))])
    (cabinet,) = m.memory.of_type("Cabinet")
    width = cabinet.extent[0]
    door = _wall_detection("Cabinet", slice(30, 90), slice(50, 100))  # body and the door swung out to its right
    opened = ActionOutcome(LowLevelAction("Open", {"x": 0.5, "y": 0.5}, cabinet.key), True)
    m.update(observe(here, room_depth()), [door], opened)
    assert len(m.memory.of_type("Cabinet")) == 1 and cabinet.extent[0] > width + 0.5
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(30, 90), slice(80, 100))])  # the door alone
    assert len(m.memory.of_type("Cabinet")) == 1
    failed = ActionOutcome(LowLevelAction("Open", {"x": 0.5, "y": 0.5}, cabinet.key), False, "already open")
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(30, 90), slice(105, 118))], failed)
    assert len(m.memory.of_type("Cabinet")) == 2  # a failed open fuses nothing


def test_a_weak_sighting_only_confirms_a_nearby_instance_or_what_lies_in_an_opened_container():
    m = mapper()
    here = Pose(0.0, 0.0, 0.0, 0.0)

    def weak(cols: slice) -> Detection:
        strong = _wall_detection("Mug", slice(55, 60), cols)
        return Detection("Mug", 0.3, strong.box, strong.mask)

    m.update(observe(here, room_depth()), [weak(slice(20, 25))])
    assert not m.memory.of_type("Mug") and "Mug" not in m.grid.classes  # nothing expected there: ignored
    m.update(observe(here, room_depth()), [_wall_detection("Mug", slice(55, 60), slice(20, 25))])
    m.update(observe(here, room_depth()), [weak(slice(22, 27))])
    (mug,) = m.memory.of_type("Mug")
    assert mug.times_seen == 2  # beside a mug seen before: confirms it
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(60, 90), slice(85, 100))])
    (cabinet,) = m.memory.of_type("Cabinet")
    m.update(observe(here, room_depth()), [weak(slice(95, 100))])
    assert len(m.memory.of_type("Mug")) == 1  # by a closed cabinet: ignored
    opened = ActionOutcome(LowLevelAction("Open", {"x": 0.5, "y": 0.5}, cabinet.key), True)
    m.update(observe(here, room_depth()), [], opened)
    m.update(observe(here, room_depth()), [weak(slice(95, 100))])
    assert len(m.memory.of_type("Mug")) == 2  # in the cabinet it opened


def test_with_weak_views_a_weak_sighting_seen_again_from_another_pose_makes_an_instance():
    m = SemanticMapper(SemanticMapper.Params(cell_size=0.1, map_size=12.0, stride=1, weak_views=2))
    m.reset(ModuleContext(CAMERA, True))
    mug = _wall_detection("Mug", slice(55, 60), slice(20, 25))
    weak = Detection("Mug", 0.3, mug.box, mug.mask)
    here = Pose(0.0, 0.0, 0.0, 0.0)
    m.update(observe(here, room_depth()), [weak])
    m.update(observe(here, room_depth()), [weak])  # the same view again is no new evidence
    assert not m.memory.of_type("Mug")
    m.update(observe(here, room_depth()), [Detection("Cup", 0.3, mug.box, mug.mask)])
    m.update(observe(Pose(0.0, 0.0, 0.0, 30.0), room_depth()), [Detection("Cup", 0.3, mug.box, mug.mask)])
    assert len(m.memory.of_type("Cup")) == 1  # from a second pose: believed
    m.update(observe(Pose(0.0, 0.0, 0.0, 15.0), room_depth()), [weak])
    assert len(m.memory.of_type("Mug")) == 1 and set(m.memory.of_type("Mug")[0].states) == {"seen_from"}
    never = mapper()  # the default: weak sightings only confirm
    for horizon in (0.0, 15.0, 30.0):
        never.update(observe(Pose(0.0, 0.0, 0.0, horizon), room_depth()), [weak])
    assert not never.memory.of_type("Mug")


def test_two_sightings_of_a_type_in_one_frame_are_two_objects_unless_their_boxes_meet():
    """Two books side by side on a desk, nearer than ``match_radius``, seen in one frame: two
    instances (the plan needs both); one object seen in two touching parts: one."""
    m = mapper()
    here = Pose(0.0, 0.0, 0.0, 0.0)
    books = [_wall_detection("Book", slice(40, 44), slice(50, 54)), _wall_detection("Book", slice(40, 44), slice(57, 61))]
    m.update(observe(here, room_depth()), books)
    assert len(m.memory.of_type("Book")) == 2
    a, b = m.memory.of_type("Book")
    assert abs(a.position[0] - b.position[0]) < m.params.match_radius
    m.update(observe(here, room_depth()), books)  # seen again: each book its own instance
    assert len(m.memory.of_type("Book")) == 2 and a.times_seen == b.times_seen == 2
    parts = [_wall_detection("Mug", slice(40, 44), slice(50, 54)), _wall_detection("Mug", slice(40, 44), slice(54, 58))]
    m.update(observe(here, room_depth()), parts)
    assert len(m.memory.of_type("Mug")) == 1


def test_touching_slices_seen_in_one_frame_are_as_many_instances():
    """The slices of a potato lie touching in a row: each is its own instance (the plan takes
    one and still knows where the others are), seen again each keeps its own."""
    m = mapper()
    here = Pose(0.0, 0.0, 0.0, 0.0)
    slices = [_wall_detection("PotatoSliced", slice(40, 44), slice(c, c + 3)) for c in (50, 53, 56)]
    m.update(observe(here, room_depth()), slices)
    assert len(m.memory.of_type("PotatoSliced")) == 3
    m.update(observe(here, room_depth()), slices)
    assert len(m.memory.of_type("PotatoSliced")) == 3
    assert all(i.times_seen == 2 for i in m.memory.of_type("PotatoSliced"))


@pytest.mark.parametrize("vertical_match, instances", [(0.5, 2), (0.0, 1)])
def test_a_bowl_seen_a_metre_below_another_is_another_bowl(vertical_match, instances):
    m = SemanticMapper(SemanticMapper.Params(cell_size=0.1, map_size=12.0, stride=1, vertical_match=vertical_match))
    m.reset(ModuleContext(CAMERA, True))
    here = Pose(0.0, 0.0, 0.0, 0.0)
    m.update(observe(here, room_depth()), [_wall_detection("Bowl", slice(38, 42), slice(58, 62))])
    m.update(observe(here, room_depth()), [_wall_detection("Bowl", slice(58, 62), slice(58, 62))])  # 1 m lower
    bowls = m.memory.of_type("Bowl")
    assert len(bowls) == instances and all(abs(b.position[0]) < 0.1 for b in bowls)  # one above the other


def test_a_phantom_the_next_looks_do_not_detect_is_forgotten_unless_refuting_is_off():
    depth = room_depth()
    mask = np.zeros(depth.shape, dtype=bool)
    mask[52:68, 52:68] = True  # straight ahead on a wall 2 m away
    near = np.minimum(depth, 2.0).astype(np.float32)
    phantom = Detection("Toaster", 0.9, mask_box(mask), mask)
    for refute, left in ((True, []), (False, ["Toaster#1"])):
        m = SemanticMapper(SemanticMapper.Params(cell_size=0.1, map_size=12.0, stride=1, refute_unseen=refute))
        m.reset(ModuleContext(CAMERA, True))
        m.update(observe(Pose(0.0, 0.0, 0.0, 0.0), near), [phantom])
        assert [i.key for i in m.memory.of_type("Toaster")] == ["Toaster#1"]
        for x in (0.25, -0.25):  # two more looks from beside, nothing detected
            belief = m.update(observe(Pose(x, 0.0, 0.0, 0.0), near), [])
        assert [i.key for i in belief.memory.of_type("Toaster")] == left
