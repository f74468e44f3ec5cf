"""``oracle-map`` (an oracle): the Belief filled from ground truth, in the Follower's odometry
frame, so that it mixes with any perception, planner or skill.

The grid has the simulator's navigation resolution (0.25 m): navigable cells are free,
everything else inside the room's extent is an obstacle, and all of it counts as explored.
Every object is in the memory under its objectId (positions and extents in the odometry
frame, container, states, confidence 1); the class evidence marks each object's footprint.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from contracts.agents import OracleModule
from contracts.belief import Belief, Cell, GridMap, ObjectInstance, ObjectMemory
from contracts.geometry import world_to_odometry
from contracts.language import LocationHint
from contracts.mapping import Mapper
from contracts.navigation import Navigator
from contracts.observation import FOLLOWER, ModuleContext, Observation
from contracts.perception import Detection
from contracts.planning import ActionOutcome
from contracts.registry import mapper
from mapping.navigation import GridNavigator
from simulator.scenes import GRID

STATES = ("is_open", "is_toggled", "is_dirty", "is_filled", "is_cooked", "is_sliced")


@mapper.register("oracle-map")
class OracleMap(OracleModule, Mapper):
    def reset(self, context: ModuleContext) -> None:
        super().reset(context)
        self.origin = self.oracle.odometry_origin(FOLLOWER)
        self.static = self._static_grid()
        self.step = 0
        self._navigator = GridNavigator(context.camera.camera_height)

    def navigator(self) -> Navigator:
        return self._navigator

    def _static_grid(self) -> GridMap:
        """Free (navigable) vs obstacle cells of the room, rotated into the odometry frame."""
        scene = self.oracle.world.scene
        xmin, xmax, zmin, zmax = scene.bounds
        xs, zs = np.meshgrid(np.arange(np.floor(xmin / GRID), np.ceil(xmax / GRID) + 1) * GRID,
                             np.arange(np.floor(zmin / GRID), np.ceil(zmax / GRID) + 1) * GRID)
        world = np.stack([xs.ravel(), np.zeros(xs.size), zs.ravel()], axis=1)
        odo = world_to_odometry(world, self.origin)
        col = np.round(odo[:, 0] / GRID).astype(int)
        row = np.round(odo[:, 2] / GRID).astype(int)
        grid = GridMap.empty((col.min() * GRID - GRID / 2, row.min() * GRID - GRID / 2),
                             (row.max() - row.min() + 1, col.max() - col.min() + 1), GRID)
        free = np.array([(round(x / GRID), round(z / GRID)) in scene.navigable for x, z in world[:, [0, 2]]])
        grid.occupancy[row - row.min(), col - col.min()] = np.where(free, Cell.FREE, Cell.OBSTACLE)
        grid.explored[:] = True
        return grid

    def update(self, observation: Observation, detections: list[Detection],
               outcome: ActionOutcome | None = None, hints: Sequence[LocationHint] = ()) -> Belief:
        world = self.oracle.world
        self.step += 1
        ids = list(world.objects)
        objects = [world.objects[i] for i in ids]
        positions = world_to_odometry(np.array([o.position for o in objects]).reshape(-1, 3), self.origin)
        turned = int(round(self.origin[2] / 90)) % 2 == 1  # a quarter turn swaps x and z extents
        memory = ObjectMemory(held=world.agents[FOLLOWER].held)
        for oid, obj, position in zip(ids, objects, positions, strict=True):
            size = tuple(obj.size[i] for i in ((2, 1, 0) if turned else (0, 1, 2)))
            memory.instances[oid] = ObjectInstance(
                oid, obj.object_type, tuple(float(v) for v in position), size, 1.0, self.step, 1, obj.parent,
                {s: getattr(obj, s) for s in STATES})
        grid = self._with_evidence(memory)
        return Belief(grid, memory, observation.pose, self.step)

    def _with_evidence(self, memory: ObjectMemory) -> GridMap:
        """The static grid plus one evidence channel per object type (its footprints)."""
        classes = tuple(sorted({i.object_type for i in memory.instances.values()}))
        static = self.static
        evidence = np.zeros((len(classes), *static.shape), dtype=np.float32)
        for instance in memory.instances.values():
            (x, _, z), (ex, _, ez) = instance.position, instance.extent
            r0, c0 = static.cell_of(x - ex / 2, z - ez / 2)
            r1, c1 = static.cell_of(x + ex / 2, z + ez / 2)
            evidence[classes.index(instance.object_type), max(r0, 0):max(r1 + 1, 0), max(c0, 0):max(c1 + 1, 0)] = 1.0
        return GridMap(static.origin, static.resolution, static.occupancy, static.explored, classes, evidence)
