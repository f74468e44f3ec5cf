"""From an ``Analysis`` to meaning: subgoals of a step instruction, TEACh task statements,
location hints and ALFRED goal specs (the rule-based interpretation, no learning).
"""

from __future__ import annotations

from collections.abc import Sequence

from contracts.language import ALL, LocationHint, Subgoal, TaskSpec
from contracts.tasks import covering_class
from dialogue import lexicon as lx
from dialogue.analysis import Analysis, Mention

_ACTIONS = {"clean": "CleanObject", "heat": "HeatObject", "cool": "CoolObject", "slice": "SliceObject",
            "pickup": "PickupObject", "put": "PutObject", "open": "OpenObject", "close": "CloseObject",
            "fill": "FillObject", "pour": "PourObject", "goto": "GotoLocation"}
_ONE = ("one", "single", "same")  # "in one drawer", "in a single box": TEACh's Put All X In One Y


def object_type(m: Mention) -> str:
    sliced = "sliced" in m.states and m.type in lx.SLICEABLE
    return m.type + "Sliced" if sliced else m.type


def _count(m: Mention) -> int:
    return m.count if m.count is not None else 1


def clauses(a: Analysis) -> list[tuple[int, str, list[Mention]]]:
    """(verb index, predicate, mentions up to the next predicate); leading mentions -> first."""
    preds = a.predicates
    out = []
    for k, (i, pred) in enumerate(preds):
        end = preds[k + 1][0] if k + 1 < len(preds) else len(a.words)
        start = i if k else 0
        out.append((i, pred, [m for m in a.mentions if start <= m.start < end and not m.anchored]))
    return out


def subgoals(a: Analysis, last_target: str | None = None) -> list[Subgoal]:
    """The subgoals of an imperative sentence, in order."""
    out: list[Subgoal] = []
    previous = last_target
    for i, pred, mentions in clauses(a):
        things = [m for m in mentions if m.relation in (None, "with")]
        places = [m for m in mentions if m.is_place]
        sources = [m for m in mentions if m.relation == "from"]
        obj = things[0] if things else None
        obj_t = object_type(obj) if obj else previous
        attrs = tuple(obj.attributes) if obj else ()
        count = _count(obj) if obj else 1
        place = places[-1].type if places else None
        first = mentions[0] if mentions else None
        if pred in ("toggle", "goto", "open", "close"):
            if pred == "goto":
                first = obj or (places[0] if places else None)
            if first is not None:
                action = {"goto": "GotoLocation", "open": "OpenObject", "close": "CloseObject"}.get(pred)
                action = action or ("ToggleObjectOn" if a.particles.get(i) == "on" else "ToggleObjectOff")
                out.append(Subgoal(action, first.type, None, 1, tuple(first.attributes)))
            continue
        if pred == "examine":
            lamps = [m for m in mentions if m.type in lx.LAMPS]
            if lamps:
                out.append(Subgoal("ToggleObjectOn", lamps[0].type))
            elif obj:
                out.append(Subgoal("GotoLocation", obj.type, None, 1, attrs))
            continue
        if pred in ("water",):
            target = obj or (places[0] if places else None)
            out.append(Subgoal("PourObject", None, target.type if target else "HousePlant"))
            continue
        if pred not in _ACTIONS or obj_t is None:
            continue
        if pred == "pickup":
            place = sources[0].type if sources else None
        if pred == "heat" and place is None and a.words[i] == "microwave":
            place = "Microwave"
        if pred == "slice" and obj is not None:
            obj_t = obj.type
        out.append(Subgoal(_ACTIONS[pred], obj_t, place, count, attrs))
        previous = obj_t
    return out


def teach_task(a: Analysis, task_known: bool) -> TaskSpec | None:
    """A TEACh task statement ("Make a coffee.", "Clean all the plates.", ...), or None."""
    text = " ".join(a.words)
    preds = {p for _, p in a.predicates}
    types = [m.type for m in a.mentions]
    if ("water" in preds or "water" in a.words and "pour" in preds) and "HousePlant" in types:
        return TaskSpec(teach_task="Water Plant")
    if "coffee" in a.words and not a.mentions or "coffee" in a.words and set(types) <= {"Mug", "Cup"} and "make" in preds:
        return TaskSpec(teach_task="Coffee")
    if "plate of toast" in text or "toast on a plate" in text:
        return TaskSpec(teach_task="Plate Of Toast")
    for dish in ("sandwich", "salad", "breakfast"):
        if dish in a.words and ("make" in preds or "like" in a.words or "want" in a.words):
            return TaskSpec(teach_task=dish.capitalize())
    if "boil" in a.words and a.mentions and a.mentions[0].type in lx.SLICEABLE:
        return TaskSpec(teach_task="Boil X", teach_params={"X": a.mentions[0].type})
    things = [m for m in a.mentions if m.relation is None]
    places = [m for m in a.mentions if m.is_place]
    if things and things[0].count == ALL:  # "all the butter knives, spoons and forks": the class they make
        end = places[-1].start if places else len(a.words)
        x = covering_class([things[0].type] + [m.type for m in things[1:] if m.count is None and m.start < end])
        if "clean" in preds:
            return TaskSpec(teach_task="Clean All X", teach_params={"X": x})
        if places and places[-1].start > 0 and a.words[places[-1].start - 1] in _ONE:
            return TaskSpec(teach_task="Put All X In One Y", teach_params={"X": x, "Y": places[-1].type})
        if "put" in preds and places:
            return TaskSpec(teach_task="Put All X On Y", teach_params={"X": x, "Y": places[-1].type})
    if not task_known and things and places and "sliced" in things[0].states and (things[0].count or 0) >= 1 \
            and things[0].type in lx.SLICEABLE and "put" in preds and len(a.predicates) == 1:
        name = "N Cooked Slices Of X In Y" if "heat" in things[0].states else "N Slices Of X In Y"
        return TaskSpec(teach_task=name, teach_params={"N": _count(things[0]), "X": things[0].type, "Y": places[-1].type})
    return None


def location_hint(a: Analysis, last_target: str | None = None) -> LocationHint | None:
    """"The knife is in the drawer left of the stove." / "It's on the counter behind you."."""
    if a.predicates and a.predicates[0][1] not in ("goto",) and not a.has("is", "are", "'s"):
        return None
    if not a.has("is", "are", "'s", "it", "they"):
        return None
    things = [m for m in a.mentions if m.relation is None and not m.anchored]
    places = [m for m in a.mentions if m.is_place and not m.anchored]
    if not places:
        return None
    obj = object_type(things[0]) if things else last_target
    place = places[0]
    direction = anchor = None
    for i, d, anc in a.directions:
        if i > place.start:
            direction, anchor = d, anc
            break
    return LocationHint(obj, place.relation or "in", place.type, direction, anchor, place.level)


def goal_spec(goal: Analysis, steps: Sequence[Analysis] = ()) -> TaskSpec:
    """The ALFRED task spec of a goal sentence (step instructions fill what it leaves out)."""
    step_goals = [sg for s in steps for sg in subgoals(s)]
    states = goal.states()
    step_actions = {sg.action for sg in step_goals}
    lamps = [m for m in goal.mentions if m.type in lx.LAMPS]
    step_lamps = [sg.object for sg in step_goals if sg.action == "ToggleObjectOn" and sg.object in lx.LAMPS]
    appliance = {"clean": "SinkBasin", "heat": "Microwave", "cool": "Fridge"}
    kinds = [k for k in ("clean", "heat", "cool") if k in states]
    if not kinds:
        kinds = [k for k, act in (("clean", "CleanObject"), ("heat", "HeatObject"), ("cool", "CoolObject")) if act in step_actions]
    if not kinds:
        kinds = _appliance_round_trip(step_goals)
    goal_places = [m.type for m in goal.mentions if m.is_place]
    if not kinds and len(goal_places) >= 2 and goal_places[0] in ("Fridge", "Microwave") and goal_places[-1] != goal_places[0]:
        kinds = ["cool" if goal_places[0] == "Fridge" else "heat"]  # "into the fridge and then onto the counter"
    things = [m for m in goal.mentions if m.relation in (None, "from", "with") and m.type not in lx.LAMPS]
    places = [m for m in goal.mentions if m.is_place and m.type not in lx.LAMPS]
    if len(places) > 1 and places[-1].relation in ("under", "near"):
        places = places[:-1]  # "in the cabinet under the sink", "on the counter next to the toaster"
    spec = TaskSpec()
    spec.object_sliced = "sliced" in states or "slice" in states or (
        "SliceObject" in step_actions and any(m.type in lx.SLICEABLE for m in things))
    if lamps or (step_lamps and not places):
        spec.task_type = "look_at_obj_in_light"
        spec.toggle_target = _lamp_type(goal, steps)
        portable = [m for m in things + places if m.type not in lx.FURNITURE]
        spec.object_target = portable[0].type if portable else _first_pickup(step_goals)
        return spec
    if kinds:
        spec.task_type = f"pick_{kinds[0]}_then_place_in_recep"
        places = [m for m in places if m.type != appliance[kinds[0]]] or places
    obj = things[0] if things else None
    if obj and obj.type in lx.MOVABLE_RECEPTACLES and len(things) > 1 and things[1].relation == "with":
        spec.mrecep_target, obj = obj.type, things[1]
    if obj is None and len(places) >= 2 and places[0].type in lx.MOVABLE_RECEPTACLES:
        spec.mrecep_target = places[0].type
    elif obj is not None and len(places) >= 2 and places[0].type in lx.MOVABLE_RECEPTACLES \
            and places[0].relation == "in" and places[-1].type not in lx.MOVABLE_RECEPTACLES:
        spec.mrecep_target = places[0].type
    if obj and not spec.mrecep_target and len(things) > 1 and things[1].relation is None:
        pair = [t for t in things[:2] if t.type in lx.MOVABLE_RECEPTACLES]  # "a plate and a candle"
        if len(pair) == 1:
            spec.mrecep_target = pair[0].type
            obj = things[1] if pair[0] is things[0] else things[0]
    if not spec.mrecep_target and not kinds:
        spec.mrecep_target = _carried_container(step_goals)
    spec.object_target = obj.type if obj else _first_pickup(step_goals)
    if spec.object_target == "Knife" and spec.object_sliced and len(things) > 1:
        spec.object_target = things[1].type
    if places:
        spec.parent_target = places[-1].type
    else:
        puts = [sg.receptacle for sg in step_goals if sg.action == "PutObject" and sg.receptacle]
        spec.parent_target = puts[-1] if puts else ""
    if spec.parent_target == "Chair":
        spec.parent_target = "ArmChair"  # ALFRED's only chair-like receptacle
    if spec.parent_target == spec.mrecep_target:
        spec.mrecep_target = ""
    if not spec.task_type:
        two = obj is not None and (obj.plural or (obj.count or 0) >= 2)
        if spec.mrecep_target:
            spec.task_type = "pick_and_place_with_movable_recep"
        elif two:
            spec.task_type = "pick_two_obj_and_place"
        else:
            spec.task_type = "pick_and_place_simple"
    return spec


def _lamp_type(goal: Analysis, steps: Sequence[Analysis]) -> str:
    """Desk or floor lamp: an explicit floor lamp, or a lamp in a corner / by a couch."""
    for a in (goal, *steps):
        for m in a.mentions:
            if m.type == "FloorLamp":
                return "FloorLamp"
    for a in (goal, *steps):
        lamp = next((m for m in a.mentions if m.type in lx.LAMPS), None)
        if lamp is None:
            continue
        after = [m for m in a.mentions if m.start > lamp.start and m.is_place or m.anchored]
        if after and after[0].type in lx.FURNITURE - {"Sofa", "ArmChair", "Bed", "Chair"}:
            return "DeskLamp"
        if after or "corner" in a.words[lamp.end:] or "floor" in a.words:
            return "FloorLamp"
    return "DeskLamp"


def _appliance_round_trip(step_goals: list[Subgoal]) -> list[str]:
    """Steps that put the object into the fridge/microwave (or sink) and take it out again."""
    for k, sg in enumerate(step_goals):
        kind = {"Fridge": "cool", "Microwave": "heat", "SinkBasin": "clean"}.get(sg.receptacle or "")
        if sg.action == "PutObject" and kind and any(later.action == "PickupObject" for later in step_goals[k + 1:]):
            return [kind]
    return []


def _carried_container(step_goals: list[Subgoal]) -> str:
    """Steps that put the object into a movable receptacle and then pick that receptacle up."""
    for k, sg in enumerate(step_goals):
        if sg.action == "PutObject" and sg.receptacle in lx.MOVABLE_RECEPTACLES:
            if any(later.action == "PickupObject" and later.object == sg.receptacle for later in step_goals[k + 1:]):
                return sg.receptacle or ""
    return ""


def _first_pickup(step_goals: list[Subgoal]) -> str:
    for sg in step_goals:
        if sg.action == "PickupObject" and sg.object and sg.object not in ("Knife", "ButterKnife"):
            return sg.object.removesuffix("Sliced")
    return ""
