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
from contracts.navigation import NavigationGoal, SearchTarget
from mapping.exploration import FrontierPriorSearcher
from mapping.search_prior import PRIOR_PATH, likelihood, never_inside

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
    searcher.start_over()  # the Commander says it is there after all: everything once more
    assert searcher.next_search(closed, "Apple").goal.instance == "Fridge#1"


@pytest.mark.parametrize("prior", ["learned", "uniform"])
def test_no_container_is_opened_to_look_for_a_type_no_container_holds(prior):
    assert never_inside("SinkBasin") and never_inside("Fridge") and not never_inside("Apple")
    assert not never_inside("AppleSliced")  # not in the start states: unknown, not fixed
    searcher = FrontierPriorSearcher(prior)
    closed = _walled_belief()
    closed.memory.instances["Fridge#1"].states["is_open"] = True  # and opened: nothing to look into either
    closed.memory.add("Cabinet", (1.0, 0.4, 1.0), extent=(0.5, 0.7, 0.5), times_seen=1)
    proposed = []
    while (target := searcher.next_search(closed, "SinkBasin")) is not None:
        proposed.append(target)
        searcher.searched(target)
    assert [t.goal.instance for t in proposed] == ["CounterTop#1"]  # a surface, never the cabinet or fridge
    assert searcher.next_search(closed, "Apple").goal.instance in ("Fridge#1", "Cabinet#1")  # an apple may be inside


def _walled_belief() -> Belief:
    """The room of ``_belief`` all explored: free floor inside walls, no frontier."""
    belief = _belief(slice(0, 40))
    belief.grid.occupancy[:] = Cell.FREE
    belief.grid.occupancy[[0, -1], :] = Cell.OBSTACLE
    belief.grid.occupancy[:, [0, -1]] = Cell.OBSTACLE
    return belief


def test_a_container_inside_an_opened_one_of_its_type_is_not_opened_again():
    searcher = FrontierPriorSearcher("learned")
    closed = _walled_belief()
    fridge = searcher.next_search(closed, "Apple")
    assert fridge.goal.instance == "Fridge#1"
    searcher.searched(fridge)
    # its opened door is seen 0.3 m off: remembered as a new fridge, within the opened one's box
    closed.memory.add("Fridge", (-0.7, 0.9, 0.1), extent=(0.4, 1.8, 0.1), times_seen=1)
    closed.memory.add("Fridge", (-1.0, 0.9, 0.9), extent=(0.8, 1.8, 0.8), times_seen=1)  # another, next to it
    beside = searcher.next_search(closed, "Apple")
    assert beside.goal.instance == "Fridge#4"
    assert not searcher.worth_opening(closed, SearchTarget(NavigationGoal(instance="Fridge#3"), True))
    searcher.searched(beside)
    searcher.searched(searcher.next_search(closed, "Apple"))  # the counter
    # nothing else left: the door-like one is opened after all (it may be a container of its own:
    # the drawer above an opened one, the other door of a double cabinet), and is worth opening there
    last = searcher.next_search(closed, "Apple")
    assert last.goal.instance == "Fridge#3" and last.open_receptacle and "last resort" in last.reason
    assert searcher.worth_opening(closed, last)
    searcher.searched(last)
    assert searcher.next_search(closed, "Apple") is None


def test_when_nothing_is_left_each_opened_container_is_looked_into_once_from_close_in_front():
    searcher = FrontierPriorSearcher("learned")
    closed = _walled_belief()
    fridge = searcher.next_search(closed, "Apple")
    assert fridge.goal.instance == "Fridge#1" and fridge.open_receptacle
    searcher.searched(fridge)
    closed.memory.instances["Fridge#1"].states["is_open"] = True  # the mapper saw the Open succeed
    searcher.searched(searcher.next_search(closed, "Apple"))  # the counter
    again = searcher.next_search(closed, "Apple")
    assert again.goal.instance == "Fridge#1" and again.look_inside and again.goal.centred
    assert not again.open_receptacle and "final resort" in again.reason
    searcher.searched(again)
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
    from mapping.size_prior import SIZES_PATH

    assert main([str(DATA), "--out", str(tmp_path / "prior.json"), "--sizes-out", str(tmp_path / "sizes.json")]) == 0
    assert json.loads((tmp_path / "prior.json").read_text()) == json.loads(PRIOR_PATH.read_text()), (
        "mapping/data/search_prior.json is stale (a calibration change moves the boxes it counts "
        "containment with): rebuild it with python -m mapping.prior_build ../shared/data/alfred_train.jsonl.gz")
    assert json.loads((tmp_path / "sizes.json").read_text()) == json.loads(SIZES_PATH.read_text()), (
        "mapping/data/object_sizes.json is stale: rebuild it with python -m mapping.prior_build "
        "../shared/data/alfred_train.jsonl.gz")


def test_find_and_reach_episodes_run_with_oracle_seg():
    import argparse

    from agent.nav_bench import benchmark
    from simulator.render import available
    from simulator.sim import Simulator

    if not available():
        pytest.skip("no headless OpenGL (EGL) context")
    sim = Simulator(argparse.Namespace(render="egl", width=300, height=300))
    rows: list[dict] = []
    result = benchmark(sim, 4, "oracle-seg", per_episode=rows)
    sim.close()
    assert set(result) >= {"episodes", "perception", "success_rate", "spl", "uniform_success_rate", "uniform_spl"}
    assert result["episodes"] == 4 and result["success_rate"] >= 0.5 and 0 < result["spl"] <= result["success_rate"]
    assert [r["prior"] for r in rows] == ["learned"] * 4 + ["uniform"] * 4  # --per-episode: one row each
    assert sum(r["spl"] for r in rows[:4]) / 4 == pytest.approx(result["spl"], abs=1e-3)
    shut = [r for r in rows[:4] if r["in_container"]]  # the container split says where SPL goes
    assert result["container_episodes"] == len(shut)
    assert result["container_spl"] == pytest.approx(sum(r["spl"] for r in shut) / max(len(shut), 1), abs=1e-3)


def test_look_around_turns_only_to_where_the_map_is_unknown():
    searcher = FrontierPriorSearcher("learned")
    grid = GridMap.empty((-4.0, -4.0), (80, 80), 0.1)
    grid.occupancy[:] = Cell.FREE
    belief = Belief(grid, ObjectMemory(), Pose(0.0, 0.0, 0.0, 0.0))
    assert searcher.look_around(belief) == []  # everything known: no turn
    grid.occupancy[35:45, :40] = Cell.UNKNOWN  # a strip at x < 0: on the left when facing +z
    assert searcher.look_around(belief) == ["Turn Left"]
    grid.occupancy[:40, 35:45] = Cell.UNKNOWN  # and one behind (z < 0)
    assert searcher.look_around(belief) == ["Turn Left", "Turn Left"]
    grid.occupancy[35:45, 40:] = Cell.UNKNOWN  # and one on the right: three turns
    assert len(searcher.look_around(belief)) == 3
    grid.occupancy[:] = Cell.UNKNOWN  # all unknown: three turns one way
    assert len(set(searcher.look_around(belief))) == 1 and len(searcher.look_around(belief)) == 3


def test_a_surface_near_a_searched_one_of_its_type_counts_as_searched():
    searcher = FrontierPriorSearcher("learned")
    belief = _belief(slice(0, 40))  # no frontier
    belief.grid.occupancy[:] = Cell.FREE
    belief.grid.occupancy[[0, -1], :] = Cell.OBSTACLE
    belief.grid.occupancy[:, [0, -1]] = Cell.OBSTACLE
    belief.memory.add("CounterTop", (1.6, 0.9, 0.0), extent=(1.0, 0.1, 0.5), times_seen=1)  # the same counter again
    belief.memory.add("Drawer", (1.0, 0.5, 0.3), times_seen=1)
    belief.memory.add("Drawer", (1.0, 0.2, 0.3), times_seen=1)  # a drawer below: opened on its own
    proposed = []
    while (target := searcher.next_search(belief, "Apple")) is not None:
        proposed.append(target.goal.instance)
        searcher.searched(target)
    assert proposed.count("CounterTop#1") + proposed.count("CounterTop#2") == 1
    assert {"Drawer#1", "Drawer#2", "Fridge#1"} <= set(proposed)


def test_search_targets_are_ranked_by_the_actions_to_reach_them_when_the_navigator_gives_them():
    belief = _belief(slice(0, 40))
    belief.memory.add("Fridge", (1.0, 0.9, -1.0), extent=(0.8, 1.8, 0.8), times_seen=1)  # as far as Fridge#1
    searcher = FrontierPriorSearcher("learned")
    searcher.cost_of = lambda belief, goals: [40.0 if g.instance == "Fridge#1" else 4.0 for g in goals]
    assert searcher.next_search(belief, "Apple").goal.instance == "Fridge#3"  # the one fewer actions away
    searcher.cost_of = lambda belief, goals: [4.0 if g.instance == "Fridge#1" else 40.0 for g in goals]
    assert searcher.next_search(belief, "Apple").goal.instance == "Fridge#1"


def test_three_turns_start_towards_the_side_that_is_more_known_already():
    searcher = FrontierPriorSearcher("learned")
    grid = GridMap.empty((-4.0, -4.0), (80, 80), 0.1)
    belief = Belief(grid, ObjectMemory(), Pose(0.0, 0.0, 0.0, 0.0))
    grid.occupancy[40:60, 40:44] = Cell.FREE  # facing +z; a little of the right side (x > 0) is seen
    assert searcher.look_around(belief) == ["Turn Right"] * 3
    grid.occupancy[40:60, 36:40] = Cell.FREE  # and more of the left side
    grid.occupancy[40:70, 30:36] = Cell.FREE
    assert searcher.look_around(belief) == ["Turn Left"] * 3


def test_a_surface_seen_from_above_within_seen_range_is_not_visited():
    closed = _belief(slice(0, 40))
    closed.grid.occupancy[:, :5] = Cell.OBSTACLE
    closed.grid.occupancy[:, 35:] = Cell.OBSTACLE
    closed.grid.occupancy[[0, -1], :] = Cell.OBSTACLE  # no frontier left
    searcher = FrontierPriorSearcher("learned")
    searcher.searched(searcher.next_search(closed, "Apple"))  # the fridge
    searcher.viewed = {"CounterTop#1": 1.2}  # seen from above, but not near enough
    assert searcher.next_search(closed, "Apple").goal.instance == "CounterTop#1"
    searcher.viewed = {"CounterTop#1": searcher.seen_range - 0.1}  # what stood on it would have been seen
    assert searcher.next_search(closed, "Apple") is None
