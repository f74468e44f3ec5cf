"""Small data types shared between packages (dialogue, planner, agent): the language layer's
output -- task specs, subgoals, location hints and dialogue intents.

Object and receptacle names are AI2-THOR object types ("Mug", "SinkBasin", "TomatoSliced").
These types import nothing from the project, so any package may use them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

ALFRED_TASK_TYPES = (
    "pick_and_place_simple",
    "pick_two_obj_and_place",
    "look_at_obj_in_light",
    "pick_clean_then_place_in_recep",
    "pick_heat_then_place_in_recep",
    "pick_cool_then_place_in_recep",
    "pick_and_place_with_movable_recep",
)
ALFRED_FIELDS = ("task_type", "object_target", "parent_target", "toggle_target", "mrecep_target", "object_sliced")

# The 12 TEACh task types and the names of their parameters.
TEACH_TASKS: dict[str, tuple[str, ...]] = {
    "Water Plant": (),
    "Coffee": (),
    "Clean All X": ("X",),
    "Put All X On Y": ("X", "Y"),
    "Put All X In One Box": ("X",),
    "Boil X": ("X",),
    "Plate Of Toast": (),
    "Sandwich": (),
    "Salad": (),
    "Breakfast": (),
    "N Slices Of X In Y": ("N", "X", "Y"),
    "N Cooked Slices Of X In Y": ("N", "X", "Y"),
}

ALL = -1
"""``Subgoal.count`` for "all of them"."""


class Act(StrEnum):
    """The dialogue act of one utterance (or sentence)."""

    INSTRUCTION = "instruction"
    QUESTION = "question"
    ANSWER = "answer"
    ACKNOWLEDGEMENT = "acknowledgement"
    GREETING = "greeting"
    DONE = "done"  # "done", "thanks", "that's all"
    UNKNOWN = "unknown"


class QuestionKind(StrEnum):
    NEXT = "next"  # "What should I do next?"
    WHERE = "where"  # "Where is the knife?"
    WHICH = "which"  # "Which mug?"
    DONE = "done"  # "Are we done?"
    CONFIRM = "confirm"  # "Should I slice the tomato?"
    OTHER = "other"


# Subgoal actions (ALFRED's high-level actions plus TEACh's extra interactions).
SUBGOAL_ACTIONS = (
    "GotoLocation",
    "PickupObject",
    "PutObject",
    "OpenObject",
    "CloseObject",
    "ToggleObjectOn",
    "ToggleObjectOff",
    "SliceObject",
    "CleanObject",
    "HeatObject",
    "CoolObject",
    "FillObject",
    "PourObject",
)


@dataclass(frozen=True)
class Subgoal:
    """One step: an action on an object type, optionally with a receptacle/tool."""

    action: str
    object: str | None = None
    receptacle: str | None = None
    count: int = 1  # ALL (-1) for "all of them"
    attributes: tuple[str, ...] = ()  # "dirty", "red", ...


@dataclass(frozen=True)
class LocationHint:
    """"The knife is in the drawer left of the stove": object, relation, place, direction, anchor."""

    object: str | None
    relation: str  # "in", "on", "near", "under"
    place: str | None
    direction: str | None = None  # "left", "right", "behind", "front", "above", "below"
    anchor: str | None = None  # an object type, or "you"


@dataclass
class TaskSpec:
    """A whole task: ALFRED's PDDL parameters and/or a TEACh task name with parameters."""

    task_type: str = ""
    object_target: str = ""
    parent_target: str = ""
    toggle_target: str = ""
    mrecep_target: str = ""
    object_sliced: bool = False
    teach_task: str = ""
    teach_params: dict[str, Any] = field(default_factory=dict)

    def alfred_fields(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in ALFRED_FIELDS}


@dataclass
class Intent:
    """The meaning of one sentence of an utterance: its act and whatever content it carries.

    ``unknown`` lists the content words the parser did not understand (explicitly, instead
    of failing); ``text`` and ``confidence`` are not part of the meaning.
    """

    act: Act
    task: TaskSpec | None = None
    subgoals: tuple[Subgoal, ...] = ()
    location: LocationHint | None = None
    question: QuestionKind | None = None
    target: str | None = None  # the object a question/answer is about
    answer: str | None = None  # "yes" / "no"
    direction: str | None = None
    count: int | None = None
    attributes: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    text: str = ""
    confidence: float = 1.0

    def meaning(self) -> dict[str, Any]:
        """Everything but the surface text and confidence (for comparing meanings)."""
        out = asdict(self)
        out.pop("text")
        out.pop("confidence")
        return out

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        return {k: v for k, v in out.items() if v not in (None, (), [], "")}


@dataclass
class ParseContext:
    """What the parser may know about the dialogue so far."""

    task_known: bool = False  # a task statement was already given
    last_target: str | None = None  # the object type under discussion (for "it")
    speaker: str = "commander"


# ------------------------------------------------------------------------------------------
# Perception and mapping: what the Follower's pipeline passes between its modules.


@dataclass(frozen=True)
class Detection:
    """One detected object in the current frame.

    ``box`` is the relative screen rectangle (x0, y0, x1, y1; x right, y down, in [0, 1]);
    ``mask`` an H x W boolean array when a module segments. ``object_id`` and ``position``
    are filled only by modules that know them (oracles know ids; a mapper estimates 3-D).
    """

    object_type: str
    box: tuple[float, float, float, float]
    score: float = 1.0
    mask: Any = None
    object_id: str | None = None
    position: tuple[float, float, float] | None = None


@dataclass
class MapObject:
    """An object in the Follower's memory: where it is believed to be and in what state."""

    key: str
    object_type: str
    position: tuple[float, float, float]
    size: tuple[float, float, float] = (0.1, 0.1, 0.1)
    container: str | None = None
    states: dict[str, Any] = field(default_factory=dict)


@dataclass
class Belief:
    """The mapper's output: where the agent can go, what it has seen, where it is."""

    navigable: frozenset = frozenset()
    objects: dict[str, MapObject] = field(default_factory=dict)
    pose: tuple[float, float, int, float] = (0.0, 0.0, 0, 0.0)
    holding: bool = False


@dataclass(frozen=True)
class LowLevelAction:
    """A simulator action by name (TEACh or ALFRED vocabulary) with its target (a click
    ``x, y`` for a Follower; never an objectId outside oracles)."""

    action: str
    target: dict[str, Any] = field(default_factory=dict)
