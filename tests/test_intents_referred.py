"""A put said again with words that place its receptacle picks that receptacle's instance
(``IntentReader.referred``): the Commander repeats the put because the one the Follower made
did not count, and its plate is the one the task wants."""

from __future__ import annotations

from agent.followers.intents import IntentReader
from contracts.belief import Belief, GridMap, ObjectMemory
from contracts.geometry import Pose
from contracts.language import Subgoal, TaskSpec
from contracts.planning import Goal
from dialogue.rules import RulesParser

PUT = "Put a slice of bread on the plate."
HINT = "There is a plate in the cabinet."


def _kitchen() -> tuple[Belief, str, str]:
    """A plate on the counter (where the Follower put the slice) and one in a cabinet."""
    memory = ObjectMemory()
    counter = memory.add("CounterTop", (1.0, 0.9, 2.0))
    cabinet = memory.add("Cabinet", (-1.0, 1.8, 2.0))
    on_counter = memory.add("Plate", (1.0, 0.95, 2.0), container=counter.key)
    in_cabinet = memory.add("Plate", (-1.0, 1.7, 2.0), container=cabinet.key)
    return Belief(GridMap.empty((-3, -3), (24, 24), 0.25), memory, Pose(0.0, 0.0, 0.0, 0.0)), on_counter.key, \
        in_cabinet.key


def _heard(texts: list[str], goal: Goal) -> tuple[Goal, Belief, str]:
    reader = IntentReader(RulesParser())
    belief, _, in_cabinet = _kitchen()
    for text in texts:
        goal, _ = reader.read([text], goal)
        goal = reader.referred(goal, belief)
    return goal, belief, in_cabinet


def test_a_put_said_again_with_its_plate_placed_picks_that_plate():
    start = Goal(TaskSpec(teach_task="Sandwich"))
    goal, _, in_cabinet = _heard([PUT, f"{PUT} {HINT}"], start)
    assert Subgoal("PutObject", "BreadSliced", "Plate") in goal.subgoals
    assert goal.preferred_key("Plate") == in_cabinet


def test_the_plate_placed_again_leaves_the_goal_as_it_was():
    """Picked already, the same words again change nothing (a changed goal would interrupt
    the skill doing the put): the picks keep their order."""
    _, _, in_cabinet = _kitchen()
    start = Goal(TaskSpec(teach_task="Sandwich")).prefer("Plate", in_cabinet).prefer("Bread", "Bread#1")
    goal, _, _ = _heard([PUT, f"{PUT} {HINT}"], start)
    assert goal.preferred == (("Plate", in_cabinet), ("Bread", "Bread#1"))
    assert goal.prefer("Plate", in_cabinet) is goal


def test_the_first_time_a_put_is_said_its_hint_only_locates():
    goal, _, _ = _heard([f"{PUT} {HINT}"], Goal(TaskSpec(teach_task="Sandwich")))
    assert goal.preferred_key("Plate") is None


def test_a_place_that_fits_every_plate_picks_none():
    goal, _, _ = _heard([PUT, f"{PUT} There is a plate in the kitchen."], Goal(TaskSpec(teach_task="Sandwich")))
    assert goal.preferred_key("Plate") is None
