"""Answering the Follower's questions: shared by every rule-based Commander.

The Follower's utterances are parsed with the ``rules`` parser; each question is answered
from ground truth (the Commander is an oracle):

- where is X: where the instance the task needs is (or the nearest one), relative to a
  landmark and to the Follower ("The knife is in the drawer left of the stove. There is a
  knife in the drawer to your right.");
- which X: the instance the task needs, by a distinguishing attribute ("The dirty one.",
  "The empty one.", with where it is when that tells it apart too: "The dirty one. The mug
  is in the sink."), else by where it is, else by its side ("The one on the left.");
- which way is X: where it is relative to the Follower ("The fridge is to your left.");
- can you help me (with X): where X is, if the next step does not say it, and the next step;
- what next (and questions the parser cannot place): the next step with location hints;
- anything else / are we done: yes or no from Progress Check (``teach-subgoal`` adds the
  next step to a no);
- should I ...: yes if that is the next step, else no and the next step.
"""

from __future__ import annotations

import math
import zlib
from functools import lru_cache

from agent.commanders.language import join, say_step, say_where
from agent.commanders.locations import applies, describe, follower_direction, speakable
from agent.commanders.steps import Step, all_keys, next_step
from contracts.agents import CommanderContext
from contracts.language import Act, Intent, QuestionKind
from contracts.observation import FOLLOWER, Observation
from dialogue.generation import Generator, Utterance
from simulator.tasks import object_classes, progress_check, search_object

DONE_REPLIES = {True: ("Yes, we are done.", "Yes, that's everything.", "Yes."),
                False: ("No, there is more to do.", "No.", "Nope.")}


def commander_seed(context: CommanderContext) -> int:
    """A seed per (run seed, episode): same seed, same words; other episodes, other words."""
    episode_id = getattr(context.episode, "episode_id", "")
    return zlib.crc32(f"{context.seed}:{episode_id}".encode())


@lru_cache(maxsize=1)
def _parser():
    from dialogue.rules import RulesParser  # spaCy loads on first use

    return RulesParser()


@lru_cache(maxsize=4096)
def _parse(text: str) -> tuple[Intent, ...]:
    return tuple(_parser().parse(text))


def follower_questions(observation: Observation) -> list[Intent]:
    """The questions among the Follower's new utterances (parsed by the rules parser)."""
    out = []
    for utterance in observation.utterances:
        if utterance.agent_id == FOLLOWER:
            out.extend(i for i in _parse(utterance.text) if i.act == Act.QUESTION)
    return out


def _matches(kind: str, target: str) -> bool:
    """Does an object of type ``kind`` answer to the name ``target`` (type, class, whole)?"""
    return target in object_classes(kind) or kind.removesuffix("Sliced") == target or speakable(kind) == target


class Answerer:
    """Answers the Follower's questions in one episode (make one per episode)."""

    def __init__(self, context: CommanderContext, gen: Generator, step_on_no: bool = False) -> None:
        self.context = context
        self.gen = gen
        self.step_on_no = step_on_no
        self.last_target: str | None = None
        self.last_step: Step | None = None  # the last step said (by any answer)

    @property
    def world(self):
        return self.context.sim.world

    def next_step(self) -> Step | None:
        return next_step(self.world, self.context.task)

    def say_next(self) -> Utterance | None:
        step = self.next_step()
        if step is None:
            return None
        return self.say(step)

    def say(self, step: Step) -> Utterance:
        if step.subgoals and step.subgoals[0].object:
            self.last_target = step.subgoals[0].object
        self.last_step = step
        return say_step(self.gen, self.world, step)

    # ------------------------------------------------------------------ questions
    def answer(self, question: Intent) -> Utterance | None:
        kind = question.question
        target = question.target or self.last_target
        if kind == QuestionKind.WHERE and target:
            return self.where(target) or self.say_next()
        if kind == QuestionKind.WHICH and target:
            return self.which(target) or self.say_next()
        if kind == QuestionKind.DIRECTION and target:
            return self.direction(target) or self.say_next()
        if kind == QuestionKind.HELP:
            return self.help(question.target)
        if kind == QuestionKind.DONE:
            return self.done()
        if kind == QuestionKind.CONFIRM:
            return self.confirm(question)
        return self.say_next()

    def done(self) -> Utterance:
        finished = bool(progress_check(self.world, self.context.task)["success"])
        reply = Utterance(self.gen.rng.choice(DONE_REPLIES[finished]),
                          (Intent(Act.ANSWER, answer="yes" if finished else "no"),))
        step = self.say_next() if not finished and self.step_on_no else None
        return join([reply, step]) if step else reply

    def confirm(self, question: Intent) -> Utterance | None:
        step = self.next_step()
        if step is None:
            return self.gen.answer(False)
        wanted = {(sg.action, (sg.object or "").removesuffix("Sliced")) for sg in step.subgoals}
        asked = {(sg.action, (sg.object or "").removesuffix("Sliced")) for sg in question.subgoals}
        if asked and asked <= wanted:
            return self.gen.answer(True)
        return join([self.gen.answer(False), self.say(step)])

    def needed(self, target: str) -> str | None:
        """The instance of ``target`` the task needs next (objects, then receptacles, then
        tools), else the nearest one (``SearchObject``), else None."""
        return self.task_instance(target) or self._nearest(target)

    def _nearest(self, target: str) -> str | None:
        found = search_object(self.world, target)
        return found["objectId"] if found["success"] else None

    def task_instance(self, target: str) -> str | None:
        """The instance of ``target`` the task needs next, if it needs one."""
        world = self.world
        keys = all_keys(progress_check(world, self.context.task))
        step = self.next_step()
        ids = list(step.hint_ids) if step else []
        for key in keys:
            ids += [key.object_id, key.receptacle_id or ""]
        for object_id in ids:
            if object_id in world.objects and _matches(world.objects[object_id].object_type, target):
                return object_id
        return None

    def where(self, target: str) -> Utterance | None:
        object_id = self.needed(target)
        if object_id is None:
            return None
        self.last_target = self.world.objects[object_id].object_type
        if self.world.holder(object_id) == FOLLOWER:  # the one it holds: point at another one, if any
            others = self._others(object_id)
            object_id = others[0] if others else object_id
        return say_where(self.gen, self.world, object_id)

    def _others(self, object_id: str) -> list[str]:
        world = self.world
        kind = world.objects[object_id].object_type
        agent = world.agents[FOLLOWER]
        others = [o.object_id for o in world.objects.values()
                  if o.object_type == kind and o.object_id != object_id and world.holder(o.object_id) is None]
        return sorted(others, key=lambda i: (math.hypot(world.objects[i].position[0] - agent.x,
                                                        world.objects[i].position[2] - agent.z), i))

    def direction(self, target: str) -> Utterance | None:
        """"Which way is the fridge?": where it is relative to the Follower."""
        object_id = self.needed(target)
        if object_id is None:
            return None
        self.last_target = self.world.objects[object_id].object_type
        hint = describe(self.world, object_id, "you")
        return self.gen.location(hint) if hint is not None else say_where(self.gen, self.world, object_id)

    def help(self, target: str | None) -> Utterance | None:
        """"Can you help me with the fridge?": the next step, after where the object is when
        the step's own hints do not say it."""
        step = self.next_step()
        named = {h for sg in step.subgoals for h in (sg.object, sg.receptacle) if h} if step else set()
        where = self.where(target) if target and not any(_matches(n, target) for n in named) else None
        parts = [u for u in (where, self.say(step) if step else None) if u is not None]
        return join(parts) if parts else None

    def which(self, target: str) -> Utterance | None:
        """"Which mug?": the needed one by what sets it apart from the others of its kind
        (a mug the task does not need: where the nearest one is)."""
        object_id = self.task_instance(target)
        if object_id is None:
            nearest = self._nearest(target)
            return say_where(self.gen, self.world, nearest) if nearest else None
        world = self.world
        obj = world.objects[object_id]
        self.last_target = obj.object_type
        others = [world.objects[i] for i in self._others(object_id)]
        if not others:
            return say_where(self.gen, world, object_id)
        hint = describe(world, object_id, "landmark")
        # where it is, if those words fit none of the others ("right of the fridge" may fit two)
        place = self.gen.location(hint) if hint is not None and not any(
            applies(world, hint, o.object_id) for o in others) else None
        for attribute, has in (("dirty", lambda o: o.is_dirty), ("empty", lambda o: o.fillable and not o.is_filled),
                               ("full", lambda o: o.is_filled)):
            if has(obj) and not any(has(o) for o in others):  # and where, for a Follower that cannot see dirt
                return join([self.gen.which_answer(attribute), place]) if place else self.gen.which_answer(attribute)
        if place is not None:
            return place
        side = follower_direction(world, (obj.position[0], obj.position[2]))
        if side in ("left", "right") and all(
                follower_direction(world, (o.position[0], o.position[2])) != side for o in others):
            return self.gen.which_answer(direction=side)
        return say_where(self.gen, world, object_id)

    def answer_all(self, observation: Observation, kinds: tuple[QuestionKind, ...] | None = None) -> list[Utterance]:
        """Answers to the new questions (only those of ``kinds`` if given), one per question."""
        out = []
        for question in follower_questions(observation):
            if kinds is None or question.question in kinds:
                reply = self.answer(question)
                if reply is not None:
                    out.append(reply)
        return out
