"""The information firewall holds by test: the default (no-oracle) and oracle Followers run
against a simulator that raises on any access during the Follower's turn; oracles read through a read-only
``OracleAccess``; the briefing names no episode."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from agent.firewall import FirewallBreach, FirewalledSimulator
from agent.pairing import build_agents
from agent.runner import run_episode
from agent.settings import load_config
from contracts.agents import OracleModule
from contracts.belief import Belief, ObjectMemory
from contracts.mapping import Mapper
from contracts.navigation import NavigationState, NavigationStep, Navigator
from contracts.observation import FollowerBriefing
from contracts.planning import Plan, Planner
from contracts.registry import mapper, planner
from simulator.episodes.model import load_episodes, shipped_path
from simulator.oracle import OracleAccess
from simulator.sim import Simulator

EPISODES = load_episodes(shipped_path("valid_unseen"))[0]
ONE_PER_TYPE = list({e.task_type: e for e in EPISODES}.values())


def test_the_oracle_follower_completes_episodes_behind_the_firewall():
    loaded = load_config("oracle")
    sim = FirewalledSimulator(Simulator(), check_unchanged=True)  # also: no Follower turn changes the world
    for episode in ONE_PER_TYPE[::4]:
        result, _ = run_episode(episode, build_agents(loaded), sim)
        assert result.success, episode.task_type


def test_the_default_follower_runs_behind_the_firewall_with_no_oracle():
    """The default config (rendered frames, Mask R-CNN, the semantic map, ...) reads no
    ground truth: only the Commander is listed as an oracle, and a Follower turn that
    touched the simulator would raise."""
    loaded = load_config("default")
    sim = FirewalledSimulator(Simulator(loaded.config.simulator), check_unchanged=True)
    try:
        episode = next(e for e in ONE_PER_TYPE if e.task_type == "Make Coffee")
        result, _ = run_episode(episode, build_agents(loaded), sim, limits=(40, 30))
    finally:
        sim.close()
    assert [o for o in result.oracles if not o.startswith("commander:")] == []
    assert result.steps > 0 and result.end_reason in ("max_steps", "commander_done", "max_turns")


def _runner_simulator():
    """What Follower-side code finds if it walks up the stack to the runner's simulator."""
    frame = inspect.currentframe()
    while frame is not None:
        if isinstance(frame.f_locals.get("sim"), FirewalledSimulator):
            return frame.f_locals["sim"]
        frame = frame.f_back
    raise AssertionError("the runner's simulator was not on the stack")


@planner.register("test-sneaky-planner")
class SneakyPlanner(Planner):
    """A non-oracle planner that tries to read ground truth from the runner's simulator."""

    attribute = "world"

    def plan(self, goal, belief, failure=None):
        getattr(_runner_simulator(), SneakyPlanner.attribute)
        return Plan.idle()

    def skill(self, step, belief, navigator):
        raise AssertionError("unreachable")


@pytest.mark.parametrize("attribute", ["world", "metadata", "instance_frame", "search_object", "fork", "step",
                                       "observe", "_sim"])
def test_any_simulator_access_during_the_followers_turn_raises(attribute):
    SneakyPlanner.attribute = attribute
    loaded = load_config("oracle", ["modules.planner.name=test-sneaky-planner"])
    with pytest.raises(FirewallBreach, match=f"Simulator.{attribute} during the Follower's turn"):
        run_episode(ONE_PER_TYPE[0], build_agents(loaded), Simulator())


@mapper.register("oracle-test-vandal")
class VandalMap(OracleModule, Mapper):
    """An oracle that writes to ground truth (it must not)."""

    def update(self, observation, detections, outcome=None, hints=()) -> Belief:
        agent = self.oracle.world.agents[1]
        agent.x += 0.25
        return Belief(None, ObjectMemory(), observation.pose)

    def navigator(self):
        return _Lost()


class _Lost(Navigator):
    """Knows of nowhere to go: a search with it only looks around (the vandal's Follower
    knows nothing, so its planner searches)."""

    class searcher:  # noqa: N801 -- the Navigator's searcher attribute
        @staticmethod
        def next_search(belief, object_type):
            return None

    def step(self, observation, belief, goal) -> NavigationStep:
        return NavigationStep(NavigationState.UNREACHABLE)


def test_an_oracle_that_changes_the_world_is_caught():
    loaded = load_config("oracle", ["modules.mapper.name=oracle-test-vandal"])
    sim = FirewalledSimulator(Simulator(), check_unchanged=True)
    with pytest.raises(FirewallBreach, match="the world changed during the Follower's turn"):
        run_episode(ONE_PER_TYPE[0], build_agents(loaded), sim)


def test_oracle_access_can_read_but_not_act():
    sim = Simulator()
    sim.reset(ONE_PER_TYPE[0].start)
    access = OracleAccess(sim, ONE_PER_TYPE[0])
    assert access.world is sim.world and access.metadata()["objects"]
    for name in ("step", "say", "reset", "fork", "sim", "close", "search_object"):
        assert not hasattr(access, name), name
    with pytest.raises(AttributeError):
        access.sim = sim  # no new attributes either (slots)
    copy = access.what_if()  # lookahead happens in a detached copy
    copy.step(1, "MoveAhead")
    assert copy.state_hash() != sim.state_hash()


def test_the_briefing_names_no_episode():
    assert {f.name for f in dataclasses.fields(FollowerBriefing)} == {"suite", "goal_text", "step_texts"}
