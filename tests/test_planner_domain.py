"""The PDDL domain: each action's preconditions and effects, solved by Fast Downward on
tiny problems (a plan exists exactly when the preconditions can be met)."""

from __future__ import annotations

import pytest

from planner.domain import DOMAIN
from planner.fast_downward import solve


def plan(init: str, goal: str, objects: str = "a b c d") -> list[tuple[str, ...]] | None:
    problem = f"(define (problem t) (:domain household) (:objects {objects}) (:init {init}) (:goal {goal}))"
    solution = solve(DOMAIN, problem)
    return list(solution.actions) if solution.solved else None


BASE = "(handempty) (present a) (present b) (present c) (present d)"


def test_pickup_needs_empty_hand_and_an_open_container():
    assert plan(BASE + " (pickupable a)", "(holding a)") == [("goto", "a"), ("pickup", "a")]
    closed = BASE + " (pickupable a) (in a b) (openable b) (receptacle b)"
    assert ("open", "b") in plan(closed, "(holding a)")
    assert plan(BASE + " (pickupable a) (in a b) (openable b)", "(holding a)") is not None
    nested = BASE + " (pickupable a) (in a c) (receptacle c) (in c b) (openable b) (receptacle b)"
    assert ("open", "b") in plan(nested, "(holding a)")  # the apple on a plate in the closed fridge
    held = "(present a) (present b) (pickupable a) (holding b)"  # hand full, nowhere to put b
    assert plan(held, "(holding a)") is None


def test_put_needs_can_put_and_an_open_receptacle_and_moves_the_object():
    init = BASE + " (pickupable a) (receptacle b) (openable b) (can-put a b)"
    steps = plan(init, "(and (in a b) (handempty))")
    assert steps.index(("open", "b")) < steps.index(("put", "a", "b"))
    assert plan(BASE + " (pickupable a) (receptacle b)", "(in a b)") is None  # no can-put


def test_single_slot_receptacle_is_cleared_first():
    init = BASE + (" (pickupable a) (pickupable c) (receptacle b) (single b) (receptacle d) (in c b)"
                   " (can-put a b) (can-put c b) (can-put c d) (can-put a d)")
    steps = plan(init, "(in a b)")
    assert steps.index(("pickup", "c")) < steps.index(("put", "a", "b"))


def test_faucet_cleans_fills_and_records_what_is_in_its_basin():
    init = BASE + (" (pickupable a) (fillable a) (dirty a) (basin b) (receptacle b) (faucet c) (toggleable c)"
                   " (controls c b) (can-put a b)")
    steps = plan(init, "(and (not (dirty a)) (water a) (cleaned a))")
    assert steps.index(("put", "a", "b")) < steps.index(("toggle-on", "c"))
    running = init + " (on c)"  # into a running basin: clean and filled, not recorded as cleaned
    assert ("toggle-on", "c") not in plan(running, "(and (not (dirty a)) (water a))")


def test_microwave_heats_only_when_closed_and_cannot_open_while_on():
    init = BASE + " (pickupable a) (cookable a) (microwave b) (receptacle b) (openable b) (toggleable b) (can-put a b)"
    steps = plan(init, "(and (cooked a) (heated a))")
    assert steps.index(("close", "b")) < steps.index(("toggle-on", "b"))
    stuck = BASE + " (microwave b) (openable b) (toggleable b) (on b)"
    assert ("toggle-off", "b") in plan(stuck, "(opened b)")


def test_fridge_chills_and_records_cooled_on_close():
    init = BASE + " (pickupable a) (fridge b) (receptacle b) (openable b) (can-put a b)"
    steps = plan(init, "(and (cold a) (cooled a))")
    assert steps[-1] == ("close", "b")


def test_slicing_needs_a_held_knife_and_makes_the_pieces():
    init = ("(handempty) (present a) (present b) (present d) (pickupable a) (knife a) (sliceable b)"
            " (piece-of c b) (pickupable c) (in b d) (receptacle d) (can-put a d)")
    steps = plan(init, "(and (holding c) (in a d))")
    assert steps.index(("pickup", "a")) < steps.index(("slice", "b", "a")) < steps.index(("pickup", "c"))
    assert plan("(handempty) (present b) (sliceable b) (piece-of c b)", "(present c)") is None  # no knife


def test_burner_boils_a_potato_in_a_pot_of_water():
    init = BASE + (" (pickupable a) (potato a) (cookable a) (pickupable b) (pot b) (vessel b) (receptacle b)"
                   " (water b) (burner c) (toggleable c) (receptacle c) (can-put a b) (can-put b c)")
    steps = plan(init, "(boiled a)")
    assert steps is not None and ("toggle-on", "c") in steps
    dry = init.replace(" (water b)", "")
    assert plan(dry, "(boiled a)") is None


def test_toaster_and_coffee_machine():
    init = BASE + " (pickupable a) (breadslice a) (toaster b) (toggleable b) (receptacle b) (can-put a b)"
    assert ("toggle-on", "b") in plan(init, "(cooked a)")
    init = BASE + " (pickupable a) (fillable a) (coffeemachine b) (toggleable b) (receptacle b) (can-put a b)"
    assert ("toggle-on", "b") in plan(init, "(coffee a)")


def test_pour_waters_a_plant_and_search_finds_unlocated_objects():
    init = BASE + " (pickupable a) (water a) (plant b) (fillable b)"
    assert plan(init, "(water b)")[-1] == ("pour", "a", "b")
    hidden = "(handempty) (unlocated a) (pickupable a)"
    assert plan(hidden, "(holding a)") == [("search", "a"), ("pickup", "a")]


@pytest.mark.parametrize("goal", ["(on a)", "(opened a)"])
def test_toggle_and_open_need_the_property(goal):
    assert plan(BASE, goal) is None
    assert plan(BASE + " (toggleable a) (openable a)", goal) is not None


def test_a_problem_met_before_is_not_solved_again(monkeypatch):
    import planner.fast_downward as fd

    problem = f"(define (problem t) (:domain household) (:objects a b c d) (:init {BASE} (pickupable a) (at a)) (:goal (holding a)))"
    first = fd.solve(DOMAIN, problem)
    monkeypatch.setattr(fd, "_solve", lambda *args: pytest.fail("solved again"))
    assert fd.solve(DOMAIN, problem) is first and first.actions == (("pickup", "a"),)


@pytest.mark.parametrize("search", ["lazy-greedy", "eager-greedy"])
def test_each_named_search_solves_and_an_unknown_name_says_which_exist(search):
    import typing

    import planner.fast_downward as fd
    from contracts.errors import NesyError

    assert set(typing.get_args(fd.SearchName)) == set(fd.SEARCHES)  # the config's choices are the searches
    problem = f"(define (problem t) (:domain household) (:objects a b c d) (:init {BASE} (pickupable a) (in a b) (openable b) (receptacle b)) (:goal (holding a)))"
    assert ("open", "b") in fd.solve(DOMAIN, problem, search=search).actions
    with pytest.raises(NesyError, match="lazy-greedy, eager-greedy"):
        fd.solve(DOMAIN, problem, search="astar")


def test_a_search_that_proves_the_goal_unreachable_is_no_plan_not_an_error(monkeypatch):
    import subprocess

    import planner.fast_downward as fd

    exhausted = subprocess.CompletedProcess([], 11, "Completely explored state space -- no solution!", "")
    monkeypatch.setattr(fd.subprocess, "run", lambda *args, **kwargs: exhausted)
    problem = f"(define (problem t) (:domain household) (:objects a b c d) (:init {BASE} (pickupable b) (at b)) (:goal (holding b)))"
    solution = fd._solve(DOMAIN, problem, 5.0, fd.SEARCHES[fd.DEFAULT_SEARCH])
    assert not solution.solved and "no plan exists" in solution.reason


def test_a_knife_stays_in_hand_while_something_marked_must_slice_is_whole():
    # the knife must end in d and the pieces of b and c are wanted; b and c marked must-slice
    init = ("(handempty) (present a) (present b) (present c) (present d) (pickupable a) (knife a)"
            " (sliceable b) (sliceable c) (receptacle d) (can-put a d)")
    goal = "(and (sliced b) (sliced c) (in a d))"
    steps = plan(init + " (must-slice b) (must-slice c)", goal)
    assert steps.index(("slice", "b", "a")) < steps.index(("put", "a", "d"))
    assert steps.index(("slice", "c", "a")) < steps.index(("put", "a", "d"))
    # with nothing marked the put is free; marked but sliced already, too
    assert plan(init, "(in a d)") == [("goto", "a"), ("pickup", "a"), ("goto", "d"), ("put", "a", "d")]
    assert plan(init + " (must-slice b) (sliced b)", "(in a d)") is not None


def test_a_search_is_capped_in_cpu_time_so_none_outlives_a_killed_evaluation():
    """Stop 96: a search left behind by a stopped worker ran on for 18 minutes beside the next run."""
    import subprocess
    import sys

    from planner.fast_downward import _cpu_limit

    script = "import resource; print(resource.getrlimit(resource.RLIMIT_CPU))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, preexec_fn=_cpu_limit(3.2))
    assert out.stdout.strip() == "(6, 7)"
