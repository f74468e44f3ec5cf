"""Language generation for the rule-based Commanders (and scripted Followers): TEACh-style
templates with seeded variety. Every template returns the text together with the intents it
means; the ``rules`` parser parses each one back to exactly that (tested over all templates).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from contracts.dialogue import Question
from contracts.language import Act, Intent, LocationHint, QuestionKind, Subgoal, TaskSpec
from dialogue import lexicon as lx

_CONTAINERS = {"Fridge", "SinkBasin", "Microwave", "Cabinet", "Drawer", "GarbageCan", "Box", "Pot",
               "Bowl", "Mug", "Cup", "Safe", "BathtubBasin", "CoffeeMachine", "Toaster"}
_NUMBER = lx.NUMBER_WORDS


@dataclass(frozen=True)
class Utterance:
    """Generated text and what it means (one intent per sentence)."""

    text: str
    intents: tuple[Intent, ...]


def _np(type_: str, attrs: tuple[str, ...] = (), det: str = "the") -> str:
    words = [det, *attrs, lx.surface(type_)] + (["slice"] if type_.endswith("Sliced") else [])
    return " ".join(w for w in words if w)


def preposition(receptacle: str) -> str:
    """"in" the fridge, "on" the counter."""
    return "in" if receptacle in _CONTAINERS else "on"


_prep = preposition
_LEVEL_WORDS = {"upper": ["upper", "top"], "lower": ["lower", "bottom"]}


def _intent(act: Act, **content: object) -> Intent:
    return Intent(act, **content)  # type: ignore[arg-type]


class Generator:
    """Seeded template choice: ``Generator(seed).step(subgoal)`` etc."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def _pick(self, options: list[str]) -> str:
        return self.rng.choice(options)

    # -- Commander ------------------------------------------------------------------------
    def step(self, sg: Subgoal) -> Utterance:
        """A step instruction for one subgoal."""
        obj, rec, attrs = sg.object, sg.receptacle, sg.attributes
        x = _np(obj, attrs) if obj else ""
        r = _np(rec) if rec else ""
        a = sg.action
        if a == "GotoLocation":
            text = self._pick([f"Go to {x}.", f"Walk over to {x}.", f"Head to {x}."])
        elif a == "PickupObject":
            text = self._pick([f"Pick up {x}", f"Grab {x}", f"Take {x}"]) + (f" from {r}." if rec else ".")
        elif a == "PutObject" and obj and obj.endswith("Sliced"):
            n = "a slice" if sg.count == 1 else f"{_NUMBER[sg.count]} slices"
            verb = self._pick(["Place", "Put"])
            text = f"{verb} {n} of {lx.surface(obj)} {_prep(rec or '')} {r}."
        elif a == "PutObject":
            if sg.count > 1:
                x = " ".join([_NUMBER[sg.count], *attrs, lx.surface(obj or "", plural=True)])
            verb = self._pick(["Put", "Place"])
            text = f"{verb} {x} {_prep(rec or '')} {r}."
        elif a == "CleanObject":
            verb = self._pick(["Rinse", "Wash", "Clean"])
            text = f"{verb} {x} in the sink." if rec else f"{verb} {x}."
        elif a == "HeatObject" and rec == "Microwave" and self.rng.random() < 0.5:
            text = f"Microwave {x}."
        elif a == "HeatObject":
            verb = self._pick(["Heat", "Cook", "Warm up"])
            text = f"{verb} {x} {_prep(rec)} {r}." if rec else f"{verb} {x}."
        elif a == "CoolObject":
            verb = self._pick(["Chill", "Cool"])
            text = f"{verb} {x} in {r}." if rec else f"{verb} {x}."
        elif a == "SliceObject":
            text = self._pick([f"Slice {x}.", f"Cut {x}.", f"Slice {x} with a knife."])
        elif a in ("OpenObject", "CloseObject"):
            verb = "Open" if a == "OpenObject" else self._pick(["Close", "Shut"])
            text = f"{verb} {x}."
        elif a in ("ToggleObjectOn", "ToggleObjectOff"):
            on = "on" if a == "ToggleObjectOn" else "off"
            text = self._pick([f"Turn {on} {x}.", f"Switch {on} {x}.", f"Turn {x} {on}."])
        elif a == "FillObject":
            text = f"Fill {x} with water."
        elif a == "PourObject":
            text = f"Pour {x} into {r}." if obj else f"Pour water on {r}."
        else:
            raise ValueError(f"no template for subgoal action {a!r}")
        return Utterance(text, (_intent(Act.INSTRUCTION, subgoals=(sg,)),))

    def location(self, hint: LocationHint) -> Utterance:
        """"The knife is in the drawer left of the stove." / "The mug is on the counter behind you."."""
        place = f"{hint.relation} {_np(hint.place or '', (self._pick(_LEVEL_WORDS[hint.level]),) if hint.level else ())}"
        where = ""
        if hint.direction in ("left", "right"):
            where = f" to your {hint.direction}" if hint.anchor == "you" else f" {hint.direction} of {_np(hint.anchor or '')}"
        elif hint.direction == "behind":
            where = " behind you" if hint.anchor == "you" else f" behind {_np(hint.anchor or '')}"
        elif hint.direction in ("above", "below") and hint.anchor not in (None, "you"):
            where = f" {hint.direction} {_np(hint.anchor)}"
        elif hint.direction == "front":
            where = " in front of you"
        subject = _np(hint.object or "")
        text = self._pick([f"{subject.capitalize()} is {place}{where}.",
                           f"There is {_np(hint.object or '', det='a')} {place}{where}.",
                           f"I think {subject} is {place}{where}."])
        return Utterance(text, (_intent(Act.ANSWER, location=hint, target=hint.object),))

    def task(self, task: TaskSpec) -> Utterance:
        """A TEACh task statement."""
        name, p = task.teach_task, task.teach_params
        x = p.get("X")
        plural = lx.surface(x, plural=True) if isinstance(x, str) else ""
        templates = {
            "Water Plant": ["Water the plant.", "Could you water the plant?", "Please water the plant."],
            "Coffee": ["Could you make me a coffee?", "Make a cup of coffee.", "Please prepare coffee in a mug.",
                       "I would like a coffee."],
            "Clean All X": [f"Clean all the {plural}.", f"Rinse all {plural}.", f"Please wash every {lx.surface(x)}."
                            if isinstance(x, str) else ""],
            "Put All X On Y": [f"Put all the {plural} {_prep(p.get('Y', ''))} the {lx.surface(p['Y'])}." if "Y" in p else "",
                               f"Place every {lx.surface(x)} on the {lx.surface(p['Y'])}." if "Y" in p and isinstance(x, str) else "",
                               f"Could you put all {plural} on the {lx.surface(p['Y'])}?" if "Y" in p else ""],
            "Put All X In One Y": [f"Put all the {plural} {_prep(p['Y'])} one {lx.surface(p['Y'])}." if "Y" in p else "",
                                   f"Place every {lx.surface(x)} {_prep(p['Y'])} a single {lx.surface(p['Y'])}."
                                   if "Y" in p and isinstance(x, str) else ""],
            "Boil X": [f"Boil a {lx.surface(x)}." if isinstance(x, str) else "",
                       f"Could you boil the {lx.surface(x)}?" if isinstance(x, str) else ""],
            "Plate Of Toast": ["Make a plate of toast.", "Could you make me a plate of toast?", "I'd like a plate of toast."],
            "Sandwich": ["Make a sandwich.", "Could you make me a sandwich?", "Prepare a sandwich."],
            "Salad": ["Make a salad.", "Please prepare a salad.", "Could you make a salad?"],
            "Breakfast": ["Make breakfast.", "Prepare breakfast for me.", "Could you make breakfast?"],
        }
        if name in ("N Slices Of X In Y", "N Cooked Slices Of X In Y"):
            n = int(p["N"])
            cooked = "cooked " if name.startswith("N Cooked") else ""
            slices = f"a {cooked}slice" if n == 1 else f"{_NUMBER[n]} {cooked}slices"
            verb = self._pick(["Put", "Place"])
            y = lx.surface(p["Y"])
            text = f"{verb} {slices} of {lx.surface(x or '')} {_prep(p['Y'])} the {y}."
        elif name in templates:
            text = self._pick([t for t in templates[name] if t])
        else:
            raise ValueError(f"unknown TEACh task {name!r}; known: {', '.join(templates)}")
        meaning = TaskSpec(teach_task=name, teach_params=dict(p))
        return Utterance(text, (_intent(Act.INSTRUCTION, task=meaning),))

    def answer(self, yes: bool) -> Utterance:
        options = ["Yes.", "Yes, that's all.", "Yes, that one.", "Yeah."] if yes else ["No.", "No, not that one.", "Nope."]
        return Utterance(self._pick(options), (_intent(Act.ANSWER, answer="yes" if yes else "no"),))

    def which_answer(self, attribute: str | None = None, direction: str | None = None) -> Utterance:
        """"The dirty one." / "The one on the left." (a reply to "Which mug?")."""
        if direction:
            return Utterance(f"The one on the {direction}.", (_intent(Act.ANSWER, direction=direction),))
        return Utterance(f"The {attribute} one.", (_intent(Act.ANSWER, attributes=(attribute,)),))

    def greeting(self) -> Utterance:
        return Utterance(self._pick(["Hello!", "Hi there.", "Hi!", "Good morning."]), (_intent(Act.GREETING),))

    def done(self) -> Utterance:
        options = ["Thanks, we're done!", "Great job, that's all.", "All done, thank you!", "Thank you!"]
        return Utterance(self._pick(options), (_intent(Act.DONE),))

    def direction(self, direction: str) -> Utterance:
        text = "Turn around." if direction == "around" else f"Turn {direction}."
        return Utterance(text, (_intent(Act.INSTRUCTION, direction=direction),))

    # -- Follower -------------------------------------------------------------------------
    def acknowledgement(self) -> Utterance:
        return Utterance(self._pick(["Okay.", "Got it.", "Sure.", "Will do.", "On it!"]), (_intent(Act.ACKNOWLEDGEMENT),))

    def ask(self, question: Question) -> Utterance:
        """A dialogue manager's structured question in words, after the step it reports, if
        any ("I rinsed the mug. What should I do next?")."""
        asked = self.question(question.kind, question.target, question.subgoal, question.places)
        if question.report is None:
            return asked
        said = self.report(question.report, question.report_failed)
        return Utterance(f"{said.text} {asked.text}", said.intents + asked.intents)

    def report(self, sg: Subgoal, failed: bool = False) -> Utterance:
        """"I rinsed the mug in the sink." / "I could not open the fridge." (a step's own
        words in the past tense, or after "I could not")."""
        step = self.step(sg).text
        first, _, rest = step.partition(" ")
        if failed:
            text = f"I could not {first.lower()} {rest}"
        else:
            text = f"I {lx.PAST_TENSE[first.lower()]} {rest}"
        return Utterance(text, (_intent(Act.REPORT, subgoals=(sg,), answer="no" if failed else "yes"),))

    @staticmethod
    def _one(place: LocationHint) -> str:
        """"the one in the sink" / "the one on the counter to your left" / "the one behind you"."""
        where = f" {place.relation} {_np(place.place)}" if place.place else ""
        if place.anchor == "you" and place.direction in ("left", "right"):
            where += f" to your {place.direction}"
        elif place.anchor == "you" and place.direction == "behind":
            where += " behind you"
        elif place.anchor == "you" and place.direction == "front":
            where += " in front of you"
        return f"the one{where}"

    def question(self, kind: QuestionKind, target: str | None = None, subgoal: Subgoal | None = None,
                 places: tuple[LocationHint, ...] = ()) -> Utterance:
        """"What should I do next?", "Where is the knife?", "Which mug, the one in the sink or
        the one on the counter?", "Which way is the fridge?", "Can you help me with the
        fridge?", "Are we done?", "Should I slice the tomato?"."""
        if kind == QuestionKind.NEXT:
            text = self._pick(["What should I do next?", "What do I do now?", "What's next?", "What is my task?"])
            return Utterance(text, (_intent(Act.QUESTION, question=kind),))
        if kind == QuestionKind.DONE:
            text = self._pick(["Are we done?", "Is that all?", "Is there anything else?", "Am I finished?"])
            return Utterance(text, (_intent(Act.QUESTION, question=kind),))
        if kind == QuestionKind.WHERE and target:
            t = lx.surface(target)
            text = self._pick([f"Where is the {t}?", f"Where can I find the {t}?", f"Where is a {t}?"])
            return Utterance(text, (_intent(Act.QUESTION, question=kind, target=target),))
        if kind == QuestionKind.WHICH and target and len(places) >= 2:
            ones = [self._one(p) for p in places]
            choice = ", ".join(ones[:-1]) + " or " + ones[-1]
            t = lx.surface(target)
            text = self._pick([f"Which {t}, {choice}?", f"Which {t} should I use, {choice}?"])
            return Utterance(text, (_intent(Act.QUESTION, question=kind, target=target),))
        if kind == QuestionKind.WHICH and target:
            t = lx.surface(target)
            text = self._pick([f"Which {t}?", f"Which {t} should I use?", f"Which one is the right {t}?"])
            return Utterance(text, (_intent(Act.QUESTION, question=kind, target=target),))
        if kind == QuestionKind.DIRECTION and target:
            t = lx.surface(target)
            text = self._pick([f"Which way is the {t}?", f"Which direction is the {t}?", f"How do I get to the {t}?"])
            return Utterance(text, (_intent(Act.QUESTION, question=kind, target=target),))
        if kind == QuestionKind.HELP:  # a slice is asked about as its whole object, as in CONFIRM
            t = f" with the {lx.surface(target)}" if target else ""
            text = self._pick([f"Can you help me{t}?", f"Could you help me{t}?"])
            whole = target.removesuffix("Sliced") if target else None
            return Utterance(text, (_intent(Act.QUESTION, question=kind, target=whole),))
        if kind == QuestionKind.CONFIRM and subgoal and subgoal.object:
            step = self.step(subgoal).text
            text = "Should I " + step[0].lower() + step[1:-1] + "?"
            return Utterance(text, (_intent(Act.QUESTION, question=kind, subgoals=(subgoal,), target=subgoal.object.removesuffix("Sliced")),))
        raise ValueError(f"cannot ask a {kind} question with target={target!r}, subgoal={subgoal!r}")
