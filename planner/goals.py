"""From a parsed goal (an ALFRED task type + params, a TEACh task + parameters, or one
subgoal given in dialogue) to a PDDL goal over the symbolic state's objects.

Objects that play a role (the mug for the coffee, the plate a salad goes on, the slices)
are bound here, best candidate first: the one the Commander picked (or the one held), one
that already meets the role's conditions, one the Follower already worked on (filled,
cooked, cleaned...), then one not shut in a container, then the nearest; roles never share
an object. A put said in dialogue binds an object not already in the receptacle, and holds
once one more lies there than when it was first planned. Receptacles that any instance of
a kind would do for ("on a CounterTop", ALFRED's parent) stay a disjunction for the planner
to choose. A role without any candidate gets an ``unlocated``
placeholder (searched for), unless a search already failed to find it: then the goal is
impossible and ``GoalError`` says which object is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from contracts.errors import NesyError
from contracts.language import Subgoal, TaskSpec
from contracts.planning import Goal
from contracts.tasks import TEACH_TASKS
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
        return (not preferred, -met, untouched, not self.state.holds("present", key), not self.state.accessible(key),
                self.state.distance(key), key)

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
        """Every receptacle of a kind (any of them will do); a placeholder if none is known."""
        found = [k for k in self.state.present(lambda t: kind(t) and knowledge.has(t, "receptacle"))]
        if not found:
            if label in self.history.not_found:
                raise GoalError(f"no {label} to be found: searched everywhere it could be", label)
            found = [self.state.add_unlocated(label)]
        found = found[:6]
        self.goal.keys.update(found)
        return found


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
        parts = _subgoal(sub, binder, (subgoal_index, sub))
    else:
        raise GoalError("no goal: neither a task nor a subgoal to do")
    binder.goal.formula = conj(parts)
    return binder.goal


# what a task statement may leave out ("Make a salad."): the least it can mean (the planner
# does not use TEACh's relation: on or in, any receptacle of the kind will do)
PARAM_DEFAULTS = {"relation": "in", "N": 1, "lettuce_slices": 1, "tomato_slices": 1, "cooked_potato_slices": 1}


def kind_of(name: str) -> Callable[[str], bool]:
    if not knowledge.known_name(name):
        raise GoalError(f"unknown object type or class {name!r}", name)
    return lambda t: knowledge.is_kind(t, name)


def _count(value, name: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise GoalError(f"task parameter {name} should be a number, got {value!r}") from None


def _clean(b: Binder, kind_name: str, label: str | None = None) -> str:
    b.goal.needs.add("clean")
    (key,) = b.objects(kind_of(kind_name), 1, label or kind_name, lambda k: [("not", "dirty", k)])
    return key


def _served(b: Binder, container: str, items: list[str], parts: list[str]) -> None:
    parts += [lit("not", lit("dirty", container))] + [lit("within", i, container) for i in items]


def _slices(b: Binder, kind: str, n: int, cooked: bool) -> tuple[list[str], list[str]]:
    if cooked:
        b.goal.needs.add("cook")
    cond = (lambda k: [("cooked", k)]) if cooked else (lambda k: [])
    keys = b.pieces(f"{kind}Sliced", n, cond)
    return keys, [lit("cooked", k) for k in keys] if cooked else []


def _dish(b: Binder, container_kind: str, slices: list[tuple[str, int, bool]], toasts: int = 0) -> tuple[str, list[str]]:
    """A clean container holding the given slices (kind, count, cooked) and toast: its key and goal."""
    container = _clean(b, container_kind)
    parts: list[str] = []
    items: list[str] = []
    if toasts:
        b.goal.needs.add("toast")
        toast = b.pieces("BreadSliced", toasts, lambda k: [("cooked", k)])
        items += toast
        parts += [lit("cooked", t) for t in toast]
    for kind, n, cooked in slices:
        if n > 0:
            keys, conds = _slices(b, kind, n, cooked)
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
        keys = _every(b, p["X"], "dirtyable")
        return [lit("not", lit("dirty", k)) for k in keys] or [TRUE]
    if name in ("Put All X On Y", "Put All X In One Y"):
        items = _every(b, p["X"], "pickupable")
        places = b.receptacles(kind_of(p["Y"]), p["Y"])
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


def _every(b: Binder, name: str, prop: str) -> list[str]:
    """Every known object of a type or class with a property; none known and none searched
    for yet: one to find (a Follower that has not seen a mug cannot wash all the mugs)."""
    keys = [k for k in b.state.present(kind_of(name)) if knowledge.has(b.state.types[k], prop)]
    if not keys and name not in b.history.not_found and knowledge.representative(name) not in b.history.not_found:
        keys = [b.state.add_unlocated(name)]
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


def _alfred(task: TaskSpec, b: Binder) -> list[str]:
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


SUBGOAL_FACTS = {"OpenObject": "opened", "ToggleObjectOn": "on", "CleanObject": "dirty", "HeatObject": "hot",
                 "CoolObject": "cold", "FillObject": "water", "PickupObject": "holding", "GotoLocation": "at"}


def _subgoal(sub: Subgoal, b: Binder, key: tuple[int, Subgoal]) -> list[str]:
    """One step said in dialogue ("pick up the mug", "put it in the sink"); ``key`` (its
    index in the goal, and it) keys what it found when first planned (``History.put_baselines``)."""
    if not sub.object:
        raise GoalError(f"the step {sub.action} names no object")
    kind = kind_of(sub.object)
    if sub.action == "SliceObject":
        b.goal.needs.add("slice")
        return [lit("present", p) for p in b.pieces(f"{knowledge.whole_of(sub.object)}Sliced", 1)]
    if sub.action in ("PutObject", "PourObject"):
        if not sub.receptacle:
            raise GoalError(f"the step {sub.action} {sub.object} names no receptacle")
        targets = b.receptacles(kind_of(sub.receptacle), sub.receptacle) if sub.action == "PutObject" else \
            b.objects(kind_of(sub.receptacle), 1, sub.receptacle)
        if sub.action == "PourObject":  # what is poured may have to be filled first (at a basin)
            b.goal.needs.add("water")
        held = b.state.held if b.state.held and kind(b.state.types.get(b.state.held, "")) else None
        # a put asked for holds once one more lies there than when it was first planned ("Place a
        # slice of potato in the bowl." again after one was put there); until then it binds one
        # not there (none other known: one is searched for)
        def there(k: str) -> bool:
            return sub.action == "PutObject" and bool(b.state.containers(k) & set(targets))

        count = sum(map(there, b.state.present(kind)))
        baseline = b.history.put_baselines.setdefault(key, count) if sub.action == "PutObject" else 0
        if count > baseline:
            (obj,) = b.objects(kind, 1, sub.object, exclude=lambda k: not there(k))
        elif held:  # the one in hand is the one to put
            (obj,) = b.take([held])
        else:
            (obj,) = b.objects(kind, 1, sub.object, exclude=there)
        fact = "within" if sub.action == "PutObject" else "water"
        return [disj([lit(fact, obj, r) if fact == "within" else lit(fact, r) for r in targets])]
    needs = {"CleanObject": "clean", "HeatObject": "heat", "CoolObject": "cool", "FillObject": "water"}
    if sub.action in needs:
        b.goal.needs.add(needs[sub.action])
    # a step asks for a change: the instance it is not done to yet ("Rinse the dirty bowl.", not the clean one)
    undone = {"CleanObject": ("dirty",), "HeatObject": ("not", "hot"), "CoolObject": ("not", "cold"),
              "FillObject": ("not", "water"), "ToggleObjectOn": ("not", "on"), "OpenObject": ("not", "opened"),
              "CloseObject": ("opened",), "ToggleObjectOff": ("on",)}.get(sub.action)
    (obj,) = b.objects(kind, 1, sub.object, (lambda k: [(*undone, k)]) if undone else (lambda k: []))
    if sub.action in ("CloseObject", "ToggleObjectOff"):
        return [lit("not", lit("opened" if sub.action == "CloseObject" else "on", obj))]
    if sub.action == "CleanObject":
        return [lit("not", lit("dirty", obj))]
    if sub.action not in SUBGOAL_FACTS:
        raise GoalError(f"unknown subgoal action {sub.action!r}")
    return [lit(SUBGOAL_FACTS[sub.action], obj)]
