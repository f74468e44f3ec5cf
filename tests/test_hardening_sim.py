"""Simulator.step on malformed calls: a non-string action name or a non-int agent id is a
failed action with a clear message (never an internal error, never a state change)."""

from __future__ import annotations

import pytest

from simulator.episodes.model import load_episodes, shipped_path
from simulator.sim import FOLLOWER, Simulator


@pytest.mark.parametrize("agent, action, message", [
    (1.0, "MoveAhead", "Unknown agent 1.0"), (True, "MoveAhead", "Unknown agent True"),
    (FOLLOWER, 7, "An action is named by a string, got int 7"), (FOLLOWER, None, "got NoneType None"),
])
def test_malformed_steps_fail_cleanly_and_change_nothing(agent, action, message):
    sim = Simulator()
    sim.reset(load_episodes(shipped_path("valid_unseen"))[0][0].start)
    before = sim.state_hash()
    result = sim.step(agent, action)
    assert not result.success and message in result.error_message
    assert sim.state_hash() == before
