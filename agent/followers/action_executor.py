"""The ``action-executor`` Follower: executes the low-level action tokens it is told.

TEACh's rule-based Follower (appendix E): it keeps a queue of actions; whenever the queue
is empty it asks "What should I do next?". An utterance such as
"Forward Forward TurnRight LookDown Pickup Mug at 0.57 0.25" is split into tokens, each one
Follower action (interactions carry an object name and a click position). Utterances that
are not action tokens are ignored. It reads nothing but its observations; its question is
rendered by ``dialogue.generation`` (seeded by the episode).
"""

from __future__ import annotations

from collections import deque

from contracts.agents import Follower, FollowerAction
from contracts.dialogue import Question
from contracts.language import QuestionKind
from contracts.observation import FollowerBriefing, ModuleContext, Observation
from contracts.registry import follower
from dialogue.generation import Generator

MOTIONS = {
    "Forward": "Forward", "Backward": "Backward", "TurnLeft": "Turn Left", "TurnRight": "Turn Right",
    "LookUp": "Look Up", "LookDown": "Look Down", "PanLeft": "Pan Left", "PanRight": "Pan Right",
}
INTERACTIONS = ("Pickup", "Place", "Open", "Close", "ToggleOn", "ToggleOff", "Slice", "Pour")


def parse_action_tokens(text: str) -> list[FollowerAction] | None:
    """The actions in a token utterance, or None if the text is not one."""
    words = text.replace(",", " ").split()
    actions: list[FollowerAction] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in MOTIONS:
            actions.append(FollowerAction(MOTIONS[word]))
            i += 1
        elif word in INTERACTIONS and i + 4 < len(words) and words[i + 2] == "at":
            try:
                x, y = float(words[i + 3]), float(words[i + 4])
            except ValueError:
                return None
            actions.append(FollowerAction(word, {"x": x, "y": y}))
            i += 5
        else:
            return None
    return actions or None


@follower.register("action-executor")
class ActionExecutor(Follower):
    """Executes token instructions; asks for the next instruction when it has none."""

    def __init__(self) -> None:
        self.queue: deque[FollowerAction] = deque()
        self.waiting = False

    def reset(self, briefing: FollowerBriefing, context: ModuleContext) -> None:
        self.queue.clear()
        self.waiting = False
        self.generator = Generator(context.seed)

    def act(self, observation: Observation) -> FollowerAction:
        for utterance in observation.utterances:
            actions = parse_action_tokens(utterance.text)
            if actions:
                self.queue.extend(actions)
                self.waiting = False
        if self.queue:
            return self.queue.popleft()
        if not self.waiting:
            self.waiting = True
            return FollowerAction.say(self.generator.ask(Question(QuestionKind.NEXT)).text)
        return FollowerAction("Stop")
