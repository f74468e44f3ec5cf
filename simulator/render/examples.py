"""Writes example frames (RGB, colour-mapped depth, instance colours, top-down) to docs/images/.

Owns the example script only. A *source* is a callable returning ``(name, room, objects,
camera)``; ``synthetic_source`` needs nothing else, ``simulator_source("FloorPlan1")``
renders a simulator world (a seeded ``random_start``: fixed objects plus movable ones)
through the simulator's adapter (``world_view``), from the Follower pose on the navigable
grid that sees most movable objects; ``floor_plan_source`` renders a floor plan's fixed
objects only.

    python -m simulator.render.examples [--out docs/images] [--fixed-only] [FloorPlan1 ...]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from .renderer import Renderer
from .synthetic import synthetic_kitchen
from .topdown import top_down
from .types import CameraPose, Frames, RenderObject, RoomGeometry

Example = tuple[str, RoomGeometry, list[RenderObject], CameraPose]
Source = Callable[[], Example]
CAMERA_HEIGHT = 1.576


def synthetic_source() -> Example:
    room, objects = synthetic_kitchen(seed=0)
    return "synthetic_kitchen", room, objects, CameraPose(3.0, CAMERA_HEIGHT, 1.25, 0.0, 30.0)


def best_pose(
    renderer: Renderer, room: RoomGeometry, objects: Sequence[RenderObject]
) -> CameraPose:
    """The pose (navigable cell near the room centre, 4 rotations) seeing most objects."""
    xmin, xmax, zmin, zmax = room.bounds
    cx, cz = (xmin + xmax) / 2, (zmin + zmax) / 2
    cells = sorted(room.navigable, key=lambda c: (c[0] * 0.25 - cx) ** 2 + (c[1] * 0.25 - cz) ** 2)[
        :6
    ]
    poses = [
        CameraPose(i * 0.25, CAMERA_HEIGHT, j * 0.25, float(r), 30.0)
        for i, j in cells
        for r in (0, 90, 180, 270)
    ]
    return max(poses, key=lambda p: len(renderer.render(room, objects, p).visible_ids(20)))


def floor_plan_source(name: str) -> Source:
    """A source for a packaged iTHOR floor plan (fixed objects only)."""

    def source() -> Example:
        from simulator.scenes import load_scene

        scene = load_scene(name)
        room = RoomGeometry(frozenset(scene.navigable), tuple(scene.bounds))
        objects = [
            RenderObject(o.object_id, o.object_type, tuple(o.position), tuple(o.size))
            for o in scene.fixed_objects.values()
        ]
        r = Renderer(160, 160)
        try:
            pose = best_pose(r, room, objects)
        finally:
            r.release()
        return scene.name, room, objects, pose

    return source


def simulator_source(name: str, seed: int = 0) -> Source:
    """A source for a simulator world: ``random_start(name, seed)``, rendered through
    ``world_view`` exactly as ``Simulator(render: egl)`` renders the Follower's view, with
    the Follower moved to the navigable pose (4 rotations, horizon 30) that sees the most
    movable objects."""

    def source() -> Example:
        from simulator.scenes import cell_center
        from simulator.sim import FOLLOWER, Simulator
        from simulator.spawn import random_start

        from .world_view import camera_pose, render_objects, room_geometry

        sim = Simulator(argparse.Namespace(render="egl", width=96, height=96))
        try:
            sim.reset(random_start(name, seed))
            world, agent = sim.world, sim.world.agents[FOLLOWER]
            movable = {oid for oid, o in world.objects.items() if not o.fixed}
            cells = sorted(world.scene.navigable)
            cells = cells[:: max(1, len(cells) // 150)]

            def score(pose: tuple[int, int, int]) -> tuple[int, int]:
                agent.x, agent.z = cell_center(pose[:2])
                agent.rotation, agent.horizon = pose[2], 30.0
                seen = sim.instance_frame(FOLLOWER).visible_ids(12)
                return (len(movable & set(seen)), len(seen))

            best = max(((i, j, r) for i, j in cells for r in (0, 90, 180, 270)), key=score)
            score(best)
            room, objects = room_geometry(world.scene), list(render_objects(world))
            return f"{world.scene.name}", room, objects, camera_pose(world, FOLLOWER)
        finally:
            sim.close()

    return source


def depth_colors(depth: np.ndarray, max_depth: float = 6.0) -> np.ndarray:
    """Depth as an RGB image (turbo colour map; black where nothing was drawn)."""
    scaled = np.clip(depth / max_depth * 255.0, 0, 255).astype(np.uint8)
    rgb = cv2.applyColorMap(scaled, cv2.COLORMAP_TURBO)[:, :, ::-1].copy()
    rgb[depth <= 0] = 0
    return rgb


def instance_colors(instance: np.ndarray) -> np.ndarray:
    """Instance ids as distinct colours (background black)."""
    k = instance.astype(np.uint32)
    rgb = np.stack(
        [(k * 97) % 200 + 55, (k * 57) % 200 + 55, (k * 151) % 200 + 55], axis=-1
    ).astype(np.uint8)
    rgb[instance == 0] = 0
    return rgb


def panel(frames: Frames, plan: np.ndarray) -> np.ndarray:
    """RGB | depth | instances | top-down, side by side."""
    h = frames.rgb.shape[0]
    plan = cv2.resize(plan, (h, h), interpolation=cv2.INTER_AREA)
    return np.concatenate(
        [frames.rgb, depth_colors(frames.depth), instance_colors(frames.instance), plan], axis=1
    )


def write_examples(
    sources: Sequence[Source], out: Path, size: int = 300, kinds: Sequence[str] = ("panel",)
) -> list[Path]:
    """Render each source and write ``<name>_<kind>.png`` for kinds among rgb, depth,
    instance, topdown and panel (all four side by side)."""
    out.mkdir(parents=True, exist_ok=True)
    renderer = Renderer(size, size)
    written: list[Path] = []
    try:
        for source in sources:
            name, room, objects, camera = source()
            frames = renderer.render(room, objects, camera)
            plan = top_down(room, objects, [(camera.x, camera.z, camera.rotation)], size=512)
            images = {
                "rgb": frames.rgb,
                "depth": depth_colors(frames.depth),
                "instance": instance_colors(frames.instance),
                "topdown": plan,
                "panel": panel(frames, plan),
            }
            for kind in kinds:
                image = images[kind]
                path = out / f"{name}_{kind}.png"
                cv2.imwrite(str(path), image[:, :, ::-1])
                written.append(path)
    finally:
        renderer.release()
    return written


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("floor_plans", nargs="*", help="packaged floor plans, e.g. FloorPlan1")
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    parser.add_argument("--size", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0, help="random_start seed of each floor plan")
    parser.add_argument(
        "--fixed-only", action="store_true", help="floor plans without movable objects, no simulator"
    )
    args = parser.parse_args(argv)
    if args.fixed_only:
        plans = [floor_plan_source(n) for n in args.floor_plans]
    else:
        plans = [simulator_source(n, args.seed) for n in args.floor_plans]
    sources = [synthetic_source, *plans]
    for path in write_examples(sources, args.out, args.size):
        print(path)


if __name__ == "__main__":
    main()
