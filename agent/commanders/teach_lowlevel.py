"""The ``teach-lowlevel`` Commander: TEACh's rule-based Commander (appendix E).

When the Follower asks what to do, it runs Progress Check, takes the first unsatisfied
problem key and plans the skill that fixes it with an oracle actor in a fork of the
simulator (shortest paths, TEACh's action names, click positions that select the right
object). Each time it is asked, it utters the plan's next piece, up to and including the
next interaction, as action tokens:
"Forward Forward TurnRight LookDown Pickup Mug at 0.57 0.25". It declares the task done
when Progress Check says so. Unlike TEACh's, its skills cover all 12 task types.
"""

from __future__ import annotations

from agent.interfaces import CommanderContext, CommanderTurn
from agent.registry import commander
from simulator.expert.actor import SkillFailed
from simulator.expert.solver import TaskExpert, unsatisfied_keys
from simulator.sim import FOLLOWER, Observation
from simulator.tasks import progress_check

TOKENS = {
    "Forward": "Forward", "Backward": "Backward", "Turn Left": "TurnLeft", "Turn Right": "TurnRight",
    "Look Up": "LookUp", "Look Down": "LookDown", "Pan Left": "PanLeft", "Pan Right": "PanRight",
}
CANNOT_HELP = "I am not sure how to do that part."


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
class TeachLowLevelCommander:
    """Plans one problem key's skill at a time; utters it a chunk per question, replanning
    whenever the world is not in the state the plan expected (a failed or skipped action)."""

    def reset(self, context: CommanderContext) -> None:
        self.context = context
        self.plan: list[tuple[list[tuple[str, dict]], str]] = []
        self.expected: str | None = None
        self.last_failure: str | None = None

    def _replan(self) -> None:
        fork = self.context.sim.fork()
        expert = TaskExpert(fork, self.context.task)
        expert.actor.vocabulary = "teach"
        expert.actor.trace_states = True
        self.plan = []
        keys = unsatisfied_keys(progress_check(fork.world, self.context.task))
        if not keys:
            return
        try:
            expert.fix(keys[0])
        except SkillFailed as exc:
            self.last_failure = str(exc)  # utter what was planned before the failure, if anything
        actions, states = expert.actor.actions, expert.actor.states
        start = 0
        for i, (name, _) in enumerate(actions):
            if name not in TOKENS or i == len(actions) - 1:
                self.plan.append((actions[start: i + 1], states[i]))
                start = i + 1

    def next_instruction(self) -> str | None:
        """The next chunk of the current plan (replanned if the world went elsewhere)."""
        if not self.plan or self.context.sim.state_hash() != self.expected:
            self._replan()
        if not self.plan:
            return None
        chunk, self.expected = self.plan.pop(0)
        return tokens_for(chunk)

    def turn(self, observation: Observation) -> CommanderTurn:
        report = progress_check(self.context.sim.world, self.context.task)
        if report["success"]:
            return CommanderTurn(("Good job, the task is done.",), done=True)
        asked = [u for u in observation.utterances if u.agent_id == FOLLOWER and is_question(u.text)]
        if not asked:
            return CommanderTurn()
        instruction = self.next_instruction()
        return CommanderTurn((instruction or CANNOT_HELP,))
