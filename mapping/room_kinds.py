"""Which kind of room the Follower is in, and which object types such a room holds.

AI2-THOR's floor plans are kitchens, living rooms, bedrooms and bathrooms, and many object
types occur in one kind only: stove burners in kitchens, toilets in bathrooms.
``mapping/data/room_kinds.json`` (made by ``python -m mapping.prior_build`` from the worlds
of our ALFRED train split) lists, per type, the room kinds whose worlds held one.
``RoomKind`` counts the fixed types (furniture, fixtures, appliances: never pickupable in
those worlds, ``mapping.search_prior.never_inside``) of one kind only that the memory holds
an instance of seen in at least ``MIN_SIGHTINGS`` frames; once one kind has ``DECIDED`` such
types and ``MARGIN`` times as many as any other, the room is of that kind, and a detection
of a type no room of that kind held is a phantom: not mapped, and instances of such types
are forgotten (TATC valid_unseen 0120, a kitchen: a bathtub, a bathtub basin, a sink basin
and a faucet seen in the open fridge, a toilet below it; the Follower carried the knife it
had to put down to them, one after another). Small movable things are not counted: they are
what the detector most often imagines, and apples, knives and pots are kitchen types in the
table (on 32 ALFRED trials the outcomes were the same as counting every type). Types the
table does not know (and pieces of known wholes, as their wholes) and types the dialogue
spoke of are always allowed. The semantic map's ``room_kinds`` is off by default (stop 59:
ALFRED dev 45/70 with it against 47/70, TATC 14/24 against 13/24).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from contracts.belief import ObjectMemory
from contracts.errors import NesyError
from contracts.language import LocationHint
from mapping.absence import forget
from mapping.memory_updates import PIECES, piece_of
from mapping.search_prior import never_inside

ROOM_KINDS_PATH = Path(__file__).parent / "data" / "room_kinds.json"
MIN_SIGHTINGS = 2  # frames an instance must have been seen in to count as evidence
DECIDED = 3  # types of one kind only that decide the room
MARGIN = 3  # ... when the kind has this many times as many as any other
WHOLES = {piece_of(whole): whole for whole in PIECES}


@lru_cache(maxsize=1)
def kinds_of_types() -> dict[str, frozenset[str]]:
    """object type -> the room kinds whose train worlds held one."""
    try:
        table = json.loads(ROOM_KINDS_PATH.read_text())
        return {t: frozenset(kinds) for t, kinds in table["kinds"].items()}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise NesyError(f"room kinds table {ROOM_KINDS_PATH} is missing or unreadable ({exc!r}); rebuild it with "
                        "`python -m mapping.prior_build ../shared/data/alfred_train.jsonl.gz`") from None


def _kinds(object_type: str) -> frozenset[str] | None:
    return kinds_of_types().get(WHOLES.get(object_type, object_type))


class RoomKind:
    """The room kind believed from what the memory holds (None until decided)."""

    def __init__(self) -> None:
        self.kind: str | None = None
        self.spoken: set[str] = set()  # types the dialogue named: the Commander sees the real room

    def told(self, hints: Iterable[LocationHint]) -> None:
        for hint in hints:
            self.spoken.update(t for t in (hint.object, hint.place, hint.anchor) if t)

    def judge(self, memory: ObjectMemory) -> str | None:
        """Decides (or not yet) the room kind from the instances seen often enough."""
        evidence: dict[str, set[str]] = {}
        for instance in memory.instances.values():
            kinds = _kinds(instance.object_type)
            if kinds is not None and len(kinds) == 1 and instance.times_seen >= MIN_SIGHTINGS \
                    and never_inside(instance.object_type):
                evidence.setdefault(next(iter(kinds)), set()).add(instance.object_type)
        counts = sorted((len(types) for types in evidence.values()), reverse=True) + [0, 0]
        if counts[0] >= DECIDED and counts[0] >= MARGIN * counts[1]:
            self.kind = max(evidence, key=lambda k: len(evidence[k]))
        return self.kind

    def allows(self, object_type: str) -> bool:
        """May a room of the believed kind hold this type? (Yes while undecided.)"""
        kinds = _kinds(object_type)
        return self.kind is None or kinds is None or self.kind in kinds or object_type in self.spoken

    def forget_phantoms(self, memory: ObjectMemory) -> list[str]:
        """Forgets the instances of types the room cannot hold (not the held one, nor one the
        Follower handled); what was believed in them is believed in nothing. Their keys."""
        gone = [i.key for i in memory.instances.values()
                if not self.allows(i.object_type) and i.key != memory.held and not i.states.get("handled")]
        for key in gone:
            forget(memory, key)
        return gone
