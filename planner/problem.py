"""A PDDL problem from the symbolic state and a compiled goal.

Only task-relevant objects go into the problem (grounding time grows with the object
count): the goal's objects, what is held, the tools the goal needs (knives to slice, a
basin and its faucet to clean or fill, the microwave, stove burners and pots to heat, cook
or boil, the toaster, the coffee machine, the fridge, containers to carry water), the
containers enclosing any of them (to open), what occupies single-slot appliances and full
receptacles (to clear), and a few nearby surfaces to put things down on. A tool the goal
needs that memory holds no instance of (a Follower that has not seen the sink yet) becomes
an ``unlocated`` placeholder the plan must search for, unless a search already failed to
find one. Object names are ``o<i>`` in PDDL; ``Problem.keys`` maps them back to memory keys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from planner import knowledge
from planner.binding import TRUE, CompiledGoal
from planner.history import History
from planner.symbolic import SymbolicState

TOOLS = {
    "slice": (lambda t: t in knowledge.KNIVES, 2),
    "clean": (lambda t: t in knowledge.BASINS or t == "Faucet", 4),
    "water": (lambda t: t in knowledge.BASINS or t == "Faucet", 4),
    "boil": (lambda t: t in knowledge.BASINS or t in ("Faucet", "StoveBurner", "Pot"), 8),
    "heat": (lambda t: t == "Microwave", 1),
    "cook": (lambda t: t in ("Microwave", "StoveBurner", "Pan"), 6),
    "toast": (lambda t: t == "Toaster", 1),
    "coffee": (lambda t: t == "CoffeeMachine", 1),
    "cool": (lambda t: t == "Fridge", 1),
}
WATER_CARRIERS = ("Cup", "Mug", "Bowl", "Pot", "Kettle", "WateringCan", "Bottle")
# need -> the tools it cannot do without, each as the types that would do (when memory holds
# none of them, the first not searched for in vain yet is searched for); a basin is fed by a faucet
REQUIRED_TOOLS = {
    "slice": (knowledge.KNIVES,),
    "clean": (knowledge.BASINS, ("Faucet",)),
    "water": (knowledge.BASINS, ("Faucet",), WATER_CARRIERS),
    "boil": (knowledge.BASINS, ("Faucet",), ("StoveBurner",), ("Pot",)),
    "heat": (("Microwave",),),
    "cook": (("Microwave", "StoveBurner"),),
    "toast": (("Toaster",),),
    "coffee": (("CoffeeMachine",),),
    "cool": (("Fridge",),),
}
SURFACES = 2  # nearby open surfaces to put things down on
_TOKEN = re.compile(r"[()\s]+|[^()\s]+")
_PLACED = re.compile(r"\((in|within)\s+([^()\s]+)\s+([^()\s]+)\)")
_COOKED = re.compile(r"\(cooked\s+([^()\s]+)\)")


@dataclass(frozen=True)
class Problem:
    text: str
    keys: dict[str, str]  # PDDL name -> memory key
    objects: int
    trivial: bool = False  # the goal is empty: it holds (nothing named is left to do)
    goal_keys: frozenset[str] = frozenset()  # the memory keys the goal names


def locate_tools(state: SymbolicState, goal: CompiledGoal, history: History) -> None:
    """Placeholders for the tools the goal needs and memory does not hold (not for a type
    a search already failed to find: then no plan exists, and the planner says so). A
    faucet that feeds no basin is none (``planner.taps``), and neither is a "knife" a slice
    refused (ALFRED dev 062552: the only knife believed was a spatula, and with no other to
    search for no plan existed)."""
    wanted = {kinds for need in goal.needs for kinds in REQUIRED_TOOLS.get(need, ())}
    for kinds in sorted(wanted):
        unsearched = [k for k in kinds if k not in history.not_found]
        known = [k for k in state.present(lambda t, kinds=kinds: t in kinds)
                 if (kinds != knowledge.KNIVES or state.holds("knife", k))
                 and (kinds != ("Faucet",) or any(f[:2] == ("controls", k) for f in state.facts))]
        if unsearched and not known:
            state.add_unlocated(unsearched[0])
    faucets = state.present(lambda t: t == "Faucet")
    for basin in state.present(lambda t: t in knowledge.BASINS):
        if not any(state.holds("controls", f, basin) for f in faucets):
            for faucet in faucets:  # a faucet not seen yet is above the basin not seen yet, or the one known
                if faucet in state.placeholders or basin in state.placeholders:
                    state.facts.add(("controls", faucet, basin))
                    break


def relevant(state: SymbolicState, goal: CompiledGoal, history: History) -> list[str]:
    locate_tools(state, goal, history)
    keys = set(goal.keys) | ({state.held} if state.held else set())
    for need in goal.needs:
        test, limit = TOOLS.get(need, (None, 0))
        if test is not None:
            # a "knife" a slice refused is none: two such took both places, and the knife
            # searched for was left out of the problem (no plan: TATC 0192 said Stop to the end)
            tools = [k for k in state.present(test) if need != "slice" or state.holds("knife", k)]
            keys.update(tools[:limit])
            # and the nearest of each kind the nearest few leave out: six burners seen (twins
            # among them), two basins and a faucet left no room for the pot, and with no pot
            # no plan could boil the potato (TATC valid_unseen 0098)
            keys.update({state.types[k]: k for k in reversed(tools)}.values())
        if need == "water":
            keys.update(state.present(lambda t: t in WATER_CARRIERS)[:3])
    _surfaces(state, keys)
    for key in list(keys):  # what a piece's whole / a basin's faucet depends on
        keys.update(f[2] for f in state.facts if f[0] == "piece-of" and f[1] == key)
        keys.update(f[1] for f in state.facts if f[0] == "controls" and f[2] == key)
    changed = True
    while changed:  # enclosing containers, and what blocks single-slot or full receptacles
        changed = False
        for key in list(keys):
            parent = state.container(key)
            blocked = key in history.full or state.holds("single", key)
            more = ({parent} if parent else set()) | ({f[1] for f in state.facts if f[0] == "in" and f[2] == key}
                                                     if blocked else set())
            if not more <= keys:
                keys |= more
                changed = True
    return sorted(k for k in keys if k in state.types)


def _surfaces(state: SymbolicState, keys: set[str]) -> None:
    """Open surfaces near the agent where a held object can go down: the nearest
    ``SURFACES``, and for each movable type in the problem the nearest surface that is a
    usual place for it when those are not (two shelves by the fridge take no knife: without
    a counter the knife could not be put down to take the bread slice)."""
    surfaces = state.present(knowledge.open_surface)
    chosen = set(surfaces[:SURFACES])
    for kind in sorted({state.types[k] for k in keys if k in state.types and state.holds("pickupable", k)}):
        if not any(knowledge.usual_place(kind, state.types[s]) for s in chosen):
            chosen.update([s for s in surfaces if knowledge.usual_place(kind, state.types[s])][:1])
    keys.update(chosen)


def sensible(object_type: str, receptacle_type: str, goal_pair: bool) -> bool:
    """May the plan put this object there? Where AI2-THOR allows it, and either the goal
    names both or it is a usual place for such objects (a knife goes on the counter or in
    a drawer when the hand must be emptied, not in the fridge). Nothing the goal does not
    name goes into a container the goal names (the knife is not left on the salad plate),
    and into a movable container the goal names (a plate, a bowl) only what the goal wants
    in it (``placed``): a plate parked on the other plate of a breakfast is then taken
    with it, and a click meant for the lower one picks up the upper."""
    return knowledge.can_put(object_type, receptacle_type) and (
        goal_pair or knowledge.usual_place(object_type, receptacle_type))


def placed(goal: CompiledGoal) -> set[tuple[str, str]]:
    """(object, receptacle) pairs the goal formula wants one in the other (``in``/``within``)."""
    return {(o, r) for _, o, r in _PLACED.findall(goal.formula)}


def _goal_pair(o: str, r: str, goal: CompiledGoal, state: SymbolicState, wanted: set[tuple[str, str]]) -> bool:
    if o not in goal.keys or r not in goal.keys:
        return False
    return not state.holds("pickupable", r) or (o, r) in wanted


def _serving_order(state: SymbolicState, goal: CompiledGoal, wanted: set[tuple[str, str]],
                   names: dict[str, str]) -> list[str]:
    """A bread slice the goal wants toasted on a dish goes there toasted, and its loaf not at
    all (``toast-first``): a sandwich's plan put the loaf on the plate to slice it there
    (TATC 0216), or the raw slices, to fetch them again for the toaster. Tried and not kept
    (stop 96): a dish taking nothing while dirty, or in the sink, and nothing loaded going into
    a basin. Dishes are assumed dirty until seen washed, and a plan that serves first and
    washes after is often ended by the Commander before the wash, the dish being clean:
    washing first lost N Slices 0144 (the plate not seen from three poses to pick it up), Plate
    Of Toast 0120 and N Cooked Slices 0192 on the first four per type."""
    toasts = {o for o in _COOKED.findall(goal.formula) if o in names and state.holds("breadslice", o)}
    loaves = {w for p, w in (f[1:] for f in state.facts if f[0] == "piece-of") if p in toasts}
    served = {r for _, r in wanted if r in names and state.holds("pickupable", r)}
    return [f"(toast-first {names[o]} {names[r]})" for o in sorted((toasts | loaves) & names.keys())
            for r in sorted(served)]


def build_problem(state: SymbolicState, goal: CompiledGoal, history: History,
                  preferred: dict[str, str] | None = None) -> Problem:
    keys = relevant(state, goal, history)
    for kind, key in (preferred or {}).items():  # the Commander picked this one: leave its twins out
        if key in keys:
            keys = [k for k in keys if k == key or k in goal.keys or state.types[k] != kind or k == state.held]
    names = {key: f"o{i}" for i, key in enumerate(keys)}
    chosen = set(keys)
    init = []
    for fact in sorted(state.facts):
        args = fact[1:]
        if all(a in chosen for a in args):
            init.append("(" + " ".join((fact[0], *(names[a] for a in args))) + ")")
    for key in keys:  # a receptacle a put found full takes one thing at a time (a one-slot one has the fact)
        if key in history.full and not state.holds("single", key):
            init.append(f"(single {names[key]})")
    pickups = [k for k in keys if state.holds("pickupable", k)]
    receptacles = [k for k in keys if state.holds("receptacle", k)]
    wanted = placed(goal)
    # what occupies a single-slot or full receptacle may go anywhere AI2-THOR allows (a paper
    # towel roll in the coffee machine has no usual place among the problem's surfaces)
    blockers = {f[1] for f in state.facts if f[0] == "in" and f[2] in chosen
                and (state.holds("single", f[2]) or f[2] in history.full)}
    init += [f"(can-put {names[o]} {names[r]})" for o in pickups for r in receptacles
             if o != r and sensible(state.types[o], state.types[r],
                                    o in blockers or _goal_pair(o, r, goal, state, wanted))
             and not (r in goal.keys and o not in goal.keys and state.holds("pickupable", r))]
    init += _serving_order(state, goal, wanted, names)
    formula = "".join(names.get(tok, tok) for tok in _TOKEN.findall(goal.formula))
    text = (f"(define (problem task) (:domain household)\n (:objects {' '.join(names.values())})\n"
            f" (:init {' '.join(init)})\n (:goal {formula}))\n")
    return Problem(text, {name: key for key, name in names.items()}, len(keys), goal.formula == TRUE,
                   frozenset(goal.keys))
