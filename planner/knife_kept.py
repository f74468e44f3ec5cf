"""Plans that keep the knife in hand while there is more to slice.

Fast Downward's plans are satisficing (lazy greedy search, no action costs): a plan that
slices the bread, puts the knife down to take a slice to the toaster, and fetches the knife
again for the lettuce is as good to it as one that slices both first. For a Follower that
finds knives by their pixels it is not: the knife is the object the detector finds least
(mask AP@0.5 0.06, docs/perception.md), and one it put in the sink it did not see again
(TATC valid_unseen 0217: "I could not take the knife", then hundreds of steps of searching).

``sliced_after_knife_put`` reads a plan for what it slices after it has put a knife down;
the planner then solves again with those marked ``must-slice`` (``marked``), which the
domain's ``put`` does not let a knife leave the hand for (``slices-pending``), and keeps the
first plan when that problem has no solution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from planner import knowledge
from planner.problem import Problem
from planner.symbolic import SymbolicState

INIT = "(:init "


def sliced_after_knife_put(actions: Sequence[tuple[str, ...]], problem: Problem,
                           state: SymbolicState) -> frozenset[str]:
    """The PDDL names of the objects ``actions`` slice after the plan has put a knife down."""
    put_down, later = False, set()
    for name, *args in actions:
        if name == "put" and state.types[problem.keys[args[0]]] in knowledge.KNIVES:
            put_down = True
        elif name == "slice" and put_down:
            later.add(args[0])
    return frozenset(later)


def marked(problem: Problem, names: frozenset[str]) -> Problem:
    """``problem`` with ``names`` to be sliced before a knife is put down."""
    facts = "".join(f"(must-slice {name}) " for name in sorted(names))
    if INIT not in problem.text:
        raise ValueError("a PDDL problem without an (:init ...) section")
    return replace(problem, text=problem.text.replace(INIT, INIT + facts, 1))
