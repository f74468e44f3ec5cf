"""The ``teach-lowlevel`` Commander: TEACh's rule-based Commander (appendix E).

When the Follower asks what to do, it runs Progress Check, takes the first unsatisfied
problem key and plans the skill that fixes it with an oracle actor in a fork of the
simulator (shortest paths, TEACh's action names, click positions that select the right
object). Each time it is asked, it utters the plan's next piece, up to and including the
next interaction, as action tokens:
"Forward Forward TurnRight LookDown Pickup Mug at 0.57 0.25". It declares the task done
when Progress Check says so. Unlike TEACh's, its skills cover all 12 task types.

Questions about where or which object, which way it is, and whether the task is done, get
natural-language answers (``answers.py``, shared by every Commander); every other question
("What should I do next?", "Can you help me?") gets the next piece of the plan, as before.
"""

from __future__ import annotations

from agent.commanders.answers import Answerer, commander_seed, follower_questions
from agent.followers.action_executor import MOTIONS
from contracts.agents import Commander, CommanderContext, CommanderTurn
from contracts.language import QuestionKind
from contracts.observation import FOLLOWER, Observation
from contracts.registry import commander
from dialogue.generation import Generator
from simulator.expert.planning import KeyPlanner
from simulator.tasks import progress_check

# simulator action name -> the token the action-executor reads for it
TOKENS = {action: token for token, action in MOTIONS.items()}
CANNOT_HELP = "I am not sure how to do that part."
ANSWERED = (QuestionKind.WHERE, QuestionKind.WHICH, QuestionKind.DIRECTION, QuestionKind.DONE)


def tokens_for(actions: list[tuple[str, dict]]) -> str:
    words = []
    for name, target in actions:
        if name in TOKENS:
            words.append(TOKENS[name])
        else:
            words.append(f"{name} {target['objectType']} at {target['x']:.2f} {target['y']:.2f}")
    return " ".join(words)


def is_question(text: str) -> bool:
    return text.strip().endswith("?")


@commander.register("teach-lowlevel")
class TeachLowLevelCommander(Commander):
    """Utters the oracle plan a chunk per question (``simulator.expert.planning``)."""

    def reset(self, context: CommanderContext) -> None:
        self.context = context
        self.planner = KeyPlanner(context.sim, context.task)
        self.answers = Answerer(context, Generator(commander_seed(context)))

    def turn(self, observation: Observation) -> CommanderTurn:
        report = progress_check(self.context.sim.world, self.context.task)
        if report["success"]:
            return CommanderTurn(("Good job, the task is done.",), done=True)
        asked = [u for u in observation.utterances if u.agent_id == FOLLOWER and is_question(u.text)]
        if not asked:
            return CommanderTurn()
        questions = follower_questions(observation)
        answers = [a.text for q in questions if q.question in ANSWERED and (a := self.answers.answer(q))]
        if questions and all(q.question in ANSWERED for q in questions):
            return CommanderTurn(tuple(answers))
        chunk = self.planner.next_chunk()
        return CommanderTurn((*answers, tokens_for(chunk) if chunk else CANNOT_HELP))
