"""What the Follower's own actions and the dialogue's hints do to its object memory.

``apply_outcome`` updates the memory after a successful action on the instances the action
was meant for (``LowLevelAction.object_key`` / ``receptacle_key``): picked up (held), put
(into the receptacle, on top of it; what lay in or on a picked-up object travels with it,
``resting_on``), opened / closed, toggled, sliced, poured; and the
appliance effects a Follower knows from AI2-THOR's rules: a faucet turned on cleans what
lies in the sink below it (and what is put there while it runs; what fills is the
planner's history), a microwave, toaster or burner turned on cooks what is in or on it
(and what is put on it while on, or into a pot or pan on it). ``believe_pieces``: the
pieces of a whole just sliced, in a row across its box, believed there (``inferred``)
until detected (Mask R-CNN hardly finds a slice: mask AP 0.00 for most piece types) or
until a pickup clicked there in vain. A put
refused with "Cannot place CreditCard in CoffeeMachine" names what the Follower really
holds, and, refused by a type other than the receptacle believed, what that receptacle is
when its box is no larger than that type's objects (``_is_named``; so too a click on a
believed faucet that AI2-THOR answers with "Toaster|... is already on"); a slice refused
with "Agent must hold a Knife or ButterKnife" says that what it holds is no knife
(``not_a_knife``). ``believed_container`` infers from geometry what an object lies in or on.
Dialogue location hints are ``mapping.hints``.
"""

from __future__ import annotations

import math

import numpy as np

from contracts.belief import ObjectInstance, ObjectMemory
from contracts.planning import ActionOutcome, already_so, refused_placement
from mapping.boxes import forget_into
from mapping.size_prior import MARGIN, fixed_sides, largest_sides

ENCLOSURES = ("Drawer", "Cabinet", "Fridge", "Microwave", "Safe")  # what lies in one is inside its box
ENCLOSURE_FLOOR = 0.05  # metres: a thing put into an enclosure rests this far above its box's bottom ...
SHELVED_HEIGHT = 0.8  # ... unless the box is taller (a fridge: shelves), where it is believed at mid-height
# TEACh and ALFRED names of the interactions -> one verb
_VERBS = {
    "Pickup": "pickup", "PickupObject": "pickup", "Place": "put", "PutObject": "put",
    "Open": "open", "OpenObject": "open", "Close": "close", "CloseObject": "close",
    "ToggleOn": "on", "ToggleObjectOn": "on", "ToggleOff": "off", "ToggleObjectOff": "off",
    "Slice": "slice", "SliceObject": "slice", "Pour": "pour",
}
# a failed verb whose error says the target already is what the verb would make it
_ALREADY = {"open": ("already open", "is_open", True), "close": ("already closed", "is_open", False),
            "on": ("already on", "is_toggled", True), "off": ("already off", "is_toggled", False)}
CLEANERS = ("Faucet",)  # turned on: cleans what is in the sink basin below
BASINS = ("SinkBasin", "Sink")  # a put on a sink's rim lands in its basin
FED = ("SinkBasin", "BathtubBasin")  # what a faucet runs into: the planner's basins (planner.knowledge.BASINS)
TAP_REACH = 1.5  # metres: a faucet feeds the nearest basin within this
COOKERS = ("Microwave", "Toaster", "StoveBurner", "StoveKnob")  # turned on: cooks what is in / on them
VESSELS = ("Pot", "Pan", "Kettle")  # on a lit burner: cooks what is put in them (planner.knowledge.HEATING_VESSELS)
# AI2-THOR's pieces per sliceable type (an egg cracks into one EggCracked)
PIECES = {"Apple": 8, "Bread": 10, "Lettuce": 8, "Potato": 9, "Tomato": 8, "Egg": 1}
PIECE_CONFIDENCE = 0.5  # a piece believed from the Follower's own slicing, not yet seen
# AI2-THOR's refusal of a slice: what the Follower holds is not a knife, whatever it was taken for
NOT_A_KNIFE_ERROR = "must hold a knife or butterknife"
CARRY_HEIGHT = 0.3  # metres above a picked-up object's bottom that what rests on it may reach
CARRY_MARGIN = 0.05  # metres beyond its believed box (a box from depth points is smaller than the plate)


def reached_into(memory: ObjectMemory, outcome: ActionOutcome) -> ObjectInstance | None:
    """The enclosure a successful action reached into (a put into it; a pickup or slice of
    what lies in it), looked up before ``apply_outcome`` moves things: where the Follower
    stood is a side it can reach in from (its ``reached_from``)."""
    verb = _VERBS.get(outcome.action.action)
    if not outcome.success or verb not in ("put", "pickup", "slice"):
        return None
    action = outcome.action
    if verb == "put":
        enclosure = memory.instances.get(action.receptacle_key or action.object_key or "")
    else:
        target = memory.instances.get(action.object_key or "")
        enclosure = memory.instances.get(target.container or "") if target is not None else None
    return enclosure if enclosure is not None and enclosure.object_type in ENCLOSURES else None


def apply_outcome(memory: ObjectMemory, outcome: ActionOutcome) -> None:
    """Update ``memory`` after the Follower's own action (a failed action changes nothing,
    but "... is already open" tells the state of what was clicked)."""
    verb = _VERBS.get(outcome.action.action)
    target = memory.instances.get(outcome.action.object_key or "")
    if not outcome.success and verb in _ALREADY and target is not None and _ALREADY[verb][0] in outcome.error.lower():
        _, state, value = _ALREADY[verb]
        named = already_so(outcome.error)
        if verb in ("on", "off") and named is not None and named != target.object_type:  # a switch met another type
            # a detection of another type is one, when its box is that small (else: a neighbour);
            # a believed one (a faucet inferred behind a basin) was missed (``mapping.fixtures``):
            # renamed, it was inferred again at once, every step (TATC 0216: 30 clicks on a toaster).
            # Not for opens: a drawer and the cabinet beside it are of a size, and "Cabinet|...
            # is already open" for a drawer is most often the neighbour (ALFRED dev 692001)
            detected = target.times_seen > 0 and not target.states.get("inferred")
            target = _is_named(memory, target, named) if detected else None
        if target is not None:
            target.states[state] = value
    if not outcome.success and verb == "open" and target is not None and "while it is on" in outcome.error.lower():
        target.states["is_toggled"] = True  # "Cannot open the Microwave while it is on"
    if not outcome.success and verb == "put":
        _held_is(memory, outcome.error)
        refused = refused_placement(outcome.error)
        receptacle = memory.instances.get(outcome.action.receptacle_key or outcome.action.object_key or "")
        if refused is not None and receptacle is not None and refused[1] != receptacle.object_type:
            _is_named(memory, receptacle, refused[1])
    if not outcome.success and verb == "slice" and NOT_A_KNIFE_ERROR in outcome.error.lower():
        held = memory.instances.get(memory.held or "")
        if held is not None:
            held.states["not_a_knife"] = True  # a detection took it for a knife: the planner stops slicing with it
    if not outcome.success and verb == "pickup" and target is not None and target.states.get("inferred"):
        _unsure_where(memory, target)
    if not outcome.success or verb is None:
        return
    if verb in ("pickup", "slice") and target is not None:
        target.states["handled"] = True  # the Follower's own work is on it (dialogue: no "Which one?" about it)
    if verb == "pickup" and target is not None:
        for item in resting_on(memory, target):
            item.container = target.key  # travels with it (``_put`` lands it along)
        memory.held, target.container = target.key, None
    elif verb == "put":
        _put(memory, memory.instances.get(outcome.action.receptacle_key or outcome.action.object_key or ""))
    elif target is None:
        return
    elif verb in ("open", "close"):
        target.states["is_open"] = verb == "open"
    elif verb in ("on", "off"):
        target.states["is_toggled"] = verb == "on"
        if verb == "on":
            _appliance(memory, target)
    elif verb == "slice":
        target.states["is_sliced"] = True
    elif verb == "pour" and memory.held in memory.instances:
        memory.instances[memory.held].states["is_filled"] = False  # poured out
        poured_into = memory.instances.get(outcome.action.receptacle_key or "")
        if poured_into is not None and poured_into.key != memory.held:
            poured_into.states["is_filled"] = True


def _held_is(memory: ObjectMemory, error: str) -> None:
    """"Cannot place CreditCard in CoffeeMachine" while the Follower believes it holds a mug:
    the pickup's click took a neighbour, and the mug it saw there is not to be trusted. The
    held thing becomes a new instance of the named type and the mistaken one is forgotten."""
    refused = refused_placement(error)
    held = memory.instances.get(memory.held or "")
    if refused is None or held is None or refused[0] == held.object_type:
        return
    del memory.instances[held.key]
    memory.held = memory.add(refused[0], held.position, extent=held.extent, confidence=1.0,
                             last_seen=held.last_seen, times_seen=held.times_seen).key


def _is_named(memory: ObjectMemory, instance: ObjectInstance, named: str) -> ObjectInstance | None:
    """An error names another type than the instance clicked: "Cannot place Cup in Toaster"
    for a put into a believed sink basin (TATC valid_unseen 0264: 19 of its 30 failed actions
    were such puts), "Toaster|... is already on" for a believed faucet (0147: 30 such clicks,
    and the faucet believed on). When the believed box is no larger than the named type's
    largest side plus ``size_prior.MARGIN`` (not a counter whose click hit the toaster standing
    on it), the detector took one for the other: the instance becomes a new one of the named
    type (returned), ``taken_for`` the type it was believed (the mapper fuses sightings of
    that type meeting its box into it), and what lay in it lies in the new one. None: a
    neighbour took the click, and the instance is left as it was."""
    side = fixed_sides().get(named) or largest_sides().get(named)
    if side is None or max(instance.extent) > side + MARGIN:
        return None
    renamed = memory.add(named, instance.position, extent=instance.extent, confidence=1.0,
                         last_seen=instance.last_seen, times_seen=instance.times_seen, container=instance.container)
    renamed.states.update(instance.states, taken_for=instance.object_type)
    forget_into(memory, instance, renamed)
    return renamed


def _put(memory: ObjectMemory, receptacle: ObjectInstance | None) -> None:
    held = memory.instances.get(memory.held or "")
    memory.held = None
    if held is None or receptacle is None:
        return
    held.container = receptacle.key
    move_with_load(memory, held, put_position(receptacle, held.extent[1]))
    held.states.pop("seen_from", None)  # seen elsewhere
    if receptacle.object_type in BASINS and any(f.states.get("is_toggled") for f in memory.of_type("Faucet")
                                                if _nearest([receptacle], f.position, TAP_REACH)):
        _clean([held])  # under a running tap
    elif receptacle.object_type in COOKERS and receptacle.states.get("is_toggled") or _on_lit_burner(memory, receptacle):
        _cook([held], memory)  # onto a lit burner, into a running toaster, into a pan on a lit burner


def move_with_load(memory: ObjectMemory, thing: ObjectInstance, position: tuple[float, float, float]) -> None:
    """Believe ``thing`` at ``position`` and what it carries moved along, as far from it as
    before (each ``inferred``: believed there, unseen, until detected)."""
    shift = np.array(position, dtype=float) - np.array(thing.position, dtype=float)
    thing.position = tuple(float(v) for v in position)
    if not shift.any():
        return
    for item in _inside(memory, thing):
        item.position = tuple(float(v) for v in np.array(item.position) + shift)
        item.states.pop("seen_from", None)
        item.states["inferred"] = True


def put_position(receptacle: ObjectInstance, height: float) -> tuple[float, float, float]:
    """Where a thing ``height`` tall lands when put into or onto ``receptacle``: on top of its
    box, or inside an enclosure, on its floor. Believed on top of FloorPlan10's high microwave,
    a potato slice put in it was clicked for above the microwave, on the cabinet (TATC 0193)."""
    x, y, z = receptacle.position
    half = receptacle.extent[1] / 2
    if receptacle.object_type not in ENCLOSURES:
        return (x, y + half + height / 2, z)
    if receptacle.extent[1] > SHELVED_HEIGHT:
        return (x, y, z)
    return (x, min(y - half + ENCLOSURE_FLOOR + height / 2, y), z)


def _on_lit_burner(memory: ObjectMemory, vessel: ObjectInstance) -> bool:
    """Is ``vessel`` a pot or pan believed on a burner that is on (the planner's ``lit-under``)?
    Without this a slice put into the pan on the lit stove was never believed cooked, and the
    Follower carried it between the pan and the plate for 300 steps (TATC valid_unseen 0252)."""
    burner = memory.instances.get(vessel.container or "")
    return vessel.object_type in VESSELS and burner is not None and burner.object_type == "StoveBurner" \
        and bool(burner.states.get("is_toggled"))


def piece_of(object_type: str) -> str:
    """The type of the pieces slicing ``object_type`` gives (an egg cracks)."""
    return "EggCracked" if object_type == "Egg" else f"{object_type}Sliced"


def believe_pieces(memory: ObjectMemory, whole: ObjectInstance) -> None:
    """The pieces slicing ``whole`` made, in a row along the longer horizontal side of its
    box (AI2-THOR lays them along the object's own axis), each ``inferred``: a skill clicks
    inside its believed box, and a sighting of a piece takes the nearest one's place. For
    the mapper to call when no piece is seen after the slice."""
    count = PIECES.get(whole.object_type)
    if count is None:
        return
    axis = 0 if whole.extent[0] >= whole.extent[2] else 2
    length = whole.extent[axis]
    for k in range(count):
        position, extent = list(whole.position), list(whole.extent)
        position[axis] += (k - (count - 1) / 2) * length / count
        extent[axis] = max(length / count, 0.02)
        piece = memory.add(piece_of(whole.object_type), tuple(position), extent=tuple(extent), confidence=PIECE_CONFIDENCE,
                           container=whole.container)
        piece.states.update(inferred=True, piece_of=whole.key)
        if "is_cooked" in whole.states:
            piece.states["is_cooked"] = whole.states["is_cooked"]


def _unsure_where(memory: ObjectMemory, instance: ObjectInstance) -> None:
    """A pickup clicked where an unseen instance was believed and found nothing there: where
    exactly it lies is not known, so it (and the other pieces of its slicing, believed the
    same way) is clicked only on a detection from now on. Not a piece the Follower carried
    off itself: it is believed where the Follower put it, not in the row (TATC 0218: a missed
    slice in the garbage can made the toasted one put into the high microwave "not seen
    from 3 poses", and the Follower searched for slices to the step limit)."""
    whole = instance.states.get("piece_of")
    for other in memory.instances.values():
        if other is instance or (whole is not None and other.states.get("piece_of") == whole
                                 and not other.states.get("handled")):
            other.states.pop("inferred", None)


def _appliance(memory: ObjectMemory, appliance: ObjectInstance) -> None:
    if appliance.object_type in CLEANERS:  # the basin it feeds, as the planner believes (a sink rim only without one)
        basin = _nearest([i for t in FED for i in memory.of_type(t)], appliance.position, TAP_REACH) \
            or _nearest(memory.of_type("Sink"), appliance.position, TAP_REACH)
        _clean(_contents(memory, basin))
    elif appliance.object_type in COOKERS:
        place = appliance
        if appliance.object_type == "StoveKnob":
            place = _nearest(memory.of_type("StoveBurner"), appliance.position, 1.0)
        _cook(_contents(memory, place), memory)


def _clean(items: list[ObjectInstance]) -> None:
    for item in items:
        item.states["is_dirty"] = False


def _cook(items: list[ObjectInstance], memory: ObjectMemory) -> None:
    for item in items:
        item.states["is_cooked"] = True
        for inner in _contents(memory, item):  # a potato in the pot on the burner
            inner.states["is_cooked"] = True


def resting_on(memory: ObjectMemory, carrier: ObjectInstance) -> list[ObjectInstance]:
    """What picking ``carrier`` up takes along besides what the memory has in it (AI2-THOR
    moves what lies on a plate with the plate): instances at most half its size whose centre
    is over its footprint (plus ``CARRY_MARGIN``), above its centre and at most
    ``CARRY_HEIGHT`` above its bottom, whatever geometry said they lie on (slices cut on a
    plate on a shelf were believed on the shelf, their centres up to 2 cm beyond the plate's
    believed box). A slice picked up from a row of slices takes none along: they lie beside
    it, not on it (without that rule the row went into the microwave with it, in memory)."""
    bottom = carrier.position[1] - carrier.extent[1] / 2
    area = carrier.extent[0] * carrier.extent[2]
    inside = {i.key for i in _inside(memory, carrier)}
    return [i for i in memory.instances.values()
            if i is not carrier and i.key not in inside and i.key != memory.held and i.extent[0] * i.extent[2] <= area / 2
            and rests_on(i, carrier, margin=CARRY_MARGIN) and carrier.position[1] < i.position[1] <= bottom + CARRY_HEIGHT]


def _inside(memory: ObjectMemory, holder: ObjectInstance) -> list[ObjectInstance]:
    """Instances in or on ``holder``, and in or on those (a slice on the bread on a plate)."""
    found: list[ObjectInstance] = []
    frontier = [holder]
    while frontier:
        for item in _contents(memory, frontier.pop()):
            if item is not holder and item not in found:
                found.append(item)
                frontier.append(item)
    return found


def _contents(memory: ObjectMemory, holder: ObjectInstance | None) -> list[ObjectInstance]:
    if holder is None:
        return []
    return [i for i in memory.instances.values() if i.container == holder.key]


def _nearest(candidates: list[ObjectInstance], position, within: float) -> ObjectInstance | None:
    scored = [(math.hypot(c.position[0] - position[0], c.position[2] - position[2]), c) for c in candidates]
    scored = [(d, c) for d, c in scored if d <= within]
    return min(scored, key=lambda pair: pair[0])[1] if scored else None


def believed_container(memory: ObjectMemory, instance: ObjectInstance) -> str | None:
    """The instance it lies in or on: the smallest drawer, cabinet, fridge or microwave (an
    ``ENCLOSURES`` type) whose box holds its centre (a knife on a drawer's bottom lies
    below the drawer's middle), else a larger instance whose horizontal extent contains its
    centre and whose centre is below it (the highest such one), or None."""
    x, y, z = instance.position
    holders = [o for o in memory.instances.values() if o.object_type in ENCLOSURES and o.key != instance.key
               and all(abs(instance.position[i] - o.position[i]) <= o.extent[i] / 2 for i in range(3))]
    if holders:
        return min(holders, key=lambda o: (float(np.prod(o.extent)), o.key)).key
    area = instance.extent[0] * instance.extent[2]
    best, best_y = None, -math.inf
    for other in memory.instances.values():
        if other.key == instance.key or other.key == memory.held:
            continue
        ox, oy, oz = other.position
        if oy >= y or other.extent[0] * other.extent[2] <= area:
            continue
        if abs(x - ox) <= other.extent[0] / 2 and abs(z - oz) <= other.extent[2] / 2 and oy > best_y:
            best, best_y = other.key, oy
    return best


def rests_on(instance: ObjectInstance, receptacle: ObjectInstance, margin: float = 0.15,
             footprint: bool = False) -> bool:
    """Is the instance's centre over the receptacle's horizontal extent (plus ``margin``)?
    With ``footprint``, any part of the instance's own horizontal extent."""
    return all(abs(instance.position[i] - receptacle.position[i])
               <= (receptacle.extent[i] + (instance.extent[i] if footprint else 0.0)) / 2 + margin for i in (0, 2))
