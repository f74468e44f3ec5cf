"""`nesy bench planner --compare`: the same problems solved each way, every named search too."""

from __future__ import annotations

from agent.cli.bench_planner import compare
from planner.domain import DOMAIN
from planner.fast_downward import SEARCHES, solve

PROBLEM = ("(define (problem t) (:domain household) (:objects a b) (:init (handempty) (present a) (present b)"
           " (pickupable a) (in a b) (openable b) (receptacle b)) (:goal (holding a)))")


def test_compare_solves_the_problems_with_the_subprocess_driver_and_every_search():
    solve(DOMAIN, PROBLEM)  # remembered, as after the benchmark's episodes
    out = compare([PROBLEM])
    assert out["problems"] == 1 and out["in_process"]["solved"] == 1 and out["subprocess_translate"]["solved"] == 1
    assert set(out["searches"]) == set(SEARCHES)
    assert out["in_process"]["median_ms"] > 0  # timed afresh, not a remembered solution
    assert all(row["solved"] == 1 and row["mean_actions"] >= 3 for row in out["searches"].values())  # goto, open, pickup
