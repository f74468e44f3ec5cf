"""The information firewall, enforced: while the Follower is being reset or is choosing its
action, the episode's simulator cannot be touched at all.

``FirewalledSimulator`` wraps the simulator that the runner drives. The runner opens a
``follower_turn()`` around every ``Follower.reset`` and ``Follower.act``; inside it, any
attribute of the simulator (``world``, ``metadata``, ``instance_frame``, ``search_object``,
``fork``, ``step``, ``observe``...) raises ``FirewallBreach``, so Follower-side code that
finds the simulator (by walking stack frames, globals or the garbage collector) cannot
read ground truth or act. Modules named ``oracle-*`` read ground truth only through the
read-only ``simulator.oracle.OracleAccess`` that the runner gives them; with
``check_unchanged`` the wrapper also verifies that no Follower turn changed the world.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from contracts.errors import NesyError


class FirewallBreach(NesyError):
    """Follower-side code touched the simulator (ground truth or acting) during its turn."""


class FirewalledSimulator:
    def __init__(self, sim: Any, check_unchanged: bool = False) -> None:
        object.__setattr__(self, "_sim", sim)
        object.__setattr__(self, "_closed", False)
        object.__setattr__(self, "_check", check_unchanged)

    @contextmanager
    def follower_turn(self) -> Iterator[None]:
        get = object.__getattribute__
        sim = get(self, "_sim")
        before = sim.state_hash() if get(self, "_check") else None
        object.__setattr__(self, "_closed", True)
        try:
            yield
        finally:
            object.__setattr__(self, "_closed", False)
        if before is not None and sim.state_hash() != before:
            raise FirewallBreach("the world changed during the Follower's turn: an oracle module wrote to "
                                 "ground truth (OracleAccess is read-only)")

    def __getattribute__(self, name: str) -> Any:
        get = object.__getattribute__
        if get(self, "_closed"):  # everything, the wrapper's own fields included
            raise FirewallBreach(
                f"Follower-side code read Simulator.{name} during the Follower's turn; a Follower sees "
                "only its observations (modules named oracle-* get ground truth through OracleAccess)")
        if name == "follower_turn":
            return get(self, name)
        return getattr(get(self, "_sim"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FirewallBreach(f"nothing may set Simulator.{name} through the runner's firewall")


def guarded(sim: Any, check_unchanged: bool = False) -> FirewalledSimulator:
    """``sim`` behind a firewall (itself if it already is one)."""
    return sim if isinstance(sim, FirewalledSimulator) else FirewalledSimulator(sim, check_unchanged)


def unguarded(sim: Any) -> Any:
    """The simulator behind a firewall (for the runner's ``OracleAccess`` only)."""
    return object.__getattribute__(sim, "_sim") if isinstance(sim, FirewalledSimulator) else sim
