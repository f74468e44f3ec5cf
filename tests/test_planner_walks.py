"""Walk steps on a partial Belief ("Go to the fridge.", ALFRED-L's walks back): each holds
once reached and the next is followed; a landmark a search found is still walked to; one
searched for in vain is passed over unless it is the last; the walk back after a task that
held is not undone, and a task that cannot be planned yet is planned again after the walks;
the last walk after a look-at task ends facing its lamp."""

from __future__ import annotations

from planner_scenes import CONTEXT, belief, kitchen

from contracts.geometry import Pose
from contracts.language import Subgoal, TaskSpec
from contracts.planning import Goal, PlannedSubgoal, PlannerState, SkillFailure
from planner.pddl_planner import PddlPlanner
from planner.walking_skills import facing_action


def planner() -> PddlPlanner:
    p = PddlPlanner()
    p.reset(CONTEXT)
    return p


def test_walks_are_followed_in_turn_once_each_is_reached():
    """Walk steps with no task ("Go to the fridge.", "Walk to the sink."): each holds once
    its walk reached the place, and the next is followed (the walk back of ALFRED-L)."""
    scene = belief(kitchen())
    p = planner()
    walks = Goal(None, (Subgoal("GotoLocation", "Fridge"), Subgoal("GotoLocation", "SinkBasin")))
    first = p.plan(walks, scene)
    assert [(s.subgoal.action, s.object_key) for s in first.steps] == [("GotoLocation", "Fridge")]
    p.skill(first.steps[0], scene, None)  # the walk is handed out and succeeds
    second = p.plan(walks, scene)
    assert [(s.subgoal.action, s.object_key) for s in second.steps] == [("GotoLocation", "Basin")]
    p.skill(second.steps[0], scene, None)
    assert p.plan(walks, scene).status.state == PlannerState.IDLE


def searching_a_dresser():
    """A planner that handed out the search for the first of two walks' landmarks (a
    dresser no kitchen holds): (planner, scene, walks, the search step)."""
    scene = belief(kitchen())
    p = planner()
    walks = Goal(None, (Subgoal("GotoLocation", "Dresser"), Subgoal("GotoLocation", "Fridge")))
    search = p.plan(walks, scene).steps[0]
    assert search.search and search.subgoal.object == "Dresser"
    p.skill(search, scene, None)
    return p, scene, walks, search


def test_a_walk_whose_landmark_a_search_found_still_walks_there():
    """Found is not reached: the search for a walk's landmark ends where the landmark came
    into view, and the walk still leads to it (ALFRED-L NAV-ONLY ended after three steps at
    the start, every walk taken for done once its landmark was seen)."""
    p, scene, walks, _ = searching_a_dresser()
    scene.memory.add("Dresser", (3.0, 0.4, 3.0), times_seen=1)  # the search saw one and succeeded
    walk = p.plan(walks, scene).steps
    assert [(s.subgoal.action, s.subgoal.object, s.search) for s in walk] == [("GotoLocation", "Dresser", False)]
    p.skill(walk[0], scene, None)  # walked there
    assert [s.object_key for s in p.plan(walks, scene).steps] == ["Fridge"]


def test_a_walk_to_a_landmark_searched_for_in_vain_is_passed_over_unless_it_is_the_last():
    p, scene, walks, search = searching_a_dresser()
    p.history.not_found.add("Dresser")  # no dresser anywhere: the walk after it says where to go
    failed = SkillFailure(search, "no Dresser found: searched everywhere it could be", 1)
    assert [(s.subgoal.action, s.object_key) for s in p.plan(walks, scene, failed).steps] == [("GotoLocation", "Fridge")]
    last = planner()
    last.history.not_found.add("Dresser")
    assert last.plan(Goal(None, walks.subgoals[::-1]), scene).steps[0].object_key == "Fridge"
    stuck = last.plan(Goal(None, walks.subgoals[:1]), scene)
    assert stuck.status.state == PlannerState.FAILING and stuck.status.target == "Dresser"


LOOK_AT = TaskSpec(task_type="look_at_obj_in_light", object_target="AlarmClock", toggle_target="DeskLamp")


def looked_at_by_the_lamp():
    """ALFRED-L REV-1 of a look-at task, the clock held and the lamp on: (planner, scene)."""
    scene = belief([("Desk#1", "Desk", (3.0, 0.8, 1.0), None, {}),
                    ("Clock", "AlarmClock", (0.0, 1.0, 1.0), None, {}),
                    ("Lamp", "DeskLamp", (0.2, 1.0, 1.0), None, {"is_toggled": True})], held="Clock")
    p = planner()
    p.history.at = "Lamp"  # the task holds here
    return p, scene


def test_the_walk_back_after_a_task_that_held_at_a_place_is_not_undone_by_planning_the_task_again():
    # the look-at task holds at the lamp; "Walk back to the desk." leaves the lamp, and the
    # Follower must not walk back to it to make the task hold again
    p, scene = looked_at_by_the_lamp()
    goal = Goal(LOOK_AT, (Subgoal("PickupObject", "AlarmClock"), Subgoal("ToggleObjectOn", "DeskLamp"),
                          Subgoal("GotoLocation", "Desk")))
    walk = p.plan(goal, scene)
    assert [(s.subgoal.action, s.object_key) for s in walk.steps] == [("GotoLocation", "Desk#1")]
    p.skill(walk.steps[0], scene, None)  # the walk to the desk is handed out and succeeds
    p.history.at = None  # (a skill sets it on success only for walks; the plan below settles it)
    assert p.plan(goal, scene).status.state == PlannerState.IDLE  # at the desk: done, not back to the lamp


def test_a_task_that_cannot_be_planned_now_is_planned_again_after_the_walks():
    # (only a task that held is left behind for good: one that cannot be planned yet, its
    # dresser searched for in vain so far, is tried again once the walks are done)
    scene = belief([("Desk#1", "Desk", (3.0, 0.8, 1.0), None, {}), ("Clock", "AlarmClock", (0.0, 1.0, 1.0), None, {})],
                   held="Clock")
    p = planner()
    p.history.not_found.add("Dresser")
    task = TaskSpec(task_type="pick_and_place_simple", object_target="AlarmClock", parent_target="Dresser")
    goal = Goal(task, (Subgoal("PutObject", "AlarmClock", "Dresser"), Subgoal("GotoLocation", "Desk")))
    walk = p.plan(goal, scene)
    assert [(s.subgoal.action, s.object_key) for s in walk.steps] == [("GotoLocation", "Desk#1")]
    assert not p.history.ending


def test_the_last_walk_after_a_look_at_task_ends_facing_the_lamp_it_switched_on():
    # a look-at task is judged by a lit lamp in sight: the walk back ends turned towards it
    p, scene = looked_at_by_the_lamp()
    goal = Goal(LOOK_AT, (Subgoal("ToggleObjectOn", "DeskLamp"), Subgoal("GotoLocation", "Desk")))
    p.history.actions.append(("toggle_on", "Lamp", "Lamp"))
    walk = p.plan(goal, scene).steps[0]
    assert p.skill(walk, scene, None).face == "Lamp"
    other = planner()  # no task ending: the walk only walks
    assert other.skill(PlannedSubgoal(Subgoal("GotoLocation", "Desk"), "Desk#1"), scene, None).face is None


def test_facing_turns_then_looks_towards_a_near_instance_and_gives_up_on_a_far_one():
    level = Pose(0.0, 0.0, 0.0, 0.0)  # at the origin, facing +z, looking level; the camera 1.5 m up
    assert facing_action(level, (1.0, 1.0, 0.0), 1.5) == "Turn Right"
    assert facing_action(level, (-1.0, 1.0, -0.2), 1.5) == "Turn Left"
    assert facing_action(level, (0.0, 0.9, 1.0), 1.5) == "Look Down"  # 31 degrees below
    assert facing_action(Pose(0.0, 0.0, 0.0, 30.0), (0.0, 0.9, 1.0), 1.5) is None  # in view
    assert facing_action(level, (0.0, 1.0, 3.0), 1.5) is None  # too far to be seen
