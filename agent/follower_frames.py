"""Detector frames as the Follower sees them: a Follower run on TATC *train* episodes (train
floor plans only; for training) or *valid_unseen* episodes (their floor plans; for measuring
the detector where the Follower is evaluated, never for training), every ``every``-th of its
frames kept with the renderer's exact instance masks, as a COCO set in the format of
``perception.data_gen``.

Why: the random poses of ``data_gen`` look at things from 0.5-2 m on AI2-THOR's lattice; the
Follower's own frames are where it has to detect (close, looking down into sinks, drawers
and garbage cans, at a knife on a sink's rim). In the Follower's TATC valid_unseen frames
the shipped detector found knives within 1.5 m in 0-13% of the frames, bread slices in
2-19% (docs/perception.md, BENCHMARKS.md stop 97). These frames let a fine-tune see them.

An offline tool, like ``perception.data_gen`` (it drives the simulator and reads its instance
buffer; it runs a Follower, so it lives in ``agent``; no Follower module imports it). The
Follower is built from a config (default: ``configs/default.yaml`` with ``oracle-seg``
perception, which gets through a task about three times faster than the detector and still
walks, searches and looks as the default Follower does); it is paired with the config's Commander as in an evaluation. A frame equal
to one already kept from the same episode is skipped (the Follower sees a frame again after
a question or a failed action). Each episode is written as it ends (``parts/``), so an
interrupted run resumes where it stopped; the set's ``annotations.json`` is assembled from
the parts.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from contracts.errors import NesyError
from perception.coco import annotate, write_annotations

FOLLOWER_CONFIG = "default"
FOLLOWER_OVERRIDES = ("modules.perception.name=oracle-seg",)


@dataclass(frozen=True)
class FollowerFrameSpec:
    """Which episodes, which frames."""

    episodes: int  # this many TATC episodes of ``split``, spread over it (see ``chosen``)
    split: str = "train"  # train (to train on) | valid_unseen (to measure on)
    every: int = 3  # keep every this-many-th frame the Follower acts on
    config: str = FOLLOWER_CONFIG
    overrides: tuple[str, ...] = FOLLOWER_OVERRIDES
    min_pixels: int = 10
    max_steps: int = 400  # a Follower stuck in one place adds the same views: the episode is cut here


def chosen(spec: FollowerFrameSpec) -> list[Any]:
    """``spec.episodes`` TATC episodes of ``spec.split``, evenly spread over the split's file
    order (so every task type and many floor plans are in a small set); every one is checked
    to lie in a floor plan of the detector's split of that name."""
    from agent.evaluation.suites import load_suite
    from perception.data_gen import floor_plans

    episodes = load_suite("tatc", spec.split)
    if not 1 <= spec.episodes <= len(episodes):
        raise NesyError(f"follower frames: the episode count must be 1..{len(episodes)} (TATC {spec.split}), "
                        f"got {spec.episodes}")
    stride = len(episodes) / spec.episodes
    picked = [episodes[int(k * stride)] for k in range(spec.episodes)]
    outside = sorted({e.floor_plan for e in picked} - set(floor_plans(spec.split)))
    if outside:
        raise NesyError(f"TATC {spec.split} episodes in floor plans outside the detector's {spec.split} split: "
                        f"{outside}")
    return picked


class FrameRecorder:
    """Wraps a Follower's ``act``: every ``every``-th call keeps the simulator's current
    Follower frame and its instance masks (new frames only)."""

    def __init__(self, worker: Any, spec: FollowerFrameSpec, image_dir: Path, prefix: str) -> None:
        self.worker, self.spec, self.image_dir, self.prefix = worker, spec, image_dir, prefix
        self.calls, self.seen = 0, set()
        self.images: list[dict[str, Any]] = []
        self.annotations: list[list[dict[str, Any]]] = []

    def observe(self) -> None:
        import cv2

        from contracts.observation import FOLLOWER
        from perception.data_gen import frame_instances

        self.calls += 1
        if (self.calls - 1) % self.spec.every:
            return
        sim = self.worker.sim
        frames = sim.instance_frame(FOLLOWER)
        digest = hashlib.blake2b(frames.rgb.tobytes(), digest_size=16).digest()
        if digest in self.seen:
            return
        self.seen.add(digest)
        instances = frame_instances(sim.world, frames, self.spec.min_pixels)
        if not instances:
            return
        name = f"{self.prefix}_{self.calls:04d}.png"
        cv2.imwrite(str(self.image_dir / name), frames.rgb[:, :, ::-1])
        agent = sim.world.agents[FOLLOWER]
        h, w = frames.rgb.shape[:2]
        self.images.append({"id": 0, "file_name": name, "width": w, "height": h, "floor_plan": sim.world.scene.name,
                            "pose": [agent.x, agent.z, agent.rotation, agent.horizon], "source": "follower"})
        self.annotations.append(annotate(0, instances, 0))


_WORKERS: dict[tuple[str, tuple[str, ...]], Any] = {}


def _worker(spec: FollowerFrameSpec) -> Any:
    """One EpisodeWorker per process and config (the Follower and the simulator are built once)."""
    from agent.config import to_yaml
    from agent.evaluation.workers import EpisodeWorker
    from agent.settings import load_config

    key = (spec.config, spec.overrides)
    if key not in _WORKERS:
        loaded = load_config(spec.config, list(spec.overrides))
        if loaded.config.simulator.render != "egl":
            raise NesyError(f"follower frames need a rendered simulator (simulator.render=egl), "
                            f"{spec.config} has {loaded.config.simulator.render!r}")
        loaded.config.evaluation.max_steps = spec.max_steps
        _WORKERS[key] = EpisodeWorker(to_yaml(loaded.config), suite="tatc")
    return _WORKERS[key]


def record_episode(episode: Any, spec: FollowerFrameSpec, image_dir: Path) -> dict[str, Any]:
    """Run the Follower on one episode and keep its frames; the episode's part record."""
    worker = _worker(spec)
    follower = worker.agents.follower
    recorder = FrameRecorder(worker, spec, image_dir, episode.episode_id)
    act = follower.act

    def recorded_act(observation: Any) -> Any:
        recorder.observe()
        return act(observation)

    follower.act = recorded_act
    try:
        row, _ = worker.run(episode)
    finally:
        del follower.act  # the class's own method again
    return {"episode": episode.episode_id, "task_type": episode.task_type, "floor_plan": episode.floor_plan,
            "success": row["success"], "steps": row["steps"], "images": recorder.images,
            "annotations": recorder.annotations}


def _job(job: tuple[Any, FollowerFrameSpec, str, str]) -> str:
    episode, spec, image_dir, part = job
    record = record_episode(episode, spec, Path(image_dir))
    tmp = Path(part).with_suffix(".tmp")
    tmp.write_text(json.dumps(record), encoding="utf-8")
    tmp.replace(part)
    return part


def generate_follower_frames(spec: FollowerFrameSpec, out: Path, workers: int = 1,
                             progress: bool = True) -> dict[str, Any]:
    """Write (or resume) the set in ``out`` (``images/``, ``parts/``, ``annotations.json``)."""
    from tqdm import tqdm

    from perception.data_gen import mapped

    out = Path(out)
    image_dir, parts = out / "images", out / "parts"
    image_dir.mkdir(parents=True, exist_ok=True)
    parts.mkdir(exist_ok=True)
    episodes = chosen(spec)
    _check_resumable(spec, out, parts)
    jobs = [(e, spec, str(image_dir), str(parts / f"{e.episode_id}.json")) for e in episodes
            if not (parts / f"{e.episode_id}.json").is_file()]
    bar = tqdm(total=len(episodes), initial=len(episodes) - len(jobs), desc="follower frames", unit="episode",
               disable=not progress)
    try:
        for _ in mapped(_job, jobs, workers):
            bar.update(1)
    finally:
        bar.close()
    return assemble(spec, out, episodes)


def _check_resumable(spec: FollowerFrameSpec, out: Path, parts: Path) -> None:
    """A set is resumed only with the settings that began it (kept in ``spec.json``)."""
    wanted = json.loads(json.dumps(asdict(spec)))
    kept = out / "spec.json"
    if kept.is_file():
        began = json.loads(kept.read_text(encoding="utf-8"))
        if {k: v for k, v in began.items() if k != "episodes"} != {k: v for k, v in wanted.items() if k != "episodes"}:
            raise NesyError(f"{out} holds follower frames made with other settings ({began}); choose another "
                            "--out or delete it")
    elif any(parts.glob("*.json")):
        raise NesyError(f"{out} holds follower frames without their settings ({kept} is missing); delete it")
    kept.write_text(json.dumps(wanted), encoding="utf-8")


def assemble(spec: FollowerFrameSpec, out: Path, episodes: list[Any]) -> dict[str, Any]:
    """``annotations.json`` from the episodes' parts, image and annotation ids in episode order."""
    images, annotations, runs = [], [], []
    for episode in episodes:
        record = json.loads((out / "parts" / f"{episode.episode_id}.json").read_text(encoding="utf-8"))
        runs.append({k: record[k] for k in ("episode", "task_type", "floor_plan", "success", "steps")})
        for image, anns in zip(record["images"], record["annotations"], strict=True):
            image = {**image, "id": len(images) + 1}
            images.append(image)
            for ann in anns:
                annotations.append({**ann, "id": len(annotations) + 1, "image_id": image["id"]})
    info = {"description": "nesy detector set: the Follower's own frames (rendered, exact instance masks)",
            "split": spec.split, "floor_plans": sorted({r["floor_plan"] for r in runs}),
            "follower": asdict(spec), "episodes": runs}
    write_annotations(out, images, annotations, info)
    return {"split": spec.split, "images": len(images), "annotations": len(annotations), "episodes": len(runs),
            "floor_plans": len(info["floor_plans"]), "follower_successes": sum(r["success"] for r in runs)}
