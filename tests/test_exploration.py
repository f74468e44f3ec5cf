"""Searching for an object that is not in memory: frontiers and receptacles traded off by
the search prior and distance (closed containers opened), each proposed once; the learned
prior comes from ALFRED train placements and rebuilds deterministically."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from contracts.belief import Belief, Cell, GridMap, ObjectMemory
from contracts.errors import NesyError
from contracts.geometry import Pose
from mapping.exploration import FrontierPriorSearcher
from mapping.search_prior import PRIOR_PATH, likelihood

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "alfred_train.jsonl.gz"


def _belief(free_rows: slice) -> Belief:
    grid = GridMap.empty((-2.0, -2.0), (40, 40), 0.1)
    grid.occupancy[free_rows, 5:35] = Cell.FREE
    memory = ObjectMemory()
    memory.add("CounterTop", (1.0, 0.9, 0.0), extent=(1.0, 0.1, 0.5), times_seen=1)
    memory.add("Fridge", (-1.0, 0.9, 0.0), extent=(0.8, 1.8, 0.8), times_seen=1)
    memory.add("Fridge", (0.0, 0.9, 1.5), extent=(0.8, 1.8, 0.8))  # only a hint (never seen): not searched
    return Belief(grid, memory, Pose(0.0, 0.0, 0.0, 0.0))


def test_a_likely_receptacle_beats_a_frontier_under_the_learned_prior_but_not_the_uniform_one():
    belief = _belief(slice(10, 30))  # free cells in the middle of an unknown map: frontiers all round
    learned = FrontierPriorSearcher("learned").next_search(belief, "Apple")
    assert learned.goal.instance == "Fridge#1" and learned.open_receptacle and "Fridge" in learned.reason
    uniform = FrontierPriorSearcher("uniform")
    first = uniform.next_search(belief, "Apple")
    assert first.reason == "frontier" and first.goal.point is not None
    uniform.searched(first)
    assert uniform.next_search(belief, "Apple").goal.point != first.goal.point  # each target once


def test_with_no_frontier_left_receptacles_come_by_the_prior_then_nothing():
    searcher = FrontierPriorSearcher("learned")
    closed = _belief(slice(0, 40))
    closed.grid.occupancy[:, :5] = Cell.OBSTACLE
    closed.grid.occupancy[:, 35:] = Cell.OBSTACLE
    closed.grid.occupancy[:, 5:35] = Cell.FREE  # everything known: no frontier left
    closed.grid.occupancy[[0, -1], :] = Cell.OBSTACLE  # (beyond the map's edge counts as unknown)
    apple = searcher.next_search(closed, "Apple")
    assert apple.goal.instance == "Fridge#1" and apple.open_receptacle
    searcher.searched(apple)
    counter = searcher.next_search(closed, "Apple")
    assert counter.goal.instance == "CounterTop#1" and not counter.open_receptacle
    searcher.searched(counter)
    assert searcher.next_search(closed, "Apple") is None


def test_the_learned_prior_prefers_where_objects_were_and_uniform_does_not():
    assert likelihood("Apple", "Fridge") > likelihood("Apple", "Toilet")
    assert likelihood("Knife", "Drawer") > likelihood("Knife", "Bathtub")
    assert likelihood("Apple", "Fridge", "uniform") == likelihood("Apple", "Toilet", "uniform")
    with pytest.raises(NesyError, match="search_prior must be one of learned, uniform"):
        likelihood("Apple", "Fridge", "oracle")


@pytest.mark.slow
@pytest.mark.skipif(not DATA.is_file(), reason=f"ALFRED train data not found at {DATA}")
def test_the_prior_table_rebuilds_identically(tmp_path):
    from mapping.prior_build import main

    assert main([str(DATA), "--out", str(tmp_path / "prior.json")]) == 0
    assert json.loads((tmp_path / "prior.json").read_text()) == json.loads(PRIOR_PATH.read_text())


def test_find_and_reach_episodes_run_with_oracle_seg():
    import argparse

    from agent.nav_bench import benchmark
    from simulator.render import available
    from simulator.sim import Simulator

    if not available():
        pytest.skip("no headless OpenGL (EGL) context")
    sim = Simulator(argparse.Namespace(render="egl", width=300, height=300))
    result = benchmark(sim, 4, "oracle-seg")
    sim.close()
    assert set(result) >= {"episodes", "perception", "success_rate", "spl", "uniform_success_rate", "uniform_spl"}
    assert result["episodes"] == 4 and result["success_rate"] >= 0.5 and 0 < result["spl"] <= result["success_rate"]
