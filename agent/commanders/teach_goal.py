"""The ``teach-goal`` Commander: states only the task, then only answers questions.

It opens with the TEACh task statement ("Could you make me a coffee?", seeded wording from
``dialogue.generation.Generator.task``) and afterwards speaks only when asked: where and
which objects are, what to do next (the next step from Progress Check), whether the task
is done. It declares the task done when Progress Check succeeds.
"""

from __future__ import annotations

from agent.commanders.answers import Answerer, commander_seed
from agent.commanders.language import task_statement
from contracts.agents import Commander, CommanderContext, CommanderTurn
from contracts.observation import Observation
from contracts.registry import commander
from dialogue.generation import Generator
from simulator.tasks import progress_check


@commander.register("teach-goal")
class TeachGoalCommander(Commander):
    """The task statement, then answers only."""

    def reset(self, context: CommanderContext) -> None:
        self.context = context
        self.gen = Generator(commander_seed(context))
        self.answers = Answerer(context, self.gen)
        self.started = False

    def turn(self, observation: Observation) -> CommanderTurn:
        world = self.context.sim.world
        if progress_check(world, self.context.task)["success"]:
            return CommanderTurn((self.gen.done().text,), done=True)
        out = []
        if not self.started:
            self.started = True
            statement = task_statement(self.gen, world, self.context.task) or self.answers.say_next()
            out.append(statement)
        out += self.answers.answer_all(observation)
        return CommanderTurn(tuple(u.text for u in out if u is not None))
