"""What the Follower knows from its own actions, beyond what the Belief says.

A camera does not show that a mug holds water or coffee, that a potato was boiled, or which
of ALFRED's records (cleaned, heated, cooled) an object has: they follow from the
actions the Follower took and where things were at the time. ``History.record`` applies
AI2-THOR's appliance rules to each successful action against the Belief of that moment.
It also remembers what failed: instances that were not where believed (left out of plans
after ``MISSING_LIMIT`` misses, at once when clicks found nothing to act on or no goal pose
showed it, or after ``MISCLICK_LIMIT`` clicks that acted on a neighbour instead),
receptacles a put into failed although open (treated as full: cleared before the next
put), types a search did not find, where clicks found nothing to act on (a new instance
of the type met there is that phantom again, ``SAME_PHANTOM``), instances the Commander
asked to have washed or heated again after each of ``REDONE_LIMIT`` times (not the thing meant),
and receptacles the Commander asked for a put onto again after each of ``REPUT_LIMIT`` puts
there (``_doubt_puts``: not the receptacle meant).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from contracts.belief import Belief, ObjectInstance, instance_type
from contracts.language import Subgoal
from contracts.planning import LowLevelAction
from planner import knowledge
from planner.taps import fed_basins, feeding_faucets

MISSING_LIMIT = 2
MISCLICK_LIMIT = 4  # clicks that acted on a neighbour before an instance is left out like a missing one
IN_VAIN_LIMIT = 2  # skills whose clicks found nothing to act on before an instance stays out though retold
# times the Commander said a wash (or heat) step again after the Follower had washed (heated)
# an instance before that instance is no longer taken for what is meant (TATC valid_unseen
# 0049: a thing in the sink taken for the bowl, washed again at each of 30 "Wash the dirty
# bowl" while the Commander pointed at the cabinet the bowl was in; 0217: a "bread slice"
# in the toaster's slots toasted again at each of 215 "Toast the bread slice" while the
# Commander pointed at the sink the slices were in)
REDONE_LIMIT = 2
# times the Commander said a put step again after the Follower had put a thing of its kind
# onto a receptacle before that receptacle is no longer taken for the one meant (TATC
# valid_unseen 0145: a pile of potato slices detected as a bowl took 46 puts meant for the
# bowl in the sink while the Commander said "Put a slice of potato in the bowl." 8 times)
REPUT_LIMIT = 2
WASHED = frozenset({"cleaned", "rinsed"})
REDONE = WASHED | {"heated"}  # what a step said again after the Follower did it counts against
MOVED = 0.25  # metres: a missing instance seen this far from where it was believed when given up is tried again
# metres: a new instance of a type this near where clicks found nothing to act on is that
# phantom again (TATC valid_unseen 0265: 17 pickups of a "knife" in the toaster's slots,
# each re-detection a new instance)
SAME_PHANTOM = 0.2
# times an instance may be left out as missing where it is believed (no goal pose showed it, no
# pose reached it) before the Commander's retelling of its type no longer brings it back, unless
# nothing can be planned without it (``release_kept_out``; a sighting elsewhere, or a hint that
# moves it or places it there again, still does): TATC valid_unseen 0122 walked back to a bread
# slice in the toaster's slots the detector does not see 9 times; 0120 to a faucet behind a wall
GIVEN_UP_LIMIT = 2
ACTION_OPS = {
    "Pickup": "pickup", "PickupObject": "pickup", "Place": "put", "PutObject": "put", "Open": "open",
    "OpenObject": "open", "Close": "close", "CloseObject": "close", "ToggleOn": "toggle_on",
    "ToggleObjectOn": "toggle_on", "ToggleOff": "toggle_off", "ToggleObjectOff": "toggle_off",
    "Slice": "slice", "SliceObject": "slice", "Pour": "pour",
}


@dataclass
class History:
    """Flags per memory key (``water``, ``coffee``, ``boiled``, ``cleaned``, ``rinsed``,
    ``heated``, ``cooled``) and what went wrong."""

    flags: dict[str, set[str]] = field(default_factory=dict)
    missing: Counter = field(default_factory=Counter)
    missing_at: dict[str, tuple[float, float, float]] = field(default_factory=dict)  # where believed when given up
    given_up: Counter = field(default_factory=Counter)  # instance key -> times left out as missing where believed
    kept_out: set[str] = field(default_factory=set)  # of those given up ``GIVEN_UP_LIMIT`` times, kept out though retold
    # of those left out ``GIVEN_UP_LIMIT`` times, the Commander's hints that had placed them where
    # believed (the mapper's ``hint_confirmed``) when they were: one more frees them once
    confirmed: dict[str, int] = field(default_factory=dict)
    full: set[str] = field(default_factory=set)
    not_found: set[str] = field(default_factory=set)
    retold: set[str] = field(default_factory=set)  # of not_found, spoken of again: searched for afresh, everywhere
    misclicks: Counter = field(default_factory=Counter)  # target key -> clicks that acted on a neighbour
    clicked_in_vain: Counter = field(default_factory=Counter)  # target key -> skills whose clicks found nothing
    avoid: dict[str, list[tuple[float, float]]] = field(default_factory=dict)  # target key -> those clicks
    # (type, where believed, skills in vain) of those instances when given up: what is met there again is them
    in_vain_at: list[tuple[str, tuple[float, float, float], int]] = field(default_factory=list)
    met: set[str] = field(default_factory=set)  # instance keys seen by ``seen_elsewhere``
    # types a state step was said again for: dirty until washed, off until switched on, since
    doubted: set[str] = field(default_factory=set)
    redone: Counter = field(default_factory=Counter)  # instance key -> wash / heat steps said again after it was
    reput: Counter = field(default_factory=Counter)  # receptacle key -> put steps said again after puts onto it
    actions: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    at: str | None = None  # the instance the last walk (GotoLocation) reached, until another skill moves on
    ending: bool = False  # the task held and the walks after it are followed: they say where to end
    # (index, subgoal) of a put said in dialogue -> how many of its kind the Belief had there
    # when it was first planned: it asks for one more than that
    put_baselines: dict[tuple[int, object], int] = field(default_factory=dict)
    # of those, puts into a one-slot receptacle first planned while nothing there was the
    # Follower's own put (the Belief alone held them done): they hold with one it puts there
    doubted_puts: set[tuple[int, object]] = field(default_factory=set)
    # dialogue step index -> the earlier index of the same put it repeats, said again before
    # the Follower had done that one (a reminder: it shares that put's baseline, ``remind``)
    reminders: dict[int, int] = field(default_factory=dict)
    # dialogue step index -> how many actions the Follower had taken when it was said: the
    # puts since are the ones it did after hearing it (``_doubt_puts``)
    heard_at: dict[int, int] = field(default_factory=dict)
    # whole type -> how many wholes of it the Belief held sliced when a slice step was said
    # again while the Follower believed it done (None until the next slice step is planned):
    # slice steps of that type then hold only once more are sliced
    sliced_floor: dict[str, int | None] = field(default_factory=dict)

    def remind(self, steps: Sequence[Subgoal], known: int, first_pending: int, carried_out: int | None) -> None:
        """The dialogue steps from ``known`` on are new: a put among them that repeats one not
        done yet (at or after ``first_pending``, not ``carried_out``) is a reminder of it from
        a Commander who saw it not done, not a put of one more (TATC 0264: "Place the mug in
        the coffee machine." said again before the Follower had fetched the mug asked for a
        second mug in the one-mug coffee machine; it swapped mugs in and out for 600 steps).
        Said again once that put is done, it asks for one more ("Put two slices of potato on
        the plate." until the second is there). Either way the puts the Follower did since it
        was said last did not do (``_doubt_puts``)."""
        def done(j: int) -> bool:  # a reminder is done with the put it repeats
            first = self.reminders.get(j, j)
            return first < first_pending or first == carried_out

        for i in range(known, len(steps)):
            self.heard_at[i] = len(self.actions)
            if steps[i].action != "PutObject":
                continue
            earlier = [j for j in range(i) if steps[j] == steps[i]]
            if earlier:
                self._doubt_puts(steps[i], self.heard_at.get(earlier[-1], 0))
            repeated = next((j for j in earlier if not done(j)), None)
            if repeated is not None:
                self.reminders[i] = self.reminders.get(repeated, repeated)

    def _doubt_puts(self, step: Subgoal, since: int) -> None:
        """The put ``step`` said again: the receptacles of its kind that the Follower put a
        thing of its kind onto since it was said last (the ``since``-th action on) did not
        do (the Commander saw no such put). After ``REPUT_LIMIT`` such steps one is not the
        receptacle meant (a phantom, or one the clicks miss) and is left out (``gone``)."""
        def of(name: str | None) -> Callable[[str], bool]:
            return lambda key: bool(name) and knowledge.is_kind(instance_type(key), name)

        item_kind, receptacle_kind = of(step.object), of(step.receptacle)
        onto = {target for op, item, target in self.actions[since:]
                if op == "put" and item and target and item_kind(item) and receptacle_kind(target)}
        for target in onto:
            self.reput[target] += 1

    def put_by_follower(self, key: str, receptacles: Sequence[str]) -> bool:
        """Has the Follower put ``key`` into one of ``receptacles`` itself?"""
        return any(op == "put" and item == key and target in receptacles for op, item, target in self.actions)

    def has(self, key: str, flag: str) -> bool:
        return flag in self.flags.get(key, ())

    def _set(self, key: str, flag: str, on: bool = True) -> None:
        if on:
            self.flags.setdefault(key, set()).add(flag)
        else:
            self.flags.get(key, set()).discard(flag)

    def emptied(self, key: str | None) -> None:
        """A pour from ``key`` found nothing in it: whatever filled it did not (a faucet
        click that missed), so it is to be filled again."""
        if key is not None:
            self._set(key, "water", False)
            self._set(key, "coffee", False)

    def acted_on(self, key: str) -> bool:
        """Has an interaction of the Follower's acted on ``key`` (as the object or the target)?"""
        return any(not op.endswith("?") and key in (item, target) for op, item, target in self.actions)

    def phantom(self, key: str) -> bool:
        """Did clicks from ``IN_VAIN_LIMIT`` skills find nothing to act on in ``key``'s mask?
        Then neither a retelling nor a move of its believed position brings it back."""
        return self.clicked_in_vain[key] >= IN_VAIN_LIMIT

    def gone(self, key: str) -> bool:
        return self.missing[key] >= MISSING_LIMIT or self.redone[key] >= REDONE_LIMIT \
            or self.reput[key] >= REPUT_LIMIT

    def record(self, action: LowLevelAction, belief: Belief, hit_other: bool = False) -> None:
        """A successful interaction ``action`` taken when the Belief was ``belief`` (on
        another object than meant when ``hit_other``: only logged, its effects unknown)."""
        op = ACTION_OPS.get(action.action)
        if op is None:
            return
        if hit_other:
            self.actions.append((op + "?", action.object_key, None))
            return
        target = action.receptacle_key if op in ("put", "pour") else action.object_key
        self.actions.append((op, action.object_key, target))
        self.missing.pop(target, None)
        self.given_up.pop(target, None)
        memory = belief.memory.instances
        inst = memory.get(target) if target else None
        if inst is None:
            return
        inside = [i for i in memory.values() if i.container == inst.key]
        if op in ("toggle_on", "toggle_off"):
            self.switched(inst.key, op == "toggle_on")
        if op == "toggle_on":
            self._switched_on(inst, inside, memory)
        elif op == "close" and inst.object_type == "Fridge":
            for item in inside:
                self._set(item.key, "cooled")
        elif op == "put" and action.object_key:
            self._placed(action.object_key, inst, memory)
            self.full.discard(inst.key)
        elif op == "pour" and action.object_key:
            self._set(action.object_key, "water", False)  # poured out (its target's water: the Belief's)
            self._set(action.object_key, "coffee", False)

    def switched(self, key: str, on: bool) -> None:
        """The Follower switched ``key`` on or off (or was told it already was): what a switch
        step said again leaves believed on (``doubted``)."""
        self._set(key, "switched", on)

    def _switched_on(self, inst: ObjectInstance, inside: list[ObjectInstance],
                     memory: dict[str, ObjectInstance]) -> None:
        kind = inst.object_type
        if kind == "Faucet":
            for basin in fed_basins(inst, memory):
                for item in (i for i in memory.values() if i.container == basin.key):
                    self._set(item.key, "cleaned")
                    self._filled(item, "water")
        elif kind in ("Microwave", "Toaster") and not inst.states.get("is_open"):
            for item in inside:  # toasted too: hot, as the domain's toast says (not only the Belief's "cooked")
                self._set(item.key, "heated")
        elif kind == "CoffeeMachine":
            for item in inside:
                self._filled(item, "coffee")
        elif kind in ("StoveBurner", "StoveKnob"):
            burners = [inst] if kind == "StoveBurner" else [b for b in memory.values() if b.object_type == "StoveBurner"]
            for burner in burners:
                for vessel in (i for i in memory.values() if i.container == burner.key):
                    self._boil_in(vessel, memory)

    def _placed(self, key: str, receptacle: ObjectInstance, memory: dict[str, ObjectInstance]) -> None:
        item = memory.get(key)
        kind = receptacle.object_type
        if kind == "CoffeeMachine" and receptacle.states.get("is_toggled") and item is not None:
            self._filled(item, "coffee")
        elif kind in knowledge.BASINS and item is not None \
                and any(f.states.get("is_toggled") for f in feeding_faucets(receptacle, memory)):
            self._set(item.key, "rinsed")  # clean, though not in ALFRED's record ("cleaned": the tap turned on over it)
            self._filled(item, "water")
        elif kind == "Toaster" and receptacle.states.get("is_toggled") and item is not None:
            self._set(item.key, "heated")
        elif kind == "StoveBurner" and receptacle.states.get("is_toggled") and item is not None:
            self._boil_in(item, memory, extra=())
        elif kind == "Pot" and receptacle.container in memory and item is not None:
            burner = memory[receptacle.container]
            if burner.object_type == "StoveBurner" and burner.states.get("is_toggled"):
                self._boil_in(receptacle, memory, extra=(item,))

    def _filled(self, item: ObjectInstance, liquid: str) -> None:
        """A fillable ``item`` now holds ``liquid`` (water under a running tap, coffee in a
        running machine), whether or not the Belief can see it."""
        if knowledge.has(item.object_type, "fillable"):
            self._set(item.key, liquid)
            self._set(item.key, "coffee" if liquid == "water" else "water", False)

    def _boil_in(self, vessel: ObjectInstance, memory: dict[str, ObjectInstance],
                 extra: tuple[ObjectInstance, ...] = ()) -> None:
        if vessel.object_type != "Pot" or not (vessel.states.get("is_filled") or self.has(vessel.key, "water")):
            return
        for item in [*(i for i in memory.values() if i.container == vessel.key), *extra]:
            if item.object_type.startswith("Potato"):
                self._set(item.key, "boiled")

    def seen_elsewhere(self, memory: dict[str, ObjectInstance]) -> None:
        """Instances left out as missing that have since been seen more than ``MOVED`` away
        from where they were believed when given up (a put believes an apple at the fridge's
        middle; opened again, the fridge shows it on a shelf) are tried again; not one whose
        clicks from ``IN_VAIN_LIMIT`` skills found nothing to act on, as when retold: a
        phantom's believed position wanders with each detection (TATC 0264: a "knife" on
        the counter, re-estimated 0.28 m away, was tried again after each of its give-ups,
        24 failed pickups to the failed-action limit)."""
        for key in [k for k in self.missing_at if k not in self.missing]:  # tried again since: forget where
            del self.missing_at[key]
        for key in list(self.missing):
            instance = memory.get(key)
            if instance is None:
                continue
            if key not in self.missing_at and self.clicked_in_vain[key]:
                self.in_vain_at.append((instance.object_type, instance.position, self.clicked_in_vain[key]))
            if self._confirmed_again(instance):
                continue
            where = self.missing_at.setdefault(key, instance.position)
            if math.dist(where, instance.position) > MOVED and not self.phantom(key):
                del self.missing[key], self.missing_at[key]
                self.given_up.pop(key, None)
        self._phantoms_again(memory)

    def release_kept_out(self) -> bool:
        """Try again the instances kept out though retold: nothing can be planned without them
        (TATC valid_unseen 0003: its faucet kept out, the other faucet fed no basin the Follower
        could reach; no plan, and Stops the Commander refused to the turn limit). False if
        there were none."""
        released = [k for k in self.kept_out if k in self.missing]
        for key in released:
            del self.missing[key]
            self.missing_at.pop(key, None)
        self.kept_out.clear()
        return bool(released)

    def _confirmed_again(self, instance: ObjectInstance) -> bool:
        """Is ``instance``, left out ``GIVEN_UP_LIMIT`` times where it is believed, placed there
        by a hint of the Commander's since? Then it is tried once more (TATC valid_unseen 0242:
        "There is a plate on the counter left of the garbage can.", the plate given up twice on
        that counter, put on at the next try)."""
        key = instance.key
        if self.given_up[key] < GIVEN_UP_LIMIT or self.phantom(key):
            return False
        told = instance.states.get("hint_confirmed", 0)
        if told <= self.confirmed.setdefault(key, told):
            return False
        del self.missing[key], self.confirmed[key]
        self.missing_at.pop(key, None)
        self.given_up[key] = GIVEN_UP_LIMIT - 1
        return True

    def _phantoms_again(self, memory: dict[str, ObjectInstance]) -> None:
        """An instance first met (here) within ``SAME_PHANTOM`` of where clicks on one of
        its type found nothing to act on is that phantom, detected again: given up like it."""
        for instance in memory.values():
            if instance.key in self.met:
                continue
            self.met.add(instance.key)
            times = max((n for object_type, where, n in self.in_vain_at if object_type == instance.object_type
                         and math.dist(where, instance.position) <= SAME_PHANTOM), default=0)
            if times:
                self.missing[instance.key] = MISSING_LIMIT
                self.missing_at[instance.key] = instance.position
                self.clicked_in_vain[instance.key] = times

    def reconsider(self, object_types: frozenset[str], forget_flags: bool = False) -> None:
        """Forget that these types were searched for in vain and that their instances were
        missing (or misclicked); with ``forget_flags``, also what happened to them (an
        instance washed or heated and told again ``REDONE_LIMIT`` times is left out for good). Not an
        instance that clicks from ``IN_VAIN_LIMIT`` skills found nothing to act on: a phantom
        burner beside the stove, retold by every "Turn on the stove." the Commander repeated,
        took 28 of a Boil Potato's 30 failed actions (TATC 0096); nor one left out as missing
        where it is believed ``GIVEN_UP_LIMIT`` times: it is kept out (``seen_elsewhere`` frees
        it once it is believed elsewhere, or once more when a hint places it where it is
        believed; ``release_kept_out`` when nothing can be planned without it)."""
        self.retold |= self.not_found & set(object_types)
        self.not_found -= set(object_types)
        for counter in (self.missing, self.misclicks):
            for key in [k for k in counter if instance_type(k) in object_types and not self.phantom(k)]:
                if counter is self.missing and self.given_up[key] >= GIVEN_UP_LIMIT:
                    self.kept_out.add(key)
                else:
                    del counter[key]
        if forget_flags:
            self.doubted |= set(object_types)  # the Belief's "clean" (the Follower's own doing) is doubted too
            self.sliced_floor.update((knowledge.whole_of(t), None) for t in object_types
                                     if knowledge.has(knowledge.whole_of(t), "sliceable"))
            for key in [k for k in self.flags if instance_type(k) in object_types]:
                if self.flags[key] & REDONE:  # washed or heated, and told again: after ``REDONE_LIMIT`` times not it
                    self.redone[key] += 1
                del self.flags[key]

    def failed(self, op: str, key: str | None, reason: str) -> None:
        """A skill gave up on ``key`` (the interaction target) for ``reason``."""
        if key is None:
            return
        lowered = reason.lower()
        if "another object" in lowered or "neighbour" in lowered:  # a click on a neighbour: the skill counted it
            if self.misclicks[key] >= MISCLICK_LIMIT:  # it cannot be told apart (a twin on the same spot)
                self.missing[key] = max(self.missing[key], MISSING_LIMIT)
            return
        if "nothing to act on" in lowered or ("not seen from" in lowered and not self.acted_on(key)):
            # four clicks in its mask, each from nearer, hit nothing that affords the action,
            # or none of the navigator's goal poses around it showed it (a second try fails at
            # once): a phantom detection, left out at once (two skills on a phantom microwave
            # spent 8 of an ALFRED episode's 10 failed actions). Not what the Follower has
            # acted on: that is there, and missed by the detector from those poses (TATC 0193:
            # the microwave it had put a slice into and switched on, then left out, and the
            # slice shut in it taken for one in the open, 230 steps)
            self.missing[key] = max(self.missing[key], MISSING_LIMIT)
            if "nothing to act on" in lowered:
                self.clicked_in_vain[key] += 1
            else:
                self.given_up[key] += 1
        elif "not where" in lowered or "not visible" in lowered or "not in memory" in lowered or "unreachable" in lowered:
            self.missing[key] += 1
            self.given_up[key] += self.missing[key] == MISSING_LIMIT
        elif op == "put" and ("full" in lowered or "no room" in lowered or "cannot place" in lowered):
            self.full.add(key)

