"""What the rule-based Commanders say: task statements, steps and location hints in words.

Everything is built from ``dialogue.generation.Generator`` (seeded template choice), plus
a few wordings it lacks (toasting, boiling, "in one drawer", tasks over object classes);
every utterance carries the intents it means, and the ``rules`` parser parses each one
back to exactly those (tested). Steps are parsed as a Follower that knows its task would
parse them (``ParseContext(task_known=True)``).
"""

from __future__ import annotations

from typing import Any

from agent.commanders.locations import describe, speakable
from agent.commanders.steps import Step, all_keys
from contracts.language import Act, Intent, LocationHint, Subgoal, TaskSpec
from contracts.tasks import covering_class
from dialogue import lexicon as lx
from dialogue.generation import Generator, Utterance
from simulator.tasks import class_members, progress_check
from simulator.world import World


def join(parts: list[Utterance]) -> Utterance:
    """Several utterances said at once (one sentence each)."""
    return Utterance(" ".join(p.text for p in parts), tuple(i for p in parts for i in p.intents))


def _instruction(text: str, subgoal: Subgoal | None = None, task: TaskSpec | None = None) -> Utterance:
    intent = Intent(Act.INSTRUCTION, task=task, subgoals=(subgoal,) if subgoal else ())
    return Utterance(text, (intent,))


def _the(object_type: str) -> str:
    words = ["the", lx.surface(object_type)] + (["slice"] if object_type.endswith("Sliced") else [])
    return " ".join(words)


def say_subgoal(gen: Generator, sg: Subgoal) -> Utterance:
    """One step in words (the Generator's templates, plus toasting and boiling)."""
    if sg.action == "HeatObject" and sg.object == "BreadSliced" and sg.receptacle == "Toaster":
        choice = gen.rng.randrange(3)
        if choice == 0:
            return _instruction("Toast the bread slice.", Subgoal("HeatObject", "BreadSliced"))
        if choice == 1:
            return _instruction("Toast a slice of bread in the toaster.", sg)
    if sg.action == "HeatObject" and sg.receptacle == "Pot" and sg.object in lx.SLICEABLE:
        choice = gen.rng.randrange(3)
        boil = TaskSpec(teach_task="Boil X", teach_params={"X": sg.object})
        if choice == 0:
            return _instruction(f"Boil {_the(sg.object)}.", task=boil)
        if choice == 1:
            return _instruction(f"Boil {_the(sg.object)} in the pot.", task=boil)
        return _instruction(f"Cook {_the(sg.object)} in the pot.", sg)
    if sg.action == "PourObject" and sg.object is None:
        return _instruction(f"Water {_the(sg.receptacle or 'HousePlant')}.", task=TaskSpec(teach_task="Water Plant"))
    return gen.step(sg)


def hints_for(world: World, step: Step, anchor: str) -> list[LocationHint]:
    hints = [describe(world, object_id, anchor) for object_id in step.hint_ids]
    return [h for h in hints if h is not None]


def say_step(gen: Generator, world: World, step: Step, with_hints: bool = True) -> Utterance:
    """The step, then where its objects are (anchored to a landmark or to the Follower)."""
    parts = [say_subgoal(gen, sg) for sg in step.subgoals]
    if with_hints:
        anchor = gen.rng.choice(("landmark", "you"))
        parts += [gen.location(h) for h in hints_for(world, step, anchor)]
    return join(parts)


def say_where(gen: Generator, world: World, object_id: str) -> Utterance | None:
    """The answer to "Where is X?": relative to a landmark if that helps, and to the Follower."""
    hints = [describe(world, object_id, "landmark")]
    if hints[0] is not None and hints[0].anchor != "you":
        hints.append(describe(world, object_id, "you"))
    parts = [gen.location(h) for h in hints if h is not None]
    return join(parts) if parts else None


# ------------------------------------------------------------------ task statements
def _plural_list(types: list[str]) -> str:
    words = [lx.surface(t, plural=True) for t in types]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _members(world: World, name: str, task: Any) -> list[str]:
    """The types a parameter stands for here: itself, or a class's members in the room
    (those the task still needs first)."""
    if speakable(name) == name:
        return [name]
    present = {o.object_type for o in world.objects.values()}
    members = [t for t in class_members(name) if t in present and speakable(t) == t]
    needed = []
    for key in all_keys(progress_check(world, task)):
        for object_id in (key.object_id, key.receptacle_id):
            kind = world.objects[object_id].object_type if object_id in world.objects else None
            if kind in members and kind not in needed:
                needed.append(kind)
    return (needed + [t for t in members if t not in needed])[:4]


def task_statement(gen: Generator, world: World, task: Any) -> Utterance | None:
    """The TEACh task in words ("Could you make me a coffee?"), None if it has none."""
    name, p = task.task_name, tuple(task.params)
    if name in ("Water Plant", "Coffee", "Plate Of Toast", "Sandwich", "Salad", "Breakfast"):
        return gen.task(TaskSpec(teach_task=name))
    if name == "Boil X" and speakable(p[0]) == p[0]:
        return gen.task(TaskSpec(teach_task=name, teach_params={"X": p[0]}))
    if name in ("N Slices Of X In Y", "N Cooked Slices Of X In Y") and all(speakable(v) == v for v in (p[1], p[3])):
        return gen.task(TaskSpec(teach_task=name, teach_params={"N": int(p[0]), "X": p[1], "Y": p[3]}))
    if name not in ("Clean All X", "Put All X On Y", "Put All X In One Y"):
        return None
    xs = _members(world, p[0], task)
    ys = _members(world, p[2], task) if len(p) > 2 else []
    if not xs or (len(p) > 2 and not ys):
        return None
    if name == "Clean All X":
        if len(xs) == 1 and xs[0] == p[0]:
            return gen.task(TaskSpec(teach_task=name, teach_params={"X": p[0]}))
        verb = gen.rng.choice(("Clean all the", "Rinse all", "Please wash all the"))
        return _instruction(f"{verb} {_plural_list(xs)}.", task=TaskSpec(teach_task=name, teach_params={"X": covering_class(xs)}))
    y, prep = ys[0], p[1]
    meaning = TaskSpec(teach_task=name, teach_params={"X": covering_class(xs), "Y": y})
    if name == "Put All X On Y" and len(xs) == 1 and xs[0] == p[0] and prep == "on":
        return gen.task(TaskSpec(teach_task=name, teach_params={"X": p[0], "Y": y}))
    one = " one" if name == "Put All X In One Y" else " the"
    if len(xs) == 1 and gen.rng.random() < 0.5:
        verb = gen.rng.choice(("Put every", "Place every"))
        single = " a single" if one == " one" else " the"
        return _instruction(f"{verb} {lx.surface(xs[0])} {prep}{single} {lx.surface(y)}.", task=meaning)
    verb = gen.rng.choice(("Put all the", "Place all the", "Please put all the"))
    return _instruction(f"{verb} {_plural_list(xs)} {prep}{one} {lx.surface(y)}.", task=meaning)
