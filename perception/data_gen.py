"""Detector training data from the renderer: COCO sets of exact instance masks.

An offline tool (it drives the simulator; the ``maskrcnn`` module never imports it). A set
is made of *chunks*: one seeded ``random_start`` of a floor plan (``simulator.spawn``),
its states randomised further (openable things opened, toggleables switched, sliceable
food sliced into AI2-THOR's pieces, food cooked, containers filled), then several Follower
poses near objects and receptacles: a fixed object's recorded interaction pose (ALFRED's
own agent poses), or a navigable cell 0.5-2 m from an object, turned towards it on
AI2-THOR's 90-degree lattice, horizon pointed at it and snapped to 15 degrees in
AI2-THOR's -30..60, or now and then a random navigable pose. With ``p_close_up`` a frame is
instead a close-up of a small object as a Follower sees it when it is about to pick it up: a
pickupable type drawn uniformly (then one of its instances), from a cell 0.5-1.25 m away.
Every object with at least ``min_pixels`` pixels in the renderer's instance buffer is annotated.

The training set draws from the train floor plans only, the validation set from
valid_unseen's (``simulator.episodes.splits``); test floor plans are never used. Chunks are
independent and seeded by (seed, chunk index), so the set is the same for any number of
worker processes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from contracts.errors import NesyError
from perception.classes import CLASSES
from perception.coco import InstanceMask, annotate, write_annotations

SPLITS = ("train", "valid_unseen")
HORIZONS = (-30, -15, 0, 15, 30, 45, 60)
CLOSE_UP_OFF_AXIS = 20.0  # degrees: a close-up's target stays well inside ALFRED's 60-degree view
LIQUIDS = ("water", "coffee", "wine")


@dataclass(frozen=True)
class DataSpec:
    """What set to make."""

    split: str  # train | valid_unseen: whose floor plans
    images: int
    seed: int = 0
    frames_per_start: int = 8
    size: int = 300  # square frames
    fields_of_view: tuple[float, ...] = (90.0,)  # one per chunk, drawn from these
    min_pixels: int = 10
    p_open: float = 0.35
    p_toggle: float = 0.5
    p_slice: float = 0.25
    p_cook: float = 0.2
    p_fill: float = 0.3
    # close-ups of pickupable objects from where a Follower picks them up (0: the sets made
    # before this option, frame for frame); the other poses target any object at 0.5-2 m,
    # where a knife is 70 pixels at the median, in one frame of 16
    p_close_up: float = 0.0
    # the types close-ups are drawn from where the floor plan has any (empty: every pickupable
    # type); e.g. the cutlery the detector misses
    close_up_types: tuple[str, ...] = ()


@dataclass(frozen=True)
class Chunk:
    index: int
    scene: str
    seed: int
    first_image: int
    frames: int
    field_of_view: float
    spec: DataSpec = field(repr=False)


def floor_plans(split: str) -> list[str]:
    from simulator.episodes.splits import TEST_UNSEEN, VALID_UNSEEN, split_floor_plans

    if split not in SPLITS:
        raise NesyError(f"detector data split must be one of {', '.join(SPLITS)}, got {split!r}")
    plans = split_floor_plans(split)
    if split == "train":
        assert not set(plans) & set(VALID_UNSEEN + TEST_UNSEEN), "held-out floor plans in the train split"
    return plans


def plan_chunks(spec: DataSpec) -> list[Chunk]:
    """The chunks of a set: floor plans in a seeded order, cycled, so every plan is used
    about equally."""
    plans = floor_plans(spec.split)
    rng = random.Random(f"detector-data:{spec.split}:{spec.seed}")
    order = plans[:]
    rng.shuffle(order)
    chunks, first, k = [], 0, 0
    while first < spec.images:
        frames = min(spec.frames_per_start, spec.images - first)
        fov = spec.fields_of_view[rng.randrange(len(spec.fields_of_view))]
        chunks.append(Chunk(k, order[k % len(order)], rng.randrange(2**31), first, frames, fov, spec))
        first, k = first + frames, k + 1
    return chunks


def randomize_states(world: Any, spec: DataSpec, rng: random.Random) -> None:
    """Open, toggle, slice, cook and fill objects at random (AI2-THOR states the detector
    must know in every look)."""
    from simulator import rules
    from simulator.actions import set_open

    for obj in [world.objects[k] for k in sorted(world.objects)]:
        if obj.object_id not in world.objects:
            continue
        if obj.openable and rng.random() < spec.p_open:
            set_open(world, obj, True)  # a drawer's contents come out with it
        if obj.toggleable and rng.random() < spec.p_toggle:
            obj.is_toggled = not obj.is_toggled
        if obj.sliceable and not obj.is_sliced and obj.held_by is None and rng.random() < spec.p_slice:
            pieces = rules.slice_object(world, obj)
            if rng.random() < spec.p_cook:
                for pid in pieces:
                    world.objects[pid].is_cooked = world.objects[pid].cookable
            continue
        if obj.cookable and rng.random() < spec.p_cook:
            obj.is_cooked = True
        if obj.fillable and rng.random() < spec.p_fill:
            obj.is_filled, obj.liquid = True, rng.choice(LIQUIDS)


def sample_pose(world: Any, rng: random.Random, p_close_up: float = 0.0,
                close_up_types: tuple[str, ...] = ()) -> tuple[float, float, int, float]:
    """A Follower pose (x, z, rotation, horizon) near an object or receptacle."""
    from simulator.scenes import cell_center

    scene = world.scene
    cells = sorted(scene.navigable)
    if p_close_up > 0 and rng.random() < p_close_up:
        close = _close_up(world, cells, rng, close_up_types)
        if close is not None:
            return close
    roll = rng.random()
    if roll < 0.3:
        recorded = sorted(o.interaction_pose for o in scene.fixed_objects.values() if o.interaction_pose)
        recorded = [p for p in recorded if _cell(p[0], p[1]) in scene.navigable]
        if recorded:
            x, z, rotation, horizon = rng.choice(recorded)
            return x, z, int(rotation) % 360, float(horizon)
    if roll > 0.9:
        x, z = cell_center(rng.choice(cells))
        return x, z, rng.choice((0, 90, 180, 270)), float(rng.choice(HORIZONS))
    candidates = [o for o in (world.objects[k] for k in sorted(world.objects))
                  if o.held_by is None and not world.is_hidden(o.object_id)]
    return _facing(rng.choice(candidates).position, cells, (0.5, 2.0), rng)


def _close_up(world: Any, cells: list, rng: random.Random,
              types: tuple[str, ...] = ()) -> tuple[float, float, int, float] | None:
    """A pose 0.5-1.25 m from a pickupable object, its type drawn uniformly (so knives and
    pens come up as often as apples) from ``types`` where the floor plan has any of them, else
    from all; None when the floor plan has nothing to pick up."""
    by_type: dict[str, list[Any]] = {}
    for key in sorted(world.objects):
        obj = world.objects[key]
        if obj.pickupable and obj.held_by is None and not world.is_hidden(key):
            by_type.setdefault(obj.object_type, []).append(obj)
    if not by_type:
        return None
    wanted = sorted(set(types) & set(by_type)) or sorted(by_type)
    target = rng.choice(by_type[rng.choice(wanted)])
    return _facing(target.position, cells, (0.5, 1.25), rng, max_off=CLOSE_UP_OFF_AXIS)


def _heading(x: float, z: float, tx: float, tz: float) -> float:
    return math.degrees(math.atan2(tx - x, tz - z))  # 0 faces +z, 90 faces +x


def _off_axis(x: float, z: float, tx: float, tz: float) -> float:
    """Degrees between the direction to the target and the nearest 90-degree heading."""
    h = _heading(x, z, tx, tz) % 90.0
    return min(h, 90.0 - h)


def _facing(target: tuple[float, float, float], cells: list, distances: tuple[float, float],
            rng: random.Random, max_off: float | None = None) -> tuple[float, float, int, float]:
    """A navigable cell at ``distances`` (else any; with ``max_off``, only cells from which the
    target lies within that many degrees of a lattice heading, if any) turned towards
    ``target`` on the 90-degree lattice, the horizon pointed at it, snapped to 15 degrees and
    jittered."""
    from simulator.geometry import CAMERA_HEIGHT
    from simulator.scenes import cell_center

    tx, ty, tz = target
    near = [c for c in cells if distances[0] <= math.dist(cell_center(c), (tx, tz)) <= distances[1]]
    if max_off is not None:
        near = [c for c in near if _off_axis(*cell_center(c), tx, tz) <= max_off] or near
    x, z = cell_center(rng.choice(near or cells))
    heading = _heading(x, z, tx, tz)
    rotation = int(round(heading / 90.0)) * 90 % 360
    down = math.degrees(math.atan2(CAMERA_HEIGHT - ty, max(math.dist((x, z), (tx, tz)), 0.1)))
    horizon = min(max(round(down / 15.0) * 15 + rng.choice((-15, 0, 0, 15)), -30), 60)
    return x, z, rotation, float(horizon)


def _cell(x: float, z: float) -> tuple[int, int]:
    from simulator.scenes import to_cell

    return to_cell(x, z)


_SIMS: dict[tuple, Any] = {}


def _simulator(size: int, fov: float) -> Any:
    from simulator.sim import Simulator

    key = (size, fov)
    if key not in _SIMS:
        _SIMS[key] = Simulator(SimpleNamespace(render="egl", width=size, height=size, field_of_view=fov))
    return _SIMS[key]


def frame_instances(world: Any, frames: Any, min_pixels: int) -> list[InstanceMask]:
    """Every drawn object with at least ``min_pixels`` pixels, as a typed exact mask."""
    counts = np.bincount(frames.instance.ravel())
    out = []
    for label in np.flatnonzero(counts >= min_pixels).tolist():
        object_id = frames.ids.get(label)
        if label == 0 or object_id is None or object_id not in world.objects:
            continue
        object_type = world.objects[object_id].object_type
        if object_type not in CLASSES:
            raise NesyError(f"object type {object_type!r} ({world.scene.name}) is not one of the detector's "
                            "classes: add it to perception/classes.py")
        out.append(InstanceMask(object_type, frames.instance == label))
    return out


def render_chunk(chunk: Chunk, image_dir: str) -> tuple[list[dict], list[list[dict]]]:
    """Render one chunk's frames into ``image_dir``: (image records, per-image annotations
    with ids still to be assigned)."""
    import cv2

    from contracts.observation import FOLLOWER
    from simulator.spawn import random_start

    spec = chunk.spec
    sim = _simulator(spec.size, chunk.field_of_view)
    rng = random.Random(f"detector-chunk:{chunk.seed}")
    sim.reset(random_start(chunk.scene, chunk.seed))
    world = sim.world
    randomize_states(world, spec, rng)
    images, annotations = [], []
    agent = world.agents[FOLLOWER]
    for k in range(chunk.frames):
        agent.x, agent.z, agent.rotation, agent.horizon = sample_pose(world, rng, spec.p_close_up, spec.close_up_types)
        frames = sim.instance_frame(FOLLOWER)
        image_id = chunk.first_image + k
        name = f"{image_id:07d}.png"
        cv2.imwrite(str(Path(image_dir) / name), frames.rgb[:, :, ::-1])
        images.append({"id": image_id, "file_name": name, "width": spec.size, "height": spec.size,
                       "floor_plan": chunk.scene, "pose": [agent.x, agent.z, agent.rotation, agent.horizon],
                       "field_of_view": chunk.field_of_view})
        annotations.append(annotate(image_id, frame_instances(world, frames, spec.min_pixels), 0))
    return images, annotations


def _work(job: tuple[Chunk, str]) -> tuple[list[dict], list[list[dict]]]:
    return render_chunk(*job)


def mapped(work: Callable[[Any], Any], jobs: list[Any], workers: int) -> Iterator[Any]:
    """``work`` over ``jobs``, results in order: in this process, or in ``workers`` spawned
    processes (the pool is closed and joined when all are in)."""
    if workers <= 1:
        yield from map(work, jobs)
        return
    import multiprocessing

    pool = multiprocessing.get_context("spawn").Pool(workers)
    try:
        yield from pool.imap(work, jobs)
    finally:
        pool.close()
        pool.join()


def generate(spec: DataSpec, out: Path, workers: int = 1, progress: bool = True) -> dict[str, Any]:
    """Write the set to ``out`` (``images/`` + ``annotations.json``); returns its summary."""
    from tqdm import tqdm

    out = Path(out)
    if spec.images < 1:
        raise NesyError(f"a detector set needs at least 1 image, got {spec.images}")
    image_dir = out / "images"
    image_dir.mkdir(parents=True, exist_ok=True)
    chunks = plan_chunks(spec)
    jobs = [(c, str(image_dir)) for c in chunks]
    start = time.perf_counter()
    images, annotations = [], []
    bar = tqdm(total=spec.images, desc=f"detector data {spec.split}", unit="img", disable=not progress)
    try:
        for chunk_images, chunk_anns in mapped(_work, jobs, workers):
            images.extend(chunk_images)
            for anns in chunk_anns:
                for ann in anns:
                    ann["id"] = len(annotations) + 1
                    annotations.append(ann)
            bar.update(len(chunk_images))
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    info = {"description": "nesy detector set (rendered, exact instance masks)", "split": spec.split,
            "floor_plans": sorted({c.scene for c in chunks}), "spec": asdict(spec), "chunks": len(chunks)}
    write_annotations(out, images, annotations, info)
    return {"split": spec.split, "images": len(images), "annotations": len(annotations),
            "floor_plans": len(info["floor_plans"]), "seconds": round(seconds, 2),
            "images_per_second": round(len(images) / seconds, 1), "workers": workers}


def sample_frames(split: str, count: int, seed: int = 0, size: int = 300) -> list[np.ndarray]:
    """``count`` RGB frames drawn as the sets are (benchmarks): H x W x 3 uint8 arrays."""
    from contracts.observation import FOLLOWER
    from simulator.spawn import random_start

    spec = DataSpec(split, count, seed=seed, size=size)
    out: list[np.ndarray] = []
    for chunk in plan_chunks(spec):
        sim = _simulator(size, chunk.field_of_view)
        rng = random.Random(f"detector-chunk:{chunk.seed}")
        sim.reset(random_start(chunk.scene, chunk.seed))
        randomize_states(sim.world, spec, rng)
        agent = sim.world.agents[FOLLOWER]
        for _ in range(chunk.frames):
            agent.x, agent.z, agent.rotation, agent.horizon = sample_pose(sim.world, rng)
            out.append(np.array(sim.instance_frame(FOLLOWER).rgb))
    return out
