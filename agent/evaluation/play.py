"""``nesy play``: a person in the Commander's seat (or the Follower's), in the terminal.

As in Alexa Arena's online evaluation, a person plays one seat of a TATC episode and the
config's agent plays the other, through the same runner as ``nesy eval`` (so limits,
scoring and the log are the same). Before each prompt the Follower's egocentric view
(``follower.png``, when rendering is available) and the top-down map (``map.png``) are
rewritten in the output folder: keep them open in an image viewer that refreshes.

As Commander (default) a person types utterances, ``progress`` (Progress Check),
``search X`` (SearchObject; writes ``search.png`` with X highlighted), an empty line to let
the Follower act, ``done`` to end the episode and ``quit``. As Follower a person types
actions (``forward``, ``turn left``, ``look down``, ``pickup Mug``, ``pickup 0.5 0.4``, or
the Commander's tokens such as ``Pickup Mug at 0.57 0.25``), ``say TEXT`` (or any text
ending in ``?``), ``stop`` and ``quit``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import cv2

from contracts.agents import CommanderContext, CommanderTurn, FollowerAction
from contracts.errors import NesyError
from contracts.observation import FollowerBriefing

ROLES = ("commander", "follower")
COMMANDER_HELP = (
    "commands: TEXT (say it) | progress | search OBJECT | (empty line: let the Follower act) | "
    "done (end the episode) | quit | help"
)
FOLLOWER_HELP = (
    "commands: forward | back | turn left/right | look up/down | pan left/right | "
    "ACTION OBJECT (pickup Mug) | ACTION X Y (pickup 0.5 0.4) | say TEXT | TEXT? | stop | quit | help"
)
ALIASES = {"ahead": "Forward", "forward": "Forward", "back": "Backward", "backward": "Backward",
           "left": "Turn Left", "right": "Turn Right", "up": "Look Up", "down": "Look Down",
           "put": "Place", "place": "Place", "pick": "Pickup", "take": "Pickup"}


class PlayError(NesyError):
    """A bad play request (unknown role or episode)."""


class PlayQuit(Exception):  # noqa: N818 - control flow, not an error
    """The person quit the episode."""


@dataclass
class Console:
    """Where the person reads and types, and where the view images go."""

    out_dir: Path
    read_line: Callable[[], str]
    stream: TextIO = field(default_factory=lambda: sys.stdout)
    egocentric: bool = True
    sim: Any = None
    _renderer: Any = None

    def say(self, text: str = "") -> None:
        print(text, file=self.stream, flush=True)

    def ask(self, prompt: str) -> str | None:
        """One typed line (stripped), or None at the end of input."""
        self.stream.write(prompt)
        self.stream.flush()
        try:
            line = self.read_line()
        except (OSError, ValueError):  # stdin closed or unreadable under us: the end of input
            return None
        if line == "":
            return None
        line = line.rstrip("\n")
        if not getattr(self.stream, "isatty", lambda: False)():
            self.say(line)  # echo scripted input, so a transcript reads like a session
        return line.strip()

    def refresh(self, highlight: str | None = None, name: str = "map.png") -> list[Path]:
        """Rewrite map.png (and follower.png when rendering is available)."""
        from simulator.render import top_down
        from simulator.render.world_view import WorldRenderer, render_objects, room_geometry
        from simulator.sim import FOLLOWER

        world = self.sim.world
        self.out_dir.mkdir(parents=True, exist_ok=True)
        agents = [(a.x, a.z, a.rotation) for a in (world.agents[0], world.agents[1])]
        plan = top_down(room_geometry(world.scene), render_objects(world), agents, highlight, size=512)
        written = [self.out_dir / name]
        cv2.imwrite(str(written[0]), plan[:, :, ::-1])
        if self.egocentric:
            if self._renderer is None:
                self._renderer = WorldRenderer(300, 300)
            rgb = self._renderer.frames(world, FOLLOWER).rgb
            written.append(self.out_dir / "follower.png")
            cv2.imwrite(str(written[-1]), rgb[:, :, ::-1])
        return written

    def close(self) -> None:
        if self._renderer is not None:
            self._renderer.release()


def progress_text(sim: Any, task: Any) -> str:
    from simulator.tasks import progress_check

    report = progress_check(sim.world, task)
    lines = [f"Progress Check: {report['task_desc']} "
             f"({report['goal_conditions_satisfied']}/{report['goal_conditions_total']} goal conditions"
             f"{', DONE' if report['success'] else ''})"]
    for subgoal in report["subgoals"]:
        for step in subgoal["steps"]:
            lines.append(f"  [{'x' if step['success'] else ' '}] {step['desc']} ({step['objectId']})")
    return "\n".join(lines)


def search_text(sim: Any, query: str) -> tuple[str, str | None]:
    from simulator.tasks.search import search_object

    found = search_object(sim.world, query)
    if not found["success"]:
        return f"SearchObject: {found['message']}", None
    where = " in ".join(found.get("parentReceptacles") or []) or "on its own"
    p = found["position"]
    text = (f"SearchObject: {found['objectType']} {found['objectId']} at x={p['x']:.2f} z={p['z']:.2f}, "
            f"inside/on: {where}" + (f", held by agent {found['held_by']}" if found.get("held_by") is not None else ""))
    return text, found["objectId"]


class HumanCommander:
    """The Commander's seat for a person (agent 0: talks, Progress Check, SearchObject)."""

    def __init__(self, console: Console, auto_steps: int = 10) -> None:
        self.console = console
        self.auto_steps = auto_steps

    def reset(self, context: CommanderContext) -> None:
        self.context = context
        self.console.sim = context.sim
        self.first = True
        self.silent = 0
        self.steps_seen = context.sim.steps
        self.console.say(f"You are the Commander. {progress_text(context.sim, context.task).splitlines()[0]}")
        self.console.say(COMMANDER_HELP)

    def turn(self, observation: Any) -> CommanderTurn:
        from simulator.sim import FOLLOWER

        heard = [u.text for u in observation.utterances if u.agent_id == FOLLOWER]
        for text in heard:
            self.console.say(f"Follower: {text}")
        if not (self.first or heard or self.silent >= self.auto_steps):
            self.silent += 1
            return CommanderTurn()
        self.first, self.silent = False, 0
        sim = self.context.sim
        acted = sim.steps - self.steps_seen
        pose = sim.world.agents[FOLLOWER].pose()
        self.console.say(f"(the Follower is at x={pose[0]:.2f} z={pose[1]:.2f} facing {pose[2]}; "
                         f"{acted} simulator steps since your last turn; views in {self.console.out_dir})")
        self.console.refresh()
        while True:
            line = self.console.ask("commander> ")
            if line is None or line.lower() in ("quit", "exit"):
                raise PlayQuit
            self.steps_seen = sim.steps
            word, _, rest = line.partition(" ")
            if line == "":
                return CommanderTurn()
            if line.lower() == "help":
                self.console.say(COMMANDER_HELP)
            elif line.lower() == "progress":
                self.console.say(progress_text(sim, self.context.task))
            elif word.lower() == "search":
                text, object_id = search_text(sim, rest)
                self.console.say(text)
                if object_id:
                    self.console.refresh(object_id, "search.png")
                    self.console.say("(search.png shows it highlighted on the map)")
            elif line.lower() == "done":
                return CommanderTurn((), done=True)
            else:
                return CommanderTurn((line,))


def parse_follower_command(line: str, visible: Callable[[str], str | None]) -> FollowerAction | str:
    """A typed line as a Follower action, or an error message. ``visible(type)`` finds the
    objectId of a visible object of that type."""
    from simulator.actions import ACTIONS, INTERACTION_OPS

    names = {k.lower().replace(" ", ""): k for k in ACTIONS if k not in ("Stop", "Text")}
    names.update({k: v for k, v in ALIASES.items()})
    words = line.split()
    lowered = line.lower()
    if lowered.startswith("say "):
        return FollowerAction.say(line[4:].strip())
    if line.endswith("?"):
        return FollowerAction.say(line)
    if lowered in ("stop", "done"):
        return FollowerAction("Stop")
    for n in (2, 1):  # "turn left", "look down" or one word
        key = "".join(words[:n]).lower()
        if key in names and len(words) >= n:
            action, args = names[key], words[n:]
            break
    else:
        return f"unknown action {words[0]!r}; {FOLLOWER_HELP}"
    if ACTIONS[action].op not in INTERACTION_OPS:
        return FollowerAction(action) if not args else f"{action} takes no arguments"
    if "at" in args:  # the Commander's tokens: Pickup Mug at 0.57 0.25
        args = args[args.index("at") + 1:]
    try:
        if len(args) == 2:
            return FollowerAction(action, {"x": float(args[0]), "y": float(args[1])})
    except ValueError:
        pass
    if len(args) == 1:
        object_id = visible(args[0])
        return FollowerAction(action, {"objectId": object_id}) if object_id else f"no visible {args[0]}"
    return f"{action} needs an object type (pickup Mug) or a point on the view (pickup 0.5 0.4)"


class HumanFollower:
    """The Follower's seat for a person (agent 1: moves, interacts, talks)."""

    def __init__(self, console: Console, sim: Any) -> None:
        self.console = console
        self.sim = sim
        console.sim = sim

    def reset(self, briefing: FollowerBriefing, context: Any = None) -> None:
        self.console.say("You are the Follower." + (f" Your goal: {briefing.goal_text}" if briefing.goal_text
                                                   else " A Commander will tell you what to do."))
        for i, step in enumerate(briefing.step_texts, 1):
            self.console.say(f"  {i}. {step}")
        self.console.say(FOLLOWER_HELP)

    def _visible(self, object_type: str) -> str | None:
        from simulator.sim import FOLLOWER

        objects = [o for o in self.sim.metadata(FOLLOWER)["objects"]
                   if o["visible"] and o["objectType"].lower() == object_type.lower()]
        return min(objects, key=lambda o: o["distance"])["objectId"] if objects else None

    def act(self, observation: Any) -> FollowerAction:
        from simulator.sim import COMMANDER

        for u in observation.utterances:
            if u.agent_id == COMMANDER:
                self.console.say(f"Commander: {u.text}")
        if observation.last_action and observation.last_action != "Text":
            status = "ok" if observation.last_action_success else f"failed: {observation.error_message}"
            self.console.say(f"({observation.last_action}: {status})")
        self.console.refresh()
        while True:
            line = self.console.ask("follower> ")
            if line is None or line.lower() in ("quit", "exit"):
                raise PlayQuit
            if not line:
                continue
            if line.lower() == "help":
                self.console.say(FOLLOWER_HELP)
                continue
            parsed = parse_follower_command(line, self._visible)
            if isinstance(parsed, FollowerAction):
                return parsed
            self.console.say(parsed)


@dataclass
class PlayResult:
    episode_id: str
    result: dict[str, Any] | None  # None if the person quit
    log_path: Path | None


def pick_episode(suite: str, split: str, which: str, data: str | None = None) -> Any:
    from agent.evaluation.suites import load_suite

    episodes = load_suite(suite, split, data)
    if which.isdigit():
        index = int(which)
        if index >= len(episodes):
            raise PlayError(f"--episode {index}: split {split} has {len(episodes)} episodes (0..{len(episodes) - 1})")
        return episodes[index]
    for episode in episodes:
        if episode.episode_id == which:
            return episode
    raise PlayError(f"--episode {which!r}: no such episode id in {suite}/{split} (give an index or an id)")


def play(loaded: Any, episode: Any, role: str, console: Console, auto_steps: int = 10) -> PlayResult:
    """Run one episode with a person in ``role``; writes the log beside the view images."""
    from agent.evaluation.workers import episode_seed, limits_for
    from agent.pairing import build_agents
    from agent.runner import run_episode
    from simulator.sim import Simulator

    if role not in ROLES:
        raise PlayError(f"--role must be one of {', '.join(ROLES)}, got {role!r}")
    if role == "commander" and episode.suite != "tatc":
        raise PlayError("the Commander's seat exists in TATC episodes only (ALFRED has no Commander)")
    config = loaded.config
    sim = Simulator(config.simulator)
    agents = build_agents(loaded, with_commander=role == "follower" and episode.suite == "tatc")
    if role == "commander":
        agents.commander = HumanCommander(console, auto_steps)
        agents.oracles = [o for o in agents.oracles if not o.startswith("commander:")] + ["commander:human"]
    else:
        agents.follower = HumanFollower(console, sim)
        agents.oracles = [o for o in agents.oracles if o.startswith("commander:")]
    console.sim = sim
    console.say(f"episode {episode.episode_id}: {episode.task_type} in {episode.floor_plan}")
    try:
        result, log = run_episode(episode, agents, sim, limits_for(config, episode.suite),
                                  config.evaluation.step_instructions, episode_seed(config.seed, episode.episode_id))
    except PlayQuit:
        console.say("quit: the episode was not finished")
        return PlayResult(episode.episode_id, None, None)
    finally:
        console.close()
    log["simulator"] = {k: getattr(config.simulator, k) for k in ("render", "width", "height",
                                                                  "field_of_view", "interaction_distance")}
    console.out_dir.mkdir(parents=True, exist_ok=True)
    log_path = console.out_dir / f"{episode.episode_id.replace(':', '_')}.json"
    log_path.write_text(json.dumps(log))
    row = result.to_dict()
    console.say(f"end: {row['end_reason']}; success={row['success']}, goal conditions "
                f"{row['goal_conditions_satisfied']}/{row['goal_conditions_total']}, {row['steps']} steps, "
                f"{row['failed_actions']} failed; log {log_path} (nesy replay {log_path})")
    return PlayResult(episode.episode_id, row, log_path)
