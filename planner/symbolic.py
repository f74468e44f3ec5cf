"""The symbolic state: typed facts about the objects the Follower believes in.

Built from the Belief (instances, their containers and observed states, the held object;
a dirtyable object whose cleanliness the Belief does not tell counts as dirty)
and the Follower's own ``History`` (coffee, boiled, ALFRED's cleaned/heated/cooled records,
what went missing or is full). Facts are tuples like ``("in", "Apple#1", "Fridge#1")`` over
memory keys. Unknown locations are explicit: a goal object of a type that memory does not
hold becomes an ``unlocated`` placeholder (``?Type``) that a plan must ``search`` for; the
pieces slicing a whole will give are declared as placeholders (``Key~k``) that become
``present`` when it is sliced. An instance seen in one frame at most (a single detection, a
hint's guess; not inferred from the Follower's own actions, not handled) is ``glimpsed``:
``present`` lists it after the instances seen more than once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from contracts.belief import Belief
from planner import knowledge
from planner.history import History
from planner.taps import fed_basins

STATE_FACTS = {"is_open": "opened", "is_toggled": "on", "is_dirty": "dirty", "is_cooked": "cooked",
               "is_sliced": "sliced"}
TYPE_FACTS = {"knife": knowledge.KNIVES, "basin": knowledge.BASINS, "faucet": ("Faucet",),
              "microwave": ("Microwave",), "fridge": ("Fridge",), "burner": ("StoveBurner",), "pot": ("Pot",),
              "vessel": knowledge.HEATING_VESSELS, "toaster": ("Toaster",), "coffeemachine": ("CoffeeMachine",),
              "breadslice": ("BreadSliced",), "plant": ("HousePlant",), "single": knowledge.SINGLE_SLOT}
PROPERTY_FACTS = ("pickupable", "receptacle", "openable", "toggleable", "sliceable", "cookable", "fillable")
HISTORY_FLAGS = ("boiled", "cleaned", "heated", "cooled")


def assumed(state_name: str, object_type: str) -> bool:
    """A state the Belief does not tell (a mapper that never saw it change leaves it out):
    only dirtiness is assumed, so a mug of unknown cleanliness is washed before use."""
    return state_name == "is_dirty" and knowledge.has(object_type, "dirtyable")


@dataclass
class SymbolicState:
    types: dict[str, str]  # key -> object type (placeholders included)
    facts: set[tuple[str, ...]]
    positions: dict[str, tuple[float, float]]  # key -> odometry (x, z)
    agent: tuple[float, float]
    held: str | None = None
    placeholders: set[str] = field(default_factory=set)
    glimpsed: set[str] = field(default_factory=set)  # seen in one frame at most (a hint's guess): often phantoms
    halves: dict[str, tuple[float, float]] = field(default_factory=dict)  # key -> half its footprint (x, z)

    def holds(self, *fact: str) -> bool:
        return tuple(fact) in self.facts

    def container(self, key: str) -> str | None:
        return next((f[2] for f in self.facts if f[0] == "in" and f[1] == key), None)

    def containers(self, key: str) -> set[str]:
        """What ``key`` lies in, directly or in something that does (PDDL's ``within``)."""
        found: set[str] = set()
        while (key := self.container(key)) is not None and key not in found:
            found.add(key)
        return found

    def accessible(self, key: str) -> bool:
        """Not inside a closed container (at any depth: the plate in the closed fridge)."""
        return not _closed_around(key, self.container,
                                  lambda parent: self.holds("openable", parent) and not self.holds("opened", parent))

    def distance(self, key: str) -> float:
        x, z = self.positions.get(key, self.agent)
        return math.hypot(x - self.agent[0], z - self.agent[1])

    def gap(self, key: str, point: tuple[float, float]) -> float:
        """Metres from ``point`` to ``key``'s footprint (0 inside it; its centre if no size is known)."""
        x, z = self.positions.get(key, self.agent)
        hx, hz = self.halves.get(key, (0.0, 0.0))
        return math.hypot(max(abs(point[0] - x) - hx, 0.0), max(abs(point[1] - z) - hz, 0.0))

    def present(self, kind_test) -> list[str]:
        """Keys of present (or unlocated) objects whose type passes ``kind_test``, nearest first."""
        keys = [k for k, t in self.types.items() if kind_test(t)
                and (self.holds("present", k) or self.holds("unlocated", k))]
        return sorted(keys, key=lambda k: (not self.holds("present", k), k in self.glimpsed, not self.accessible(k),
                                           self.distance(k), k))

    def add_unlocated(self, name: str, index: int = 0) -> str:
        """A new placeholder for an object of type (or class) ``name`` whose location is unknown."""
        object_type = knowledge.representative(name)
        key, n = f"?{object_type}", 1
        while key in self.types:
            n += 1
            key = f"?{object_type}#{n}"
        self.types[key] = object_type
        self.placeholders.add(key)
        self.facts.add(("unlocated", key))
        self._type_facts(key, object_type)
        if assumed("is_dirty", object_type):
            self.facts.add(("dirty", key))
        return key

    def add_pieces(self, whole: str, count: int) -> list[str]:
        """Placeholders for ``count`` pieces of the (unsliced) whole ``whole``."""
        piece_type = knowledge.piece_of(self.types[whole])
        keys = []
        for k in range(count):
            key = f"{whole}~{k}"
            if key not in self.types:
                self.types[key] = piece_type
                self.placeholders.add(key)
                self.positions[key] = self.positions.get(whole, self.agent)
                self.facts.add(("piece-of", key, whole))
                self._type_facts(key, piece_type)
            keys.append(key)
        return keys

    def _type_facts(self, key: str, object_type: str) -> None:
        props = knowledge.properties(object_type)
        self.facts.update((p, key) for p in PROPERTY_FACTS if p in props)
        self.facts.update((name, key) for name, kinds in TYPE_FACTS.items() if object_type in kinds)
        if object_type.startswith("Potato"):
            self.facts.add(("potato", key))


def _closed_around(key: str, container_of: Callable[[str], str | None], closed: Callable[[str], bool]) -> bool:
    """Does a closed container hold ``key``, at any depth (``container_of``: what a key lies
    in, None for nothing)?"""
    seen = {key}
    parent = container_of(key)
    while parent is not None and parent not in seen:
        if closed(parent):
            return True
        seen.add(parent)
        parent = container_of(parent)
    return False


def shut_in(belief: Belief, key: str) -> bool:
    """Is the instance believed inside an openable container not believed open (at any depth)?"""
    memory = belief.memory.instances

    def container_of(k: str) -> str | None:
        parent = memory[k].container if k in memory else None
        return parent if parent in memory else None

    return _closed_around(key, container_of, lambda parent: knowledge.has(memory[parent].object_type, "openable")
                          and not memory[parent].states.get("is_open"))


def symbolic_state(belief: Belief, history: History) -> SymbolicState:
    """The facts the Belief and the history support (static type facts included)."""
    memory = belief.memory
    state = SymbolicState({}, set(), {}, (belief.pose.x, belief.pose.z), memory.held)
    for key, inst in memory.instances.items():
        if history.gone(key) and key != memory.held:
            continue
        state.types[key] = inst.object_type
        state.positions[key] = (inst.position[0], inst.position[2])
        state.halves[key] = (inst.extent[0] / 2, inst.extent[2] / 2)
        state.facts.add(("present", key))
        if inst.times_seen <= 1 and not inst.states.get("inferred") and not history.flags.get(key) and key != memory.held:
            state.glimpsed.add(key)  # one frame, or a hint's guess: not yet worth a walk before a thing seen again
        state._type_facts(key, inst.object_type)
        if inst.states.get("not_a_knife"):  # a slice with it was refused: taken for a knife, it is none
            state.facts.discard(("knife", key))
        for name, fact in STATE_FACTS.items():
            value = inst.states.get(name, assumed(name, inst.object_type))
            if name == "is_dirty" and inst.object_type in history.doubted:  # "Rinse the dirty mug", said again
                value = not (history.has(key, "cleaned") or history.has(key, "rinsed"))  # clean only if washed since
            if name == "is_toggled" and inst.object_type in history.doubted:  # "Turn the stove on", said again
                value = history.has(key, "switched")  # on only if switched on since (TATC 0097)
            if value:
                state.facts.add((fact, key))
        filled = inst.states.get("is_filled")  # None: the Belief cannot tell; the history may
        if filled or (filled is None and (history.has(key, "water") or history.has(key, "coffee"))):
            state.facts.add(("coffee" if history.has(key, "coffee") else "water", key))
        state.facts.update((flag, key) for flag in HISTORY_FLAGS if history.has(key, flag))
        # temperature is not in the Belief: heated in the microwave / cooled in the fridge by the Follower
        state.facts.update((fact, key) for flag, fact in (("heated", "hot"), ("cooled", "cold")) if history.has(key, flag))
        # only what can be picked up lies in a receptacle (AI2-THOR): a coffee machine seen on a
        # counter is not "in" it, so a mug in the machine is not on the counter
        if inst.container is not None and inst.container in memory.instances and key != memory.held \
                and knowledge.has(inst.object_type, "pickupable"):
            state.facts.add(("in", key, inst.container))
    for key in list(state.types):
        if state.types[key] == "Faucet":
            for basin in fed_basins(memory.instances[key], memory.instances):
                state.facts.add(("controls", key, basin.key))
    state.facts.add(("holding", memory.held) if memory.held in state.types else ("handempty",))
    if history.at in state.types:
        state.facts.add(("at", history.at))
    return state
