"""A dish (sandwich, salad, slices on a plate) is served in the container the Follower began
to fill, with the pieces already there, not in the nearest clean one; a piece merely
believed in a container does not make it the dish."""

from __future__ import annotations

from planner_scenes import belief, kitchen

from contracts.language import TaskSpec
from contracts.planning import Goal
from planner.goals import compile_goal
from planner.history import History
from planner.symbolic import symbolic_state

FAR_PLATE = ("Plate2", "Plate", (1.6, 0.95, 1.6), "Counter", {"is_dirty": False})
LETTUCE_ON_IT = ("LettuceSliced#1", "LettuceSliced", (1.6, 1.0, 1.6), "Plate2", {})
LETTUCE_NEAR = ("LettuceSliced#2", "LettuceSliced", (0.1, 1.0, 1.1), "Counter", {})


def dish(objects: list[tuple], n: int = 1, put_there: bool = True) -> str:
    """The goal's formula; ``put_there``: the Follower put LettuceSliced#1 into Plate2 itself."""
    task = TaskSpec(teach_task="N Slices Of X In Y", teach_params={"N": n, "X": "Lettuce", "Y": "Plate"})
    history = History()
    if put_there:
        history.actions.append(("put", "LettuceSliced#1", "Plate2"))
    return compile_goal(Goal(task), symbolic_state(belief(objects), history), history).formula


def test_the_plate_holding_a_piece_of_the_dish_is_the_dish_though_another_is_nearer():
    formula = dish(kitchen(more=[FAR_PLATE, LETTUCE_ON_IT, LETTUCE_NEAR]), n=2)
    assert "(within LettuceSliced#1 Plate2)" in formula and "(within LettuceSliced#2 Plate2)" in formula
    assert "(not (dirty Plate2))" in formula and " Plate)" not in formula


def test_the_piece_already_in_the_dish_is_the_one_bound_though_another_is_nearer():
    assert dish(kitchen(more=[FAR_PLATE, LETTUCE_ON_IT, LETTUCE_NEAR])) == \
        "(and (not (dirty Plate2)) (within LettuceSliced#1 Plate2))"


def test_with_no_piece_in_any_plate_the_nearest_clean_plate_is_the_dish():
    formula = dish(kitchen(more=[FAR_PLATE, LETTUCE_NEAR]))
    assert formula == "(and (not (dirty Plate)) (within LettuceSliced#2 Plate))"


def test_a_piece_only_believed_in_a_plate_does_not_make_it_the_dish():
    formula = dish(kitchen(more=[FAR_PLATE, LETTUCE_ON_IT, LETTUCE_NEAR]), put_there=False)
    assert "Plate2" not in formula and "(not (dirty Plate))" in formula
