"""``nesy replay``: an episode re-simulated from its log, as an animated GIF or an HTML page.

The log (``logs/<episode_id>.json`` of ``nesy eval``, or of ``nesy play``) holds the
episode's start state and every interaction. The replay resets a simulator to that start
state (with the simulator settings the log records, since clicks resolve through the
rendered instance buffer when rendering was on) and applies the interactions in order,
checking that each action succeeds or fails as it did. Each frame shows the Follower's
egocentric view when rendering is available (``simulator.render.available()``), the
top-down map (Commander blue, Follower red), the action and the dialogue so far. Without
EGL the frames have the top-down map only. With ``follower_map`` (perception and mapper
names; the episode must have been rendered) a third panel shows the map that mapper builds
from the Follower's observations (``mapping.debug_view``), replayed step by step.
"""

from __future__ import annotations

import base64
import html
import json
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from contracts.errors import NesyError

PANEL = 300
CAPTION = 150
AGENT_NAMES = {0: "Commander", 1: "Follower"}
TARGET_KEYS = ("x", "y", "objectId", "receptacleObjectId")


class ReplayError(NesyError):
    """A file that is not an episode log."""


@dataclass
class Replay:
    title: str
    frames: list[np.ndarray] = field(default_factory=list)
    captions: list[str] = field(default_factory=list)
    dialogue: list[tuple[int, str, str]] = field(default_factory=list)  # (frame, speaker, text)
    divergences: list[str] = field(default_factory=list)
    egocentric: bool = False


def load_log(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    try:
        log = json.loads(path.read_text())
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such episode log") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ReplayError(f"{path}: not an episode log (not JSON: {exc})") from None
    if not isinstance(log, dict) or "episode" not in log or "interactions" not in log:
        raise ReplayError(f"{path}: not an episode log (expected 'episode' and 'interactions', as "
                          "written to DIR/logs/ by `nesy eval`)")
    return log


def _ascii(text: str) -> str:
    return text.encode("ascii", "replace").decode()


def _task_text(episode: Any) -> str:
    if episode.suite == "tatc":
        from simulator.tasks import instantiate, load_task_library

        try:
            task = instantiate(load_task_library(), episode.task_name, episode.task_params)
            return getattr(task, "desc", "") or f"{episode.task_name} {' '.join(episode.task_params)}"
        except NesyError:
            return episode.task_name
    return episode.goal_text or episode.task_type


def _caption(width: int, lines: list[tuple[str, tuple[int, int, int]]]) -> np.ndarray:
    strip = np.full((CAPTION, width, 3), 24, dtype=np.uint8)
    y = 18
    for text, color in lines:
        cv2.putText(strip, _ascii(text), (8, y), cv2.FONT_HERSHEY_SIMPLEX, 0.42, color, 1, cv2.LINE_AA)
        y += 17
        if y > CAPTION - 4:
            break
    return strip


def _describe(entry: dict[str, Any]) -> str:
    who = AGENT_NAMES.get(entry.get("agent_id"), str(entry.get("agent_id")))
    if entry["action"] == "Text":
        return f"{who} says"
    target = ""
    if "x" in entry and "y" in entry:
        target = f" at ({entry['x']:.2f}, {entry['y']:.2f})"
    elif entry.get("objectId"):
        target = f" {entry['objectId']}"
    status = "ok" if entry.get("success", True) else f"FAILED: {entry.get('errorMessage', '')}"
    return f"{who}: {entry['action']}{target} ({status})"


class _FollowerMap:
    """A perception module and a mapper fed with the Follower's replayed observations."""

    def __init__(self, sim: Any, episode: Any, perception: str, mapper: str) -> None:
        from contracts.observation import ModuleContext
        from contracts.registry import registry
        from simulator.oracle import OracleAccess

        self.perception = registry("perception").build(perception)
        self.mapper = registry("mapper").build(mapper)
        context = ModuleContext(sim.camera_intrinsics(), sim.rendering)
        for module in (self.perception, self.mapper):
            if hasattr(module, "attach_oracle"):
                module.attach_oracle(OracleAccess(sim, episode))
            module.reset(context)
        self.belief = None

    def observe(self, observation: Any) -> None:
        self.belief = self.mapper.update(observation, self.perception.detect(observation))

    def panel(self) -> np.ndarray:
        from mapping.debug_view import draw_belief

        if self.belief is None:
            return np.zeros((PANEL, PANEL, 3), dtype=np.uint8)
        image = draw_belief(self.belief, scale=1)
        h, w = image.shape[:2]
        k = PANEL / max(h, w)
        image = cv2.resize(image, (max(1, int(w * k)), max(1, int(h * k))), interpolation=cv2.INTER_NEAREST)
        out = np.zeros((PANEL, PANEL, 3), dtype=np.uint8)
        out[: image.shape[0], : image.shape[1]] = image
        return out


class _Drawer:
    """Draws frames of a simulator's current state."""

    def __init__(self, sim: Any, egocentric: bool, follower_map: _FollowerMap | None = None) -> None:
        from simulator.render.world_view import WorldRenderer

        self.sim = sim
        self.ego = WorldRenderer(PANEL, PANEL) if egocentric else None
        self.follower_map = follower_map

    def panels(self) -> np.ndarray:
        from simulator.render import top_down
        from simulator.render.world_view import render_objects, room_geometry
        from simulator.sim import FOLLOWER

        world = self.sim.world
        agents = [(a.x, a.z, a.rotation) for a in (world.agents[0], world.agents[1])]
        plan = top_down(room_geometry(world.scene), render_objects(world), agents, size=PANEL)
        panels = [plan] if self.ego is None else [np.array(self.ego.frames(world, FOLLOWER).rgb), plan]
        if self.follower_map is not None:
            panels.append(self.follower_map.panel())
        return np.concatenate(panels, axis=1)

    def close(self) -> None:
        if self.ego is not None:
            self.ego.release()


def replay_log(log: dict[str, Any], egocentric: bool | None = None, stride: int = 1,
               follower_map: tuple[str, str] | None = None) -> Replay:
    """Re-simulate a logged episode; one frame at the start, after every ``stride`` Follower
    actions, after every utterance and at the end. ``follower_map``: (perception, mapper)
    names whose map of the Follower's observations is drawn beside the views."""
    from simulator import render
    from simulator.episodes.model import episode_from_dict
    from simulator.sim import FOLLOWER, Simulator

    episode = episode_from_dict(log["episode"])
    settings = dict(log.get("simulator") or {})
    if egocentric is None:
        egocentric = render.available()
    replay = Replay(f"{episode.episode_id} | {episode.task_type} | {episode.floor_plan}", egocentric=egocentric)
    if settings.get("render") == "egl" and not render.available():
        settings["render"] = "none"
        replay.divergences.append("the episode ran with rendering (clicks resolved on rendered "
                                  "frames); replayed symbolically since EGL is unavailable")
    if follower_map is not None and settings.get("render") != "egl":
        raise ReplayError("the Follower's map is built from its depth frames: this episode was not run with "
                          "simulator.render=egl (or EGL is unavailable here)")
    sim = Simulator(LogSettings(**settings) if settings else None)
    observation = sim.reset(episode.start)
    mapping_panel = _FollowerMap(sim, episode, *follower_map) if follower_map is not None else None
    if mapping_panel is not None:
        mapping_panel.observe(observation)
    drawer = _Drawer(sim, egocentric, mapping_panel)
    task = _task_text(episode)
    said: list[str] = []
    interactions = log["interactions"]

    def frame(event: str) -> None:
        lines = [(replay.title, (255, 255, 255)), (f"task: {task}", (200, 200, 120)), (event, (140, 220, 255))]
        lines += [(line, (220, 220, 220)) for line in said[-5:]]
        image = drawer.panels()
        replay.frames.append(np.concatenate([image, _caption(image.shape[1], lines)], axis=0))
        replay.captions.append(event)

    try:
        frame(f"start (0/{len(interactions)})")
        motions = 0
        for index, entry, apply in logged_steps(sim, log, replay.divergences):
            agent, action = entry.get("agent_id"), entry.get("action")
            event = f"{index}/{len(interactions)}  {_describe(entry)}"
            if action == "Text":
                speaker = AGENT_NAMES.get(agent, str(agent))
                text = entry.get("utterance", "")
                for piece in textwrap.wrap(f"{speaker}: {text}", 92) or [""]:
                    said.append(piece)
                replay.dialogue.append((len(replay.frames), speaker, text))
            if apply is None:
                frame(event)
                continue
            result = apply()
            if mapping_panel is not None and agent == FOLLOWER:
                mapping_panel.observe(result.observation)
            motions += 1
            if motions % stride == 0 or not result.success or index == len(interactions):
                frame(event)
        end = log.get("result") or {}
        if end:
            frame(f"end: {end.get('end_reason', '?')}, success={end.get('success')}, "
                  f"goal conditions {end.get('goal_conditions_satisfied')}/{end.get('goal_conditions_total')}")
    finally:
        drawer.close()
        sim.close()
    return replay


def logged_steps(sim: Any, log: dict[str, Any], divergences: list[str],
                 label: str = "") -> Iterator[tuple[int, dict[str, Any], Callable[[], Any] | None]]:
    """The log's interactions in order, on ``sim`` reset to the log's start: (index from 1,
    entry, apply). An utterance is said to ``sim`` before it is yielded; it and a Stop come
    with ``apply`` None. For any other action ``apply()`` steps ``sim`` as logged and returns
    the result, adding to ``divergences`` (each starting with ``label``) when the action
    succeeds or fails otherwise than logged."""
    from simulator.sim import COMMANDER, FOLLOWER

    for index, entry in enumerate(log["interactions"], 1):
        agent, action = entry.get("agent_id"), entry.get("action")
        if action == "Text":
            sim.say(COMMANDER if agent == COMMANDER else FOLLOWER, entry.get("utterance", ""))
        yield index, entry, None if action in ("Text", "Stop") else partial(
            _apply_logged, sim, index, entry, divergences, label)


def _apply_logged(sim: Any, index: int, entry: dict[str, Any], divergences: list[str], label: str) -> Any:
    agent, action = entry.get("agent_id"), entry.get("action")
    result = sim.step(agent, action, **{k: entry[k] for k in TARGET_KEYS if k in entry})
    if bool(result.success) != bool(entry.get("success", True)):
        divergences.append(f"{label}interaction {index} ({action}): logged success={entry.get('success')}, "
                           f"replayed success={result.success} {result.error_message}".strip())
    return result


@dataclass(frozen=True)
class LogSettings:
    """The simulator settings an episode log records (its "simulator" entry)."""

    render: str = "none"
    width: int = 300
    height: int = 300
    field_of_view: float = 90.0
    interaction_distance: float = 1.5
    occlusion: bool = False


def write_gif(replay: Replay, path: Path, fps: float = 4.0) -> Path:
    from PIL import Image

    images = [Image.fromarray(f) for f in replay.frames]
    durations = [int(1000 / fps)] * len(images)
    durations[-1] = 2000  # linger on the outcome
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=False)
    return path


def write_html(replay: Replay, path: Path, fps: float = 4.0) -> Path:
    frames = []
    for image in replay.frames:
        ok, data = cv2.imencode(".jpg", image[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 85])
        frames.append("data:image/jpeg;base64," + base64.b64encode(data.tobytes()).decode())
    dialogue = "\n".join(
        f'<li data-frame="{f}"><b>{html.escape(who)}:</b> {html.escape(text)}</li>' for f, who, text in replay.dialogue
    )
    notes = "".join(f"<p class=warn>{html.escape(d)}</p>" for d in replay.divergences)
    page = _HTML.format(
        title=html.escape(replay.title), frames=json.dumps(frames), captions=json.dumps(replay.captions),
        dialogue=dialogue, notes=notes, last=len(frames) - 1, interval=int(1000 / fps),
    )
    path.write_text(page)
    return path


_HTML = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;margin:16px;background:#1b1c20;color:#ddd}}
#wrap{{display:flex;gap:18px}} ol{{max-height:560px;overflow:auto;width:420px}}
li.now{{background:#3a4a6a}} li.future{{opacity:.35}} .warn{{color:#f96}}</style></head><body>
<h3>{title}</h3>{notes}
<div id=wrap><div><img id=frame><br>
<button id=play>play</button> <input id=slider type=range min=0 max={last} value=0 style="width:420px">
<div id=caption></div></div><ol id=dialogue>{dialogue}</ol></div>
<script>
const frames={frames}, captions={captions};
const img=document.getElementById('frame'), slider=document.getElementById('slider');
const cap=document.getElementById('caption'), items=[...document.querySelectorAll('#dialogue li')];
let timer=null;
function show(i){{slider.value=i; img.src=frames[i]; cap.textContent=captions[i];
  let now=null; items.forEach(li=>{{const f=+li.dataset.frame; li.className=f>i?'future':'';
  if(f<=i) now=li;}}); if(now){{now.className='now'; now.scrollIntoView({{block:'nearest'}});}}}}
slider.oninput=()=>show(+slider.value);
document.getElementById('play').onclick=()=>{{ if(timer){{clearInterval(timer);timer=null;return;}}
  timer=setInterval(()=>{{const i=+slider.value+1; if(i>{last}){{clearInterval(timer);timer=null;}} else show(i);}},{interval});}};
show(0);
</script></body></html>
"""


def replay(log_path: str | Path, out: str | Path | None = None, egocentric: bool | None = None,
           stride: int = 1, fps: float = 4.0, follower_map: tuple[str, str] | None = None) -> tuple[Path, Replay]:
    """Write the replay of ``log_path`` to ``out`` (``.gif`` or ``.html``; default: the log's
    name with ``.gif``)."""
    if stride < 1:
        raise ReplayError(f"--stride must be at least 1, got {stride}")
    log_path = Path(log_path)
    target = Path(out) if out else log_path.with_suffix(".gif")
    if target.suffix.lower() not in (".gif", ".html"):
        raise ReplayError(f"{target}: the replay is written as .gif or .html")
    result = replay_log(load_log(log_path), egocentric, stride, follower_map)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.suffix.lower() == ".gif":
        write_gif(result, target, fps)
    else:
        write_html(result, target, fps)
    return target, result
