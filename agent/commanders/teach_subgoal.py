"""The ``teach-subgoal`` Commander: natural-language steps, one at a time, driven by Progress Check.

As TEACh's human Commanders were asked to, it opens with the task statement or the first
step ("Could you make me a coffee?", "Rinse the dirty mug in the sink."), then says the
next step -- the step for the first unsatisfied problem key (``steps.py``), with where its
objects are ("The knife is in the drawer left of the stove.", "... behind you.") --
whenever the Follower asks what to do next, when the previous step is done (``proactive``),
or when the Follower has been idle or has failed repeatedly. It answers every question
(``answers.py``) and declares the task done when Progress Check succeeds. Wording varies
with the seed (``dialogue.generation.Generator``): same seed, same words.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.commanders.answers import Answerer, commander_seed
from agent.commanders.language import task_statement
from agent.commanders.steps import Step, key_done, next_step
from agent.config import ConfigError
from contracts.agents import Commander, CommanderContext, CommanderTurn
from contracts.observation import FOLLOWER, Observation
from contracts.registry import commander
from dialogue.generation import Generator, Utterance
from simulator.tasks import progress_check

OPENINGS = ("task", "step", "random")


def _moved_on(world, said: Step | None, step: Step | None) -> bool:
    """Has the Follower finished the step we said (its problem key now holds, or the same
    key needs a new sub-step)? Progress Check re-picking an equal instance is not progress."""
    if said is None or step is None or said.key is None or step.key is None:
        return False
    if said.subgoals == step.subgoals and said.key.object_id == step.key.object_id:
        return False
    return said.key.object_id == step.key.object_id or key_done(world, said.key)


class FollowerWatch:
    """Counts the Follower's idle turns (nothing changed) and failed actions."""

    def __init__(self, sim) -> None:
        self.sim = sim
        self.state = sim.state_hash()
        self.steps = sim.steps
        self.idle = 0
        self.failures = 0

    def update(self) -> None:
        state = self.sim.state_hash()
        self.idle = self.idle + 1 if state == self.state else 0
        if self.sim.steps > self.steps:  # the Follower did something since our last turn
            meta = self.sim.metadata(FOLLOWER)
            if meta["lastAction"] not in (None, "Text") and not meta["lastActionSuccess"]:
                self.failures += 1
        self.state = state

    def said(self, utterances: int) -> None:
        """After our turn: the runner says our utterances (one simulator step each)."""
        self.steps = self.sim.steps + utterances

    def reset_counts(self) -> None:
        self.idle = self.failures = 0


@commander.register("teach-subgoal")
class TeachSubgoalCommander(Commander):
    """Step-by-step natural-language instructions with location hints (TEACh's human style)."""

    @dataclass
    class Params:
        opening: str = "random"  # task: the task statement; step: the first step; random: either (seeded)
        proactive: bool = True  # say the next step as soon as the previous one is done
        idle_turns: int = 6  # say the step again after this many Follower turns without any change...
        failed_actions: int = 3  # ... or after this many failed actions

    def __init__(self, params: Params | None = None) -> None:
        self.params = params or self.Params()
        if self.params.opening not in OPENINGS:
            raise ConfigError(f"commander teach-subgoal: params.opening must be one of {', '.join(OPENINGS)}, "
                              f"got {self.params.opening!r}")

    def reset(self, context: CommanderContext) -> None:
        self.context = context
        self.gen = Generator(commander_seed(context))
        self.answers = Answerer(context, self.gen, step_on_no=True)
        self.watch = FollowerWatch(context.sim)
        self.turns = 0

    def _opening(self) -> list[Utterance]:
        opening = self.params.opening
        if opening == "random":
            opening = self.gen.rng.choice(("task", "step"))
        greeting = [self.gen.greeting()] if self.gen.rng.random() < 0.3 else []
        statement = task_statement(self.gen, self.context.sim.world, self.context.task) if opening == "task" else None
        if statement is None:
            statement = self.answers.say_next()
        return greeting + ([statement] if statement else [])

    def turn(self, observation: Observation) -> CommanderTurn:
        world, task = self.context.sim.world, self.context.task
        report = progress_check(world, task)
        if report["success"]:
            return CommanderTurn((self.gen.done().text,), done=True)
        self.watch.update()
        said_step = self.answers.last_step
        out = self._opening() if self.turns == 0 else []
        self.turns += 1
        out += self.answers.answer_all(observation)
        if self.answers.last_step is not said_step:
            self.watch.reset_counts()
        else:
            step = next_step(world, task, report)
            done_before = _moved_on(world, said_step, step)
            stuck = self.watch.idle >= self.params.idle_turns or self.watch.failures >= self.params.failed_actions
            if step is not None and ((self.params.proactive and done_before) or stuck):
                out.append(self.answers.say(step))
                self.watch.reset_counts()
        texts = tuple(u.text for u in out)
        self.watch.said(len(texts))
        return CommanderTurn(texts)
