"""The grid navigator drives the Follower, one motion per call, to a pose that sees the
target within reach; it reroutes around a move that failed."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from contracts.belief import Belief, Cell, GridMap, ObjectMemory
from contracts.geometry import Pose
from contracts.navigation import NavigationGoal, NavigationState
from contracts.observation import FOLLOWER, ModuleContext, Observation
from mapping.lattice import Lattice
from mapping.navigation import GridNavigator
from mapping.oracle_map import OracleMap
from simulator.episodes.model import load_episodes, shipped_path
from simulator.oracle import OracleAccess
from simulator.sim import Simulator

EPISODES = load_episodes(shipped_path("valid_unseen"))[0]


def _drive(sim, mapper, goal, limit=120):
    observation = sim.observe(FOLLOWER)
    navigator = mapper.navigator()
    for _ in range(limit):
        belief = mapper.update(observation, [])
        step = navigator.step(observation, belief, goal)
        if step.state != NavigationState.MOVING:
            return step
        observation = sim.step(FOLLOWER, step.action).observation
    raise AssertionError("the navigator did not finish")


def test_the_navigator_reaches_pickupable_objects_in_unseen_floor_plans():
    sim = Simulator()
    reached = tried = 0
    for episode in EPISODES[::24]:
        sim.reset(episode.start)
        mapper = OracleMap()
        mapper.attach_oracle(OracleAccess(sim, episode))
        mapper.reset(ModuleContext(sim.camera_intrinsics(), False))
        targets = [o for o in sim.world.objects.values() if o.pickupable and not sim.world.is_hidden(o.object_id)][:3]
        for obj in targets:
            tried += 1
            step = _drive(sim, mapper, NavigationGoal(instance=obj.object_id))
            if step.state == NavigationState.ARRIVED:
                reached += obj.object_id in sim.world.visible_ids(FOLLOWER)
    print(f"reached {reached} of {tried}")
    assert tried >= 20 and reached / tried >= 0.8, (reached, tried)


def _corridor() -> Belief:
    grid = GridMap.empty((-0.125, -0.125), (8, 3), 0.25)  # a 3-wide, 8-long corridor ahead
    grid.occupancy[:] = Cell.FREE
    grid.occupancy[:, 0] = Cell.OBSTACLE
    return Belief(grid, ObjectMemory(), Pose(0.25, 0.0, 0.0, 0.0))


def _observe(last=None, success=True) -> Observation:
    return Observation(FOLLOWER, Pose(0.25, 0.0, 0.0, 0.0), False, last, success, "")


def test_point_goals_and_rerouting_after_a_failed_move():
    navigator = GridNavigator(camera_height=1.5)
    belief = _corridor()
    goal = NavigationGoal(point=(0.25, 1.5))
    assert navigator.step(_observe(), belief, goal).action == "Forward"
    # the move ahead failed (something the map does not show): go around it
    rerouted = navigator.step(_observe("Forward", success=False), belief, goal)
    assert rerouted.action == "Turn Right" and (1, 1) in navigator.blocked
    walled = _corridor()
    walled.grid.occupancy[4, :] = Cell.OBSTACLE
    assert navigator.step(_observe(), walled, goal).state == NavigationState.UNREACHABLE  # a point behind a wall
    # something seen behind a wall is worth trying to cross it for (the map may be wrong) ...
    near_wall, apple = _corridor(), NavigationGoal(instance="Apple#1")
    near_wall.grid.occupancy[2, :] = Cell.OBSTACLE  # 0.5 m ahead
    near_wall.memory.add("Apple", (0.25, 1.0, 2.0))  # out of reach from before the wall
    crossing = GridNavigator(camera_height=1.5)
    assert crossing.step(_observe(), near_wall, apple).state == NavigationState.MOVING
    # ... until moves into each of its points have failed
    crossing.blocked |= {(0, 2), (1, 2), (2, 2)}
    assert crossing.step(_observe(), near_wall, apple).state == NavigationState.UNREACHABLE
    there = Belief(belief.grid, belief.memory, Pose(0.25, 1.5, 90.0, 0.0))
    assert navigator.step(_observe(), there, goal).state == NavigationState.ARRIVED


def test_map_obstacles_are_crossed_only_without_a_free_way_and_points_stood_on_are_free():
    belief = _corridor()
    belief.grid.occupancy[2, 1] = Cell.OBSTACLE  # straight ahead, at 0.5 m; the corridor's right lane is free
    around = Lattice(belief.grid, 0.0, (1, 0))
    path, cost = around.path((1, 0), 0, around.near((0.25, 1.5)))
    assert (1, 2) not in [p[:2] for p in path] and cost < 20  # around it, by the free lane
    through = Lattice(belief.grid, 0.0, (1, 0), visited=[(1, 2)])  # it stood there: the map was wrong
    path, cost = through.path((1, 0), 0, through.near((0.25, 1.5)))
    assert [p[:2] for p in path] == [(1, j) for j in range(7)] and cost == 6


def test_arrival_is_seeing_the_instance_within_reach_and_a_pose_that_does_not_see_it_is_ruled_out():
    navigator = GridNavigator(camera_height=1.5)
    belief = _corridor()
    belief.memory.add("Apple", (0.25, 1.0, 1.75))
    goal = NavigationGoal(instance="Apple#1")
    navigator.in_view = {"Apple#1": 1.4}  # seen within reach from where it starts: arrived at once
    assert navigator.step(_observe(), belief, goal).state == NavigationState.ARRIVED
    navigator.in_view = {"Apple#1": 1.6}  # seen, but too far
    assert navigator.step(_observe(), belief, goal).action == "Forward"
    navigator.in_view = {"Apple#1": 1.3}  # walking to a pose 1 m from it, seen 1.3 m away on the way
    near = NavigationGoal(instance="Apple#1", reach=1.0)
    assert navigator.step(_observe(), belief, near).action == "Forward"
    assert navigator.step(_observe(), belief, replace(near, seen_within=1.4)).state == NavigationState.ARRIVED
    there = Belief(belief.grid, belief.memory, Pose(0.25, 1.0, 0.0, 0.0))
    navigator.in_view = {}  # at a goal pose, yet not seen (the memory was wrong): another pose is tried
    assert navigator.step(_observe(), there, goal).state == NavigationState.MOVING
    assert navigator.misses["Apple#1"] == {(1, 4, 0)}


def test_another_instance_of_its_type_seen_where_the_target_is_believed_shows_it():
    """TATC 0029: the mug the Follower put into the coffee machine was held apart from the
    mug detected 0.22 m off; "not seen from 3 poses" while that one was in view."""
    navigator = GridNavigator(camera_height=1.5)
    belief = _corridor()
    belief.memory.add("Mug", (0.25, 1.0, 1.75))
    belief.memory.add("Mug", (0.45, 1.0, 1.85))  # 0.22 m off
    belief.memory.add("Mug", (0.25, 1.0, 0.9))  # another mug, 0.85 m off
    belief.memory.add("Cup", (0.25, 1.0, 1.8))
    goal = NavigationGoal(instance="Mug#1")
    for seen, arrived in (({"Mug#2": 0.9}, True), ({"Mug#3": 0.5}, False), ({"Cup#1": 0.9}, False),
                          ({"Mug#2": 1.6}, False)):
        navigator.in_view = seen
        assert (navigator.step(_observe(), belief, goal).state == NavigationState.ARRIVED) == arrived, seen
    belief.memory.add("StoveBurner", (0.25, 0.9, 1.75))
    belief.memory.add("StoveBurner", (0.5, 0.9, 1.75))  # the burner beside it is another burner
    belief.memory.add("AppleSliced", (0.25, 1.0, 1.75))
    belief.memory.add("AppleSliced", (0.3, 1.0, 1.75))  # the slice beside it is another slice
    for kind in ("StoveBurner", "AppleSliced"):
        navigator.in_view = {f"{kind}#2": 0.9}
        assert navigator.step(_observe(), belief, NavigationGoal(instance=f"{kind}#1")).state != NavigationState.ARRIVED


def test_a_centred_goal_passes_by_the_instance_seen_and_arrives_at_its_goal_pose_seeing_it():
    navigator = GridNavigator(camera_height=1.5)
    belief = _corridor()
    belief.memory.add("Desk", (0.25, 0.7, 2.0))
    walk = NavigationGoal(instance="Desk#1", centred=True)
    navigator.in_view = {"Desk#1": 1.4}  # seen within reach from the start: a walk goes on to its front
    assert navigator.step(_observe(), belief, walk).action == "Forward"
    front = Belief(belief.grid, belief.memory, Pose(0.25, 1.75, 0.0, 60.0))  # its goal pose, looks done
    navigator.in_view = {"Desk#1": 0.2}  # at its goal pose, looking at it: arrived (it used to count a miss)
    assert navigator.step(_observe(), front, walk).state == NavigationState.ARRIVED
    assert not navigator.misses["Desk#1"]
    navigator.in_view = {}  # ... and not seeing it there, that pose is ruled out
    assert navigator.step(_observe(), front, walk).state == NavigationState.MOVING
    assert navigator.misses["Desk#1"] == {(1, 7, 0)}


def test_an_inferred_instance_is_arrived_at_on_a_goal_pose_without_being_seen():
    belief = _corridor()
    belief.memory.add("Faucet", (0.25, 1.0, 1.75), states={"inferred": True})  # believed, never detected
    there = Belief(belief.grid, belief.memory, Pose(0.25, 1.0, 0.0, 0.0))
    navigator = GridNavigator(camera_height=1.5)
    navigator.in_view = {}
    assert navigator.step(_observe(), there, NavigationGoal(instance="Faucet#1")).state == NavigationState.ARRIVED
    assert not navigator.misses["Faucet#1"]


def _unseen_at_a_goal_pose(object_type: str):
    """A corridor with one ``object_type`` 1.75 m ahead, a goal pose 1 m ahead, and a
    navigator that sees nothing: (belief, goal, the Belief at the goal pose, navigator)."""
    belief = _corridor()
    belief.memory.add(object_type, (0.25, 1.0, 1.75))
    there = Belief(belief.grid, belief.memory, Pose(0.25, 1.0, 0.0, 0.0))
    navigator = GridNavigator(camera_height=1.5)
    navigator.in_view = {}
    return belief, NavigationGoal(instance=f"{object_type}#1"), there, navigator


def test_a_search_target_is_given_up_after_max_misses_poses_that_do_not_show_it():
    belief, goal, there, navigator = _unseen_at_a_goal_pose("Cabinet")
    # at a goal pose, not seen: with one miss allowed another pose is tried...
    assert navigator.step(_observe(), there, goal, max_misses=1).state == NavigationState.MOVING
    assert navigator.misses["Cabinet#1"] == {(1, 4, 0)}
    elsewhere = Belief(belief.grid, belief.memory, Pose(0.25, 0.75, 0.0, 0.0))  # ...and at the next, it is given up
    assert navigator.step(_observe(), elsewhere, goal, max_misses=1).state == NavigationState.UNREACHABLE
    assert navigator.step(_observe(), elsewhere, goal).state == NavigationState.MOVING  # the default allows three


def test_instance_goals_face_the_object_and_look_at_it():
    navigator = GridNavigator(camera_height=1.5)
    belief = _corridor()
    belief.memory.add("Apple", (0.25, 0.2, 1.0))  # on the floor, 1 m ahead
    key = "Apple#1"
    step = navigator.step(_observe(), belief, NavigationGoal(instance=key))
    assert step.action in ("Forward", "Look Down")
    close = Belief(belief.grid, belief.memory, Pose(0.25, 0.5, 0.0, 0.0))
    assert navigator.step(_observe(), close, NavigationGoal(instance=key)).action == "Look Down"
    looking = Belief(belief.grid, belief.memory, Pose(0.25, 0.5, 0.0, 60.0))
    assert navigator.step(_observe(), looking, NavigationGoal(instance=key)).state == NavigationState.ARRIVED
    assert navigator.step(_observe(), belief, NavigationGoal(instance="Mug#9")).state == NavigationState.UNREACHABLE
    assert np.all(belief.grid.occupancy[:, 0] == Cell.OBSTACLE)


def test_the_reach_margin_gives_way_when_no_pose_inside_it_is_reachable():
    belief = _corridor()
    belief.memory.add("Apple", (0.25, 1.0, 1.45), extent=(0.1, 0.1, 0.1))  # 1.4 m ahead at eye height
    belief.grid.occupancy[1:, :] = Cell.OBSTACLE  # the Follower cannot move ahead
    belief.grid.occupancy[0, 1:] = Cell.FREE
    strict = GridNavigator(camera_height=1.0, reach_margin=0.25)
    assert strict.step(_observe(), belief, NavigationGoal(instance="Apple#1")).state == NavigationState.ARRIVED


def test_goal_costs_count_the_turns_and_moves_to_a_pose_that_sees_each_goal():
    from contracts.belief import Belief, Cell, GridMap, ObjectMemory
    from contracts.geometry import Pose
    from contracts.navigation import NavigationGoal
    from mapping.navigation import GridNavigator

    grid = GridMap.empty((-3.0, -3.0), (120, 120), 0.05)
    grid.occupancy[:, :] = Cell.FREE
    grid.explored[:, :] = True
    memory = ObjectMemory()
    ahead = memory.add("Apple", (0.0, 0.9, 2.5), extent=(0.1, 0.1, 0.1), times_seen=1)
    behind = memory.add("Apple", (0.0, 0.9, -2.5), extent=(0.1, 0.1, 0.1), times_seen=1)
    navigator = GridNavigator(camera_height=1.5)
    belief = Belief(grid, memory, Pose(0.0, 0.0, 0.0, 30.0))
    near_ahead, near_behind, point = navigator.goal_costs(
        belief, [NavigationGoal(instance=ahead.key), NavigationGoal(instance=behind.key), NavigationGoal(point=(0.0, 1.0))])
    assert near_ahead == 4.0  # four moves bring it within 1.5 m, facing it, at the horizon it is seen with
    assert near_behind == near_ahead + 2  # the same, after two turns
    assert point == 4.0


def _walk(navigator, belief, goal, limit=40):
    """Drive the navigator on a map with no surprises (every move succeeds); the pose it stops at."""
    pose = belief.pose
    for _ in range(limit):
        step = navigator.step(Observation(FOLLOWER, pose, False, None, True, ""), replace(belief, pose=pose), goal)
        if step.state != NavigationState.MOVING:
            return pose
        turn = {"Turn Right": 90.0, "Turn Left": -90.0}.get(step.action, 0.0)
        look = {"Look Down": 30.0, "Look Up": -30.0}.get(step.action, 0.0)
        ahead = 0.25 if step.action == "Forward" else 0.0
        rad = np.radians(pose.heading)
        pose = Pose(pose.x + ahead * np.sin(rad), pose.z + ahead * np.cos(rad), (pose.heading + turn) % 360,
                    pose.horizon + look)
    raise AssertionError("the navigator did not finish")


def test_an_object_is_approached_from_the_side_it_was_seen_from():
    grid = GridMap.empty((-3.0, -3.0), (120, 120), 0.05)
    grid.occupancy[:, :] = Cell.FREE
    grid.explored[:, :] = True
    row, col = grid.cell_of(-1.0, 0.8)
    grid.occupancy[row:row + 10, col:col + 41] = Cell.OBSTACLE  # a wall from x -1 to 1 between the Follower and it
    ends = {}
    for side in (-1.5, 1.5):  # seen from its west, from its east
        memory = ObjectMemory()
        memory.add("Apple", (0.0, 0.9, 2.5), extent=(0.1, 0.1, 0.1), times_seen=1, states={"seen_from": (side, 2.5, 1.5)})
        navigator = GridNavigator(camera_height=1.5)
        ends[side] = _walk(navigator, Belief(grid, memory, Pose(0.0, 0.0, 0.0, 30.0)), NavigationGoal(instance="Apple#1"))
    assert ends[-1.5].x < 0 < ends[1.5].x  # round the wall either way costs the same: the side it was seen from


def test_poses_that_did_not_show_an_instance_are_forgotten_once_it_is_believed_elsewhere():
    belief, goal, there, navigator = _unseen_at_a_goal_pose("Potato")
    navigator.misses["Potato#1"] = {(0, 4, 0), (2, 4, 0)}
    assert navigator.step(_observe(), there, goal, max_misses=2).state == NavigationState.UNREACHABLE
    belief.memory.instances["Potato#1"].position = (0.25, 1.0, 1.6)  # a new sighting, a few cm off: still missed
    assert navigator.step(_observe(), there, goal, max_misses=2).state == NavigationState.UNREACHABLE
    belief.memory.instances["Potato#1"].position = (0.25, 1.0, 0.75)  # put down elsewhere: tried afresh
    nearer = Belief(belief.grid, belief.memory, Pose(0.25, 0.0, 0.0, 0.0))
    assert navigator.step(_observe(), nearer, goal, max_misses=2).state == NavigationState.MOVING
    assert "Potato#1" not in navigator.misses or not navigator.misses["Potato#1"] - {(1, 0, 0)}


def test_an_instance_given_up_is_tried_again_once_the_follower_looks_for_its_type_afresh():
    """Told of a type again, the planner plans an instance it had given up on: the navigator
    forgets the poses that did not show it instead of failing the skill at once."""
    belief, goal, there, navigator = _unseen_at_a_goal_pose("Faucet")
    navigator.misses["Faucet#1"] = {(0, 4, 0), (2, 4, 0)}
    assert navigator.step(_observe(), there, goal, max_misses=2).state == NavigationState.UNREACHABLE
    assert "Faucet#1" in navigator.gave_up
    navigator.reconsider(frozenset({"Mug"}))  # another type: still given up
    assert navigator.step(_observe(), there, goal, max_misses=2).state == NavigationState.UNREACHABLE
    navigator.reconsider(frozenset({"Faucet"}))
    assert "Faucet#1" not in navigator.gave_up
    assert navigator.step(_observe(), there, goal, max_misses=2).state == NavigationState.MOVING


def test_what_lies_above_the_camera_is_not_looked_at_from_under_it():
    grid = GridMap.empty((-3.0, -3.0), (120, 120), 0.05)
    grid.occupancy[:, :] = Cell.FREE
    grid.explored[:, :] = True
    ends = {}
    for height in (0.9, 1.9):  # on a counter, in a microwave over the stove
        memory = ObjectMemory()
        memory.add("Bread", (0.0, height, 1.0), extent=(0.2, 0.1, 0.2), times_seen=1)
        navigator = GridNavigator(camera_height=1.5)
        ends[height] = _walk(navigator, Belief(grid, memory, Pose(0.0, 0.75, 0.0, 0.0)), NavigationGoal(instance="Bread#1"))
    assert ends[0.9].z == 0.75  # 0.25 m from it: within reach, looking down at it
    assert np.hypot(ends[1.9].x, ends[1.9].z - 1.0) >= 0.5 and ends[1.9].horizon <= 0  # stepped off, not looking down
