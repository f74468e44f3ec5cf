"""From a parsed goal (an ALFRED task type + params, a TEACh task + parameters, or one
subgoal given in dialogue) to a PDDL goal over the symbolic state's objects.

The tasks' roles (the mug for the coffee, the plate a salad goes on, the slices) are bound
by ``planner.binding.Binder`` (roles never share an object); one step said in dialogue is
compiled by ``planner.step_goals``. Receptacles that any instance of a kind would do for
("on a CounterTop", ALFRED's parent) stay a disjunction for the planner to choose.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from contracts.language import TaskSpec
from contracts.planning import Goal
from contracts.tasks import TEACH_TASKS
from planner import knowledge
from planner.binding import TRUE, Binder, CompiledGoal, GoalError, conj, disj, kind_of, lit
from planner.history import History
from planner.step_goals import step_goal
from planner.symbolic import SymbolicState


def has_task(goal: Goal) -> bool:
    return goal.task is not None and bool(goal.task.teach_task or goal.task.task_type)


def compile_goal(goal: Goal, state: SymbolicState, history: History, subgoal_index: int = 0,
                 use_task: bool = True) -> CompiledGoal:
    """The PDDL goal for ``goal``: its task (unless ``use_task`` is false), else its
    subgoal number ``subgoal_index``."""
    binder = Binder(state, history, dict(getattr(goal, "preferred", ())))
    if use_task and has_task(goal):
        parts = _teach(goal.task, binder) if goal.task.teach_task else _alfred(goal.task, binder)
    elif subgoal_index < len(goal.subgoals):
        sub = goal.subgoals[subgoal_index]
        parts = step_goal(sub, binder, (history.reminders.get(subgoal_index, subgoal_index), sub))
    else:
        raise GoalError("no goal: neither a task nor a subgoal to do")
    binder.goal.formula = conj(parts)
    return binder.goal


# what a task statement may leave out ("Make a salad."): the least it can mean (the planner
# does not use TEACh's relation: on or in, any receptacle of the kind will do)
PARAM_DEFAULTS = {"relation": "in", "N": 1, "lettuce_slices": 1, "tomato_slices": 1, "cooked_potato_slices": 1}


def _count(value, name: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise GoalError(f"task parameter {name} should be a number, got {value!r}") from None


def _clean(b: Binder, kind_name: str, holding: tuple[str, ...] = ()) -> str:
    """A clean container of a kind; with ``holding`` (piece types), the one the Follower put
    most of those pieces into first: the plate it began to fill, not the nearest clean one,
    which changed as it walked (TATC 0241 carried a potato slice from one plate to the other
    and back 15 times). Pieces merely believed in one do not count (phantom slices drew TATC
    0145's slices into a dirty twin of the washed bowl)."""
    b.goal.needs.add("clean")
    pieces = b.state.present(lambda t: t in holding) if holding else []
    (key,) = b.objects(kind_of(kind_name), 1, kind_name,
                       lambda k: [("not", "dirty", k),
                                  *(("in", p, k) for p in pieces if b.history.put_by_follower(p, (k,)))])
    return key


def _served(b: Binder, container: str, items: list[str], parts: list[str]) -> None:
    parts += [lit("not", lit("dirty", container))] + [lit("within", i, container) for i in items]


def _slices(b: Binder, kind: str, n: int, cooked: bool, container: str) -> tuple[list[str], list[str]]:
    """``n`` pieces of ``kind`` for a dish in ``container``: those already in it first."""
    if cooked:
        b.goal.needs.add("cook")
    keys = b.pieces(f"{kind}Sliced", n, lambda k: [("in", k, container), *([("cooked", k)] if cooked else [])])
    return keys, [lit("cooked", k) for k in keys] if cooked else []


def _dish(b: Binder, container_kind: str, slices: list[tuple[str, int, bool]], toasts: int = 0) -> tuple[str, list[str]]:
    """A clean container holding the given slices (kind, count, cooked) and toast: its key and goal."""
    container = _clean(b, container_kind, (("BreadSliced",) if toasts else ())
                       + tuple(f"{kind}Sliced" for kind, n, _ in slices if n > 0))
    parts: list[str] = []
    items: list[str] = []
    if toasts:
        b.goal.needs.add("toast")
        toast = b.pieces("BreadSliced", toasts, lambda k: [("cooked", k), ("in", k, container)])
        items += toast
        parts += [lit("cooked", t) for t in toast]
    for kind, n, cooked in slices:
        if n > 0:
            keys, conds = _slices(b, kind, n, cooked, container)
            items += keys
            parts += conds
    _served(b, container, items, parts)
    return container, parts


def _teach(task: TaskSpec, b: Binder) -> list[str]:
    name = task.teach_task
    if name not in TEACH_TASKS:
        raise GoalError(f"unknown TEACh task {name!r}; known: {', '.join(TEACH_TASKS)}")
    p = {k: v for k, v in PARAM_DEFAULTS.items() if k in TEACH_TASKS[name]}
    p.update((k, v) for k, v in task.teach_params.items() if v not in (None, ""))
    missing = [k for k in TEACH_TASKS[name] if p.get(k) in (None, "")]
    if missing:
        raise GoalError(f"TEACh task {name!r} lacks parameter(s) {', '.join(missing)}")
    if name == "Water Plant":
        b.goal.needs.add("water")
        (plant,) = b.objects(lambda t: t == "HousePlant", 1, "HousePlant", lambda k: [("water", k)])
        return [lit("water", plant)]
    if name == "Coffee":
        return _coffees(b, 1)
    if name == "Clean All X":
        b.goal.needs.add("clean")
        keys = _every(b, p["X"], "dirtyable", lambda k: not b.state.holds("dirty", k))
        return [lit("not", lit("dirty", k)) for k in keys] or [TRUE]
    if name in ("Put All X On Y", "Put All X In One Y"):
        places = b.receptacles(kind_of(p["Y"]), p["Y"])
        items = _every(b, p["X"], "pickupable", lambda k: bool(b.state.containers(k) & set(places)))
        if not items:
            return [TRUE]
        if name == "Put All X On Y":
            return [disj([lit("within", i, r) for r in places]) for i in items]
        return [disj([conj([lit("within", i, r) for i in items]) for r in places])]
    if name == "Boil X":
        b.goal.needs.add("boil")
        (obj,) = b.objects(lambda t: t == p["X"], 1, p["X"], lambda k: [("boiled", k)])
        return [lit("boiled", obj)]
    if name == "Plate Of Toast":
        return _dish(b, "Plate", [], toasts=1)[1]
    if name in ("N Slices Of X In Y", "N Cooked Slices Of X In Y"):
        cooked = name.startswith("N Cooked")
        return _dish(b, p["Y"], [(p["X"], _count(p["N"], "N"), cooked)])[1]
    if name == "Sandwich":
        return _dish(b, "Plate", [("Lettuce", _count(p["lettuce_slices"], "lettuce_slices"), False),
                                  ("Tomato", _count(p["tomato_slices"], "tomato_slices"), False)], toasts=2)[1]
    if name == "Salad":
        return _dish(b, "Plate", _salad(p, "lettuce_slices", "tomato_slices", "cooked_potato_slices"))[1]
    return _breakfast(p, b)


def _every(b: Binder, name: str, prop: str, done: Callable[[str], bool]) -> list[str]:
    """Every known object of a type or class with a property, and, while every one known is
    ``done`` (or none is known) and no search has failed to find one yet, one more to find:
    a Follower that has seen a clean pot does not know the pan in the cabinet is clean, and
    told to wash all the pots and pans it looks on (it stopped at once in 5 of 8 valid_unseen
    Clean All X episodes); the Commander ends the episode once all are done. A search for
    one more (some X seen) gives way to the Commander's steps, and the dialogue manager asks
    what is left rather than where the X is (``CompiledGoal.more``)."""
    keys = [k for k in b.state.present(kind_of(name)) if knowledge.has(b.state.types[k], prop)]
    kind = knowledge.representative(name, prop)
    if name not in b.history.not_found and kind not in b.history.not_found and all(done(k) for k in keys):
        more = bool(keys)  # every X seen is done: the one searched for is only one more
        keys.append(b.state.add_unlocated(kind))
        if more:
            b.goal.more.add(keys[-1])
    b.goal.keys.update(keys)
    return keys


def _salad(p: dict, lettuce: str, tomato: str, potato: str) -> list[tuple[str, int, bool]]:
    return [("Lettuce", _count(p[lettuce], lettuce), False), ("Tomato", _count(p[tomato], tomato), False),
            ("Potato", _count(p[potato], potato), True)]


def _coffees(b: Binder, n: int, anchors: list[str] | None = None) -> list[str]:
    b.goal.needs.update(("coffee", "clean"))
    mugs = b.objects(lambda t: t == "Mug", n, "Mug", lambda k: [("coffee", k), ("not", "dirty", k)])
    if anchors is not None:
        anchors += mugs
    return [part for m in mugs for part in (lit("coffee", m), lit("not", lit("dirty", m)))]


def _breakfast(p: dict, b: Binder) -> list[str]:
    parts: list[str] = []
    anchors: list[str] = []
    parts += _coffees(b, _count(p["coffees"], "coffees"), anchors)
    dishes = [("Plate", [], 1, "toast_plates"),
              (p["potato_container"], [("Potato", 2, True)], 0, "potato_servings"),
              (p["apple_container"], [("Apple", 1, False)], 0, "apple_servings"),
              ("Plate", [("Lettuce", _count(p["sandwich_lettuce"], "sandwich_lettuce"), False),
                         ("Tomato", _count(p["sandwich_tomato"], "sandwich_tomato"), False)], 2, "sandwiches"),
              ("Plate", _salad(p, "salad_lettuce", "salad_tomato", "salad_potato"), 0, "salads")]
    for container_kind, slices, toasts, count_name in dishes:
        for _ in range(_count(p[count_name], count_name)):
            container, dish = _dish(b, container_kind, slices, toasts)
            anchors.append(container)
            parts += dish
    places = b.receptacles(kind_of(p["serving_place"]), p["serving_place"])
    parts += [disj([lit("within", a, r) for r in places]) for a in anchors]
    return parts


def alfred_kind(name: str, sliced: bool = False) -> Callable[[str], bool]:
    """ALFRED matches an object by its id containing the target name (so "Knife" takes a
    ButterKnife, "AppleSliced" the slices of an apple)."""
    wanted = name + "Sliced" if sliced and not name.endswith("Sliced") else name
    return lambda t: wanted in t


def _reading(task: TaskSpec, name: str, b: Binder) -> str:
    """The type a field of ``task`` names: as parsed, unless a search found it nowhere; then
    the parser's next reading (``TaskSpec.alternatives``) that memory holds, else the next not
    yet searched for in vain. Words for furniture are loose: the "desk" of a bedroom that has
    none is its dresser."""
    parsed = getattr(task, name)
    if parsed not in b.history.not_found:
        return parsed
    others = [t for t in task.alternatives.get(name, ()) if t not in b.history.not_found]
    return next((t for t in others if b.state.present(alfred_kind(t))), others[0] if others else parsed)


def _alfred(task: TaskSpec, b: Binder) -> list[str]:
    task = replace(task, **{name: _reading(task, name, b) for name in task.alternatives})
    kind = task.task_type
    obj_name = task.object_target
    if not obj_name:
        raise GoalError(f"ALFRED task {kind!r} without an object target")

    def objects(n: int, conditions=lambda k: []) -> list[str]:
        if task.object_sliced:
            return b.pieces(f"{knowledge.whole_of(obj_name)}Sliced", n, conditions)
        test = alfred_kind(obj_name)
        if len(b.state.present(lambda t: t == obj_name)) >= n:  # "Pot" also matches a Potato: the Pot first
            test = obj_name.__eq__
        return b.objects(lambda t: test(t) and knowledge.has(t, "pickupable"), n, obj_name, conditions)

    def places(name: str) -> list[str]:
        return b.receptacles(alfred_kind(name), name)

    if kind == "look_at_obj_in_light":
        (obj,) = objects(1)
        lamps = b.state.present(alfred_kind(task.toggle_target or "Lamp"))[:4] or [b.state.add_unlocated(task.toggle_target)]
        b.goal.keys.update(lamps)
        return [lit("holding", obj), disj([conj([lit("on", lamp), lit("at", lamp)]) for lamp in lamps])]
    if kind == "pick_two_obj_and_place":
        targets = places(task.parent_target)
        first, second = objects(2, lambda k: [("in", k, r) for r in targets])
        return [disj([conj([lit("in", first, r), lit("in", second, r)]) for r in targets])]
    if kind == "pick_and_place_with_movable_recep":
        (obj,) = objects(1)
        movers = [k for k in b.state.present(alfred_kind(task.mrecep_target)) if knowledge.has(b.state.types[k], "pickupable")][:4]
        if not movers:
            movers = [b.state.add_unlocated(task.mrecep_target)]
        b.goal.keys.update(movers)
        targets = places(task.parent_target)
        return [disj([conj([lit("in", obj, m), disj([lit("in", m, r) for r in targets])]) for m in movers])]
    record = {"pick_clean_then_place_in_recep": ("cleaned", "clean"), "pick_heat_then_place_in_recep": ("heated", "heat"),
              "pick_cool_then_place_in_recep": ("cooled", "cool")}.get(kind)
    if kind != "pick_and_place_simple" and record is None:
        raise GoalError(f"unknown ALFRED task type {kind!r}")
    if record:
        b.goal.needs.add(record[1])
    # an object already in place counts, or the binding flips between two cooled mugs as the
    # Follower walks and the one in the coffee machine is taken out again for the other
    targets = places(task.parent_target)
    (obj,) = objects(1, lambda k: ([(record[0], k)] if record else []) + [("in", k, r) for r in targets])
    parts = [disj([lit("in", obj, r) for r in targets])]
    return parts + ([lit(record[0], obj)] if record else [])
