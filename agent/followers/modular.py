"""The ``modular`` Follower: DESIGN.md's pipeline assembled from registered modules.

One step: the parser turns new utterances into intents (and the briefing's goal into a
task spec) -> perception detects objects -> the mapper updates the belief -> the dialogue
manager may ask a question -> otherwise the planner (subgoals + skills) picks the next
low-level action; with nothing left to do the Follower says Stop. Which modules run is the
config's choice (``modules:``); modules named ``oracle-*`` are given ground truth by the
runner and are listed in every result.
"""

from __future__ import annotations

from typing import Any

from agent.interfaces import FollowerAction, FollowerBriefing
from contracts.registry import follower
from dialogue.manager import DialogueState
from simulator.sim import Observation

COMMANDER = 0


@follower.register("modular")
class ModularFollower:
    MODULE_FAMILIES = ("parser", "perception", "mapper", "planner", "dialogue_manager")

    def __init__(self, modules: dict[str, Any]) -> None:
        self.modules = modules
        self.goal = None
        self.intents: list = []
        self.stopped = False

    def oracle_modules(self) -> list[Any]:
        """The modules that take ground truth (the runner attaches it)."""
        return [m for m in self.modules.values() if getattr(type(m), "registered_name", "").startswith("oracle")]

    def reset(self, briefing: FollowerBriefing) -> None:
        self.briefing = briefing
        self.goal = None
        self.intents = []
        for module in self.modules.values():
            if hasattr(module, "reset"):
                module.reset()

    def act(self, observation: Observation) -> FollowerAction:
        parser = self.modules["parser"]
        heard = [u for u in observation.utterances if u.agent_id == COMMANDER]
        for utterance in heard:
            self.intents.extend(parser.parse(utterance.text))
        if self.goal is None:
            self.goal = parser.parse_goal(self.briefing.goal_text, self.briefing.step_texts)
        detections = self.modules["perception"].detect(observation)
        belief = self.modules["mapper"].update(observation, detections)
        action = self.modules["planner"].next_action(self.goal, belief, detections)
        state = DialogueState(
            has_goal=self.goal is not None, planner_idle=action is None,
            heard_since_last_question=bool(heard),
        )
        # ALFRED episodes have no Commander to answer: nobody to ask
        question = None if self.briefing.suite == "alfred" else self.modules["dialogue_manager"].next_question(state)
        if action is not None:
            return FollowerAction(action.action, dict(action.target))
        if question is not None:
            return FollowerAction.say(question)
        return FollowerAction("Stop")
