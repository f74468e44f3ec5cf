"""Binding a goal's roles to objects of the symbolic state, and the PDDL goal's pieces.

``Binder`` gives each role (the mug for the coffee, the plate a salad goes on, the slices)
distinct objects, best candidate first: the one the Commander picked (or the one held), one
that already meets the role's conditions, one the Follower already worked on (filled,
cooked, cleaned...), then one seen in more than one frame (of the movable things the
Mask R-CNN map remembers from one frame at most, 85% lie on no object of their type, of
those seen again 47%: ``nesy bench map --perception maskrcnn --split train``; a hint's
guess, never seen, counts as such a glimpse), then one not shut in a container, then the
nearest. A role without any candidate gets an ``unlocated`` placeholder (searched for),
unless a search already failed to find it: then ``GoalError`` says which object is
missing. ``lit``, ``conj`` and ``disj`` write the goal formula over memory keys
(``CompiledGoal``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from contracts.errors import NesyError
from planner import knowledge
from planner.history import History
from planner.symbolic import SymbolicState


class GoalError(NesyError):
    """The goal cannot be planned for; ``missing`` names an object type that is needed."""

    def __init__(self, message: str, missing: str | None = None) -> None:
        super().__init__(message)
        self.missing = missing


@dataclass
class CompiledGoal:
    formula: str  # a PDDL goal over memory keys
    keys: set[str] = field(default_factory=set)  # objects the goal names
    needs: set[str] = field(default_factory=set)  # capabilities: slice, clean, water, heat, cook, ...
    more: set[str] = field(default_factory=set)  # placeholders of an all-X task for one more X it may find


TRUE = "(and)"  # the empty goal: it holds


def lit(*fact: str) -> str:
    return "(" + " ".join(fact) + ")"


def conj(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else "(and " + " ".join(parts) + ")"


def disj(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else "(or " + " ".join(parts) + ")"


class Binder:
    """Binds roles to distinct objects of the symbolic state."""

    def __init__(self, state: SymbolicState, history: History, preferred: dict[str, str] | None = None) -> None:
        self.state, self.history = state, history
        self.preferred = preferred or {}  # object type -> the instance the Commander picked
        self.used: set[str] = set()
        self.goal = CompiledGoal("")

    def _score(self, key: str, conditions: Callable[[str], list[tuple[str, ...]]]) -> tuple:
        met = 0
        for f in conditions(key):
            negated = f[0] == "not"
            met += ((f[1:] if negated else f) in self.state.facts) != negated
        preferred = self.preferred.get(self.state.types.get(key, "")) == key or key == self.state.held
        # then what the Follower already worked on: "Place two slices of potato on the plate"
        # said after it cooked two means those two, not the raw ones nearer in the sink
        untouched = not self.history.flags.get(key)
        return (not preferred, -met, untouched, not self.state.holds("present", key), key in self.state.glimpsed,
                not self.state.accessible(key), self.state.distance(key), key)

    def take(self, keys: list[str]) -> list[str]:
        """Bind ``keys`` to roles of the goal (no other role gets them)."""
        self.used.update(keys)
        self.goal.keys.update(keys)
        return keys

    def objects(self, kind: Callable[[str], bool], count: int, label: str,
                conditions: Callable[[str], list[tuple[str, ...]]] = lambda k: [],
                exclude: Callable[[str], bool] = lambda k: False) -> list[str]:
        """``count`` distinct objects whose type passes ``kind`` and that are not
        ``exclude``d (placeholders if unknown)."""
        found = [k for k in self.state.present(kind) if k not in self.used and not exclude(k)]
        found.sort(key=lambda k: self._score(k, conditions))
        chosen = found[:count]
        if len(chosen) < count:
            if label in self.history.not_found:
                raise GoalError(f"no {label} to be found: searched everywhere it could be", label)
            chosen += [self.state.add_unlocated(label, i) for i in range(count - len(chosen))]
        return self.take(chosen)

    def pieces(self, piece_type: str, count: int, conditions=lambda k: []) -> list[str]:
        """``count`` pieces of a sliceable type: existing ones first, then placeholders of
        wholes to slice (the nearest wholes; two if one may not give enough)."""
        whole = knowledge.whole_of(piece_type)
        existing = [k for k in self.state.present(lambda t: t == piece_type) if k not in self.used]
        existing.sort(key=lambda k: self._score(k, conditions))
        chosen = existing[:count]
        if len(chosen) < count:
            self.goal.needs.add("slice")
            wholes = [k for k in self.state.present(lambda t: t == whole) if k not in self.used][:2]
            if not wholes:
                if not existing and whole in self.history.not_found:
                    raise GoalError(f"no {whole} to be found: searched everywhere it could be", whole)
                wholes = [self.state.add_unlocated(whole)]
            for w in wholes:
                self.goal.keys.add(w)
                taken = sum(1 for k in self.used if k.startswith(f"{w}~"))  # pieces other roles took
                chosen += [p for p in self.state.add_pieces(w, count + taken) if p not in self.used][: count - len(chosen)]
            if len(chosen) < count:
                raise GoalError(f"the goal needs {count} {piece_type}, only {len(chosen)} can be made", whole)
        return self.take(chosen)

    def receptacles(self, kind: Callable[[str], bool], label: str) -> list[str]:
        """Every receptacle of a kind (any of them will do) seen in more than one frame, else
        the glimpsed ones (a dresser seen once in a kitchen is most likely a phantom); a
        placeholder if none is known."""
        found = [k for k in self.state.present(lambda t: kind(t) and knowledge.has(t, "receptacle"))]
        if not found:
            if label in self.history.not_found:
                raise GoalError(f"no {label} to be found: searched everywhere it could be", label)
            found = [self.state.add_unlocated(label)]
        found = [k for k in found if k not in self.state.glimpsed] or found
        found = found[:6]
        self.goal.keys.update(found)
        return found


def kind_of(name: str) -> Callable[[str], bool]:
    if not knowledge.known_name(name):
        raise GoalError(f"unknown object type or class {name!r}", name)
    return lambda t: knowledge.is_kind(t, name)
