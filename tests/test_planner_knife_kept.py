"""A plan that would put the knife down and fetch one again to slice more is solved again
with the knife kept in hand until those things are sliced (``planner.knife_kept``)."""

from __future__ import annotations

from planner_scenes import belief
from test_planner_problem import planner

import planner.pddl_planner as pddl_planner
from contracts.language import TaskSpec
from contracts.planning import Goal
from planner.fast_downward import Solution
from planner.history import History
from planner.knife_kept import marked, sliced_after_knife_put
from planner.problem import Problem
from planner.symbolic import symbolic_state

SCENE = [
    ("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {}),
    ("Knife", "Knife", (-0.2, 1.0, 1.0), "Counter", {}),
    ("Bread", "Bread", (0.2, 1.0, 1.0), "Counter", {}),
    ("Lettuce", "Lettuce", (0.4, 1.0, 1.0), "Counter", {}),
]
PROBLEM = Problem("(define (problem task) (:domain household)\n (:objects o0 o1 o2 o3)\n (:init (handempty))\n"
                  " (:goal (sliced o2)))\n", {"o0": "Counter", "o1": "Knife", "o2": "Bread", "o3": "Lettuce"}, 4)


def test_what_is_sliced_after_a_knife_was_put_down():
    state = symbolic_state(belief(SCENE), History())
    refetched = [("pickup", "o1"), ("slice", "o2", "o1"), ("put", "o1", "o0"), ("pickup", "o1"),
                 ("slice", "o3", "o1"), ("put", "o1", "o0")]
    assert sliced_after_knife_put(refetched, PROBLEM, state) == frozenset({"o3"})
    kept = [("pickup", "o1"), ("slice", "o2", "o1"), ("slice", "o3", "o1"), ("put", "o1", "o0")]
    assert sliced_after_knife_put(kept, PROBLEM, state) == frozenset()
    # a put of something else is no put of a knife
    other = [("pickup", "o2"), ("put", "o2", "o0"), ("pickup", "o1"), ("slice", "o3", "o1")]
    assert sliced_after_knife_put(other, PROBLEM, state) == frozenset()


def test_marked_adds_the_facts_to_the_init_section_only():
    text = marked(PROBLEM, frozenset({"o3", "o2"})).text
    assert "(:init (must-slice o2) (must-slice o3) (handempty))" in text
    assert text.count("must-slice") == 2


def test_the_planner_solves_again_with_the_knife_kept_and_falls_back_when_that_fails(monkeypatch):
    texts: list[str] = []
    built: list[Problem] = []

    def planner_with(second_solved: bool) -> pddl_planner.PddlPlanner:
        """A planner whose searches are scripted: first a plan that fetches the knife again,
        then (with knives kept) a one-step plan, or none."""
        p = planner()
        problem = p.problem
        p.problem = lambda *args, **kwargs: built.append(problem(*args, **kwargs)) or built[-1]

        def solve(domain: str, text: str, search: str = "lazy-greedy") -> Solution:
            texts.append(text)
            name = {key: name for name, key in built[-1].keys.items()}
            knife = name["Knife"]
            if "must-slice" in text:
                return Solution((("pickup", knife),)) if second_solved else Solution(None, "no plan")
            return Solution((("pickup", knife), ("slice", name["Bread"], knife), ("put", knife, name["Counter"]),
                             ("pickup", knife), ("slice", name["Lettuce"], knife)))
        monkeypatch.setattr(pddl_planner, "solve", solve)
        return p

    goal = Goal(TaskSpec(teach_task="Sandwich", teach_params={}))
    p = planner_with(second_solved=True)
    steps = p.plan(goal, belief(SCENE)).steps
    assert len(texts) == 2 and "must-slice" not in texts[0]
    name = {key: name for name, key in built[-1].keys.items()}
    assert f"(must-slice {name['Lettuce']})" in texts[1] and f"(must-slice {name['Bread']})" not in texts[1]
    assert [r.solved for r in p.records] == [True, True] and len(steps) == 1  # the second plan
    texts.clear()
    p = planner_with(second_solved=False)
    steps = p.plan(goal, belief(SCENE)).steps
    assert len(texts) == 2
    assert [s.subgoal.action for s in steps] == ["PickupObject", "SliceObject", "PutObject", "PickupObject",
                                                 "SliceObject"]  # the first plan, kept
