"""The language contract: task specs, subgoals, location hints and dialogue intents (the
parser's output), and the ``Parser`` base every registered parser implements.

Object and receptacle names are AI2-THOR object types ("Mug", "SinkBasin", "TomatoSliced").
TEACh tasks are named by their task definition with named parameters (``contracts.tasks``).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from contracts.observation import ModuleContext

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
ALFRED_TYPE_FIELDS = ALFRED_FIELDS[1:5]
"""The ALFRED fields that name an AI2-THOR type (object, parent, lamp, movable receptacle)."""

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
    REPORT = "report"  # "I rinsed the mug." (subgoals; answer "yes" done / "no" could not)
    UNKNOWN = "unknown"


class QuestionKind(StrEnum):
    NEXT = "next"  # "What should I do next?"
    WHERE = "where"  # "Where is the knife?"
    WHICH = "which"  # "Which mug?"
    DONE = "done"  # "Are we done?"
    CONFIRM = "confirm"  # "Should I slice the tomato?"
    DIRECTION = "direction"  # "Which way is the fridge?"
    HELP = "help"  # "I could not open the fridge. Can you help me?"
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
    """"The knife is in the upper cabinet left of the stove": object, relation, place, direction,
    anchor, level."""

    object: str | None
    relation: str  # "in", "on", "near", "under"
    place: str | None
    direction: str | None = None  # "left", "right", "behind", "front", "above", "below"
    anchor: str | None = None  # an object type, or "you"
    level: str | None = None  # "upper" / "lower" (``contracts.geometry.level``): "the upper cabinet"


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
    # other readings of a type field, most probable first ("a desk" in a bedroom that has only
    # a dresser): used when a search for the field's type finds it nowhere; not part of the
    # meaning, so not compared
    alternatives: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)

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


_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=\S)")


def split_sentences(utterance: str) -> list[str]:
    parts = [p.strip() for p in _SENTENCE_RE.split(utterance.strip()) if p.strip()]
    return parts or [utterance.strip()]


class Parser(ABC):
    """Language -> symbols. ``parse`` never raises on odd input: it returns an intent with
    ``act=UNKNOWN`` and/or the words it did not understand in ``unknown``."""

    def reset(self, context: ModuleContext) -> None:
        """Start an episode (parsers are usually stateless)."""
        self.context = context

    @abstractmethod
    def parse(self, utterance: str, context: ParseContext | None = None) -> list[Intent]:
        """One intent per sentence of a dialogue utterance."""

    @abstractmethod
    def parse_goals(self, items: Sequence[tuple[str, Sequence[str]]]) -> list[TaskSpec | None]:
        """Batch ``parse_goal``; None for an item with neither goal nor step text."""

    def parse_goal(self, goal: str, steps: Sequence[str] = ()) -> TaskSpec | None:
        """An ALFRED goal sentence (optionally with its step instructions) -> a task spec;
        None when there is no text at all (a TATC Follower gets its task from dialogue)."""
        return self.parse_goals([(goal, steps)])[0]

    @abstractmethod
    def parse_step(self, instruction: str) -> list[Subgoal]:
        """A step instruction -> its subgoals, in order."""


def has_text(goal: str, steps: Sequence[str]) -> bool:
    """True if a goal or any step instruction has words (what ``parse_goals`` needs)."""
    return bool(goal.strip()) or any(s.strip() for s in steps)
