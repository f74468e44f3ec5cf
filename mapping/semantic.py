"""The ``semantic`` mapper: a top-down grid and an object memory built only from what the
Follower perceives -- depth, odometry, the configured perception's detections, its own
actions and the dialogue's location hints.

Each step the depth frame is back-projected into the odometry frame (camera intrinsics from
the module context, every ``stride``-th pixel, vectorized numpy) and binned into cells of
``cell_size`` metres:
- points between ``floor_height`` and ``agent_height`` are obstacle evidence, points below
  ``floor_height`` floor evidence; a cell with at least ``obstacle_hits`` obstacle points
  is an obstacle, else a cell with floor points is free; every cell a point fell in is
  explored, and the cells under the Follower are free (it stands there);
- each detection's mask pixels with depth give its class evidence (the detection's score)
  and its 3-D centroid and extent, which ``ObjectMemory.observe`` fuses into instances
  (within ``match_radius`` across and ``vertical_match`` up or down; out to
  ``max_detection_depth``: farther than the map's ``max_depth``, since a far object is
  worth walking to);
- the Follower's own actions and the hints update the memory (``mapping.memory_updates``;
  a receptacle a refused put renamed takes the sightings of its old type that meet its box),
  and a faucet is believed behind each sink basin seen with none seen (``mapping.fixtures``);
  after the Follower opened a container, the sighting under its click in the next frame is
  that container with its door open: the instance's box grows to hold it (``union_box``), so
  the open door seen later is fused into it instead of becoming a container to open again;
  a sighting cut by the frame's left or right side is a part whose centre is not the
  object's: it joins an instance of its type whose box it meets (``nearest_box``). On 104
  train episodes of ``nesy bench nav`` the two cut the opens that met "already open" from
  86 to 37 and raised success 0.942 -> 0.962;
- a detection scoring below ``weak_score`` (kept by perception only because the Follower
  looks for its type: ``Perception.attend``) confirms what the Follower expects -- an
  instance of its type nearby, a container it opened -- and is ignored elsewhere, unless
  ``weak_views`` > 0: then weak sightings of its type in one place from that many different
  poses make an instance (off by default: with 2 it lost ALFRED episodes to phantoms);
- ``size_prior`` (off, stop 56): points far from a detection's median are dropped (``mapping.size_prior``);
- ``size_cap`` (off, stop 64): a remembered box (not furniture's, seen in parts by design) is
  no larger than its type's largest side plus 0.1 m along each axis (``size_prior.capped``):
  one sighting whose mask bled onto the wall behind made a toaster 2.7 m deep; on, 46 of 70
  ALFRED trials against 48, and TATC 0192's knife lost again (docs/mapping.md);
- ``room_kinds`` (off, stop 59): once what it saw tells the kind of room, detections of types
  such a room never holds are phantoms, ignored and forgotten (``mapping.room_kinds``);
- ``refute_unseen`` (off, stop 81): an instance that frames show near and unhidden without
  detecting it, from more poses than it was seen in, is forgotten (``mapping.absence``); on,
  it also forgot real small things the detector missed from two poses (ALFRED dev bowls and
  alarm clocks) and lost ALFRED trials (docs/mapping.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from contracts.belief import Belief, Cell, GridMap, ObjectInstance, ObjectMemory
from contracts.geometry import Pose, depth_to_points
from contracts.language import LocationHint
from contracts.mapping import Mapper
from contracts.navigation import Navigator
from contracts.observation import ModuleContext, Observation
from contracts.perception import Detection
from contracts.planning import ActionOutcome
from contracts.registry import mapper
from mapping import boxes
from mapping.absence import Absences
from mapping.boxes import SINGLE, boxes_meet, merge_parts, nearest_box, observe_box, union_box
from mapping.exploration import FrontierPriorSearcher
from mapping.fixtures import FaucetBeliefs
from mapping.hints import HintBook, shows_inside
from mapping.memory_updates import PIECES, apply_outcome, believe_pieces, piece_of, reached_into
from mapping.navigation import GridNavigator
from mapping.placements import Placements
from mapping.room_kinds import RoomKind
from mapping.size_prior import capped, trim

PIECE_TYPES = frozenset(piece_of(whole) for whole in PIECES)
STACKED = ("Drawer", "Cabinet", "Shelf", "StoveBurner", "StoveKnob")  # in rows and columns, closer than match_radius: fused by box (3-D)
MAX_POINTS = 4000  # mask points kept for an instance's statistics
TOP_MARGIN = 0.3  # metres below the camera a surface's top must be to count as seen from above
OPENED_DEPTH = 0.35  # metres: what lies in a container the Follower opened is within this of its seen box
VIEW_PERCENTILE = 1.0  # the distance of a detection: this percentile of its points' (robust to a stray pixel)


@mapper.register("semantic")
class SemanticMapper(Mapper):
    @dataclass
    class Params:
        cell_size: float = 0.05  # metres per cell
        map_size: float = 24.0  # metres on a side, centred on the start pose
        stride: int = 2  # use every stride-th pixel of the depth frame
        max_depth: float = 5.0  # ignore depth beyond this (metres) for the geometry
        max_detection_depth: float = 10.0  # detections farther than this are ignored (a far object is still worth remembering)
        floor_height: float = 0.12  # points below are floor
        agent_height: float = 1.8  # points above cannot block the Follower
        obstacle_hits: int = 2  # obstacle points that make a cell an obstacle
        agent_radius: float = 0.15  # cells within this of the Follower are free
        clearance: float = 0.15  # the navigator keeps this far from obstacles
        match_radius: float = 0.4  # sightings of a class closer than this are one instance
        # ... and no farther apart up or down than this: the bowl a hint believed in the
        # cabinet above a counter took the "bowl" seen on the counter 1 m below for itself
        # (TATC valid_unseen 0145: a potato slice carried to the sink as the bowl, twice)
        vertical_match: float = 0.5  # (0: no limit)
        search_prior: str = "learned"  # learned (ALFRED train placements) | uniform
        reach_margin: float = 0.15  # the navigator stops this far inside the reach if it can (seen extents are partial)
        frontier_value: float = 0.02  # the searcher's worth of a frontier (a receptacle is worth its prior probability)
        distance_scale: float = 2.0  # metres: the searcher divides a target's worth by 1 + distance / this
        weak_score: float = 0.5  # a detection scoring less (perception's focus) only confirms: see _weak_confirms
        weak_views: int = 0  # ... or makes an instance once seen weakly from this many poses (0: never; 2 cost ALFRED successes)
        size_prior: bool = False  # drop a detection's points farther from their median than its type's size
        size_cap: bool = False  # no box (but furniture's) larger than its type's largest side + 0.1 m
        room_kinds: bool = False  # ignore detections of types the room's kind never holds (mapping.room_kinds)
        refute_unseen: bool = False  # forget an instance frames show and do not detect (mapping.absence)

    def __init__(self, params: Params | None = None) -> None:
        self.params = params or self.Params()
        p = self.params
        if not (0.01 <= p.cell_size <= 0.25 and p.map_size > 2 * p.cell_size and p.stride >= 1):
            raise ValueError(f"semantic mapper: cell_size must be in [0.01, 0.25] m, map_size larger than two cells, "
                             f"stride >= 1; got {p}")
        FrontierPriorSearcher(p.search_prior)  # an unknown prior fails when the config is built

    def reset(self, context: ModuleContext) -> None:
        super().reset(context)
        p = self.params
        cells = int(round(p.map_size / p.cell_size))
        self.grid = GridMap.empty((-p.map_size / 2, -p.map_size / 2), (cells, cells), p.cell_size)
        self.obstacle_hits = np.zeros((cells, cells), dtype=np.int32)
        self.floor_hits = np.zeros((cells, cells), dtype=np.int32)
        self._layers = np.zeros((0, cells, cells), dtype=np.float32)
        self.memory = ObjectMemory()
        self.hints = HintBook()
        self.faucets = FaucetBeliefs()
        self.placements = Placements()  # what the Follower put down itself, and where
        self.room = RoomKind()
        self.absences = Absences()
        self.step = 0
        self.in_view: dict[str, float] = {}  # instance key -> horizontal distance of its nearest seen point, this frame
        self.sightings: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {}  # key -> (centre, extent), this frame
        searcher = FrontierPriorSearcher(p.search_prior, frontier_value=p.frontier_value,
                                         distance_scale=p.distance_scale)
        self._navigator = GridNavigator(context.camera.camera_height, p.clearance, searcher, p.reach_margin)
        self.top_views: dict[str, float] = {}  # instance key -> nearest distance it was seen at with its top in view
        searcher.viewed = self.top_views
        self.weak_sightings: list[tuple[str, tuple[float, float, float], set[Pose]]] = []  # type, place, poses

    def navigator(self) -> Navigator:
        return self._navigator

    def update(self, observation: Observation, detections: list[Detection],
               outcome: ActionOutcome | None = None, hints: Sequence[LocationHint] = ()) -> Belief:
        self.step += 1
        if outcome is not None:
            held, reached = self.memory.held, reached_into(self.memory, outcome)
            apply_outcome(self.memory, outcome)
            if reached is not None:  # a side it reaches in from: what lies in it is walked to there
                reached.states["reached_from"] = (observation.pose.x, observation.pose.z)
            self.faucets.missed(self.memory, outcome)
            self.placements.remember(self.memory, held, observation, self.step, self.context.camera)
            opened = self.memory.instances.get(outcome.action.object_key or "")
            if outcome.success and outcome.action.action in ("Open", "OpenObject") and opened is not None:
                opened.states["opened_from"] = (observation.pose.x, observation.pose.z)  # its open side
        if observation.depth is not None:
            p = self.params
            depth = np.where(observation.depth <= p.max_detection_depth, observation.depth, 0.0)
            points = depth_to_points(depth, observation.pose, self.context.camera)
            near = observation.depth <= p.max_depth
            self._integrate_geometry(np.where(near[..., None], points, np.nan))
            camera = np.array([observation.pose.x, self.context.camera.camera_height, observation.pose.z])
            self.in_view = {}
            self.sightings = {}
            if p.room_kinds:
                self.room.told(hints)
                detections = [d for d in detections if self.room.allows(d.object_type)]
            opened, door = self._just_opened(outcome, detections)
            for detection in detections:
                self._integrate_detection(points, detection, camera, observation.pose, opened if detection is door else None)
            if p.room_kinds and self.room.judge(self.memory):
                for key in self.room.forget_phantoms(self.memory):
                    self.in_view.pop(key, None)
            if p.refute_unseen:
                self.absences.update(self.memory, set(self.in_view), observation.depth, observation.pose,
                                     self.context.camera)
            self._navigator.in_view = self.in_view
            self._note_top_views()
            self._pieces_unseen(outcome)
            for gone, kept in merge_parts(self.memory):  # seen as one: what saw the part saw the whole
                self._cap(self.memory.instances[kept])
                if gone in self.in_view:
                    self.in_view[kept] = min(self.in_view.pop(gone), self.in_view.get(kept, np.inf))
                self.hints.renamed(gone, kept)
        self._clear_footprint(observation.pose.x, observation.pose.z)
        self.hints.add(hints, observation.pose)
        camera, pose = self.context.camera, observation.pose
        # a place shows it does not hold the hinted object when it shows its inside, or when
        # the navigator gave it up (no pose showed it: often a twin of a cabinet seen since)
        # or gave up the hinted object itself there (no pose around the place showed it)
        self.hints.resolve(self.memory, self.grid,
                           lambda place: place.key in self._navigator.gave_up
                           or shows_inside(place, self.in_view.get(place.key, np.inf), pose, camera),
                           self._navigator.given_up_where_believed)
        self.faucets.update(self.memory, self.in_view, observation.pose, self.grid, self.context.camera)  # behind basins: the detector misses them
        self.placements.last_frame = observation
        return Belief(self.grid, self.memory, observation.pose, self.step)

    # -- geometry ------------------------------------------------------------------------
    def _cells(self, xz: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rows, cols, inside) of odometry (x, z) points."""
        (x0, z0), res = self.grid.origin, self.grid.resolution
        cols = np.floor((xz[:, 0] - x0) / res).astype(np.int64)
        rows = np.floor((xz[:, 1] - z0) / res).astype(np.int64)
        n = self.grid.shape[0]
        inside = (rows >= 0) & (rows < n) & (cols >= 0) & (cols < n)
        return rows, cols, inside

    def _integrate_geometry(self, points: np.ndarray) -> None:
        p = self.params
        sample = points[::p.stride, ::p.stride].reshape(-1, 3)
        sample = sample[np.isfinite(sample[:, 0])]
        rows, cols, inside = self._cells(sample[:, [0, 2]])
        height = sample[:, 1]
        n = self.grid.shape[0]
        flat = rows[inside] * n + cols[inside]
        height = height[inside]
        obstacle = (height >= p.floor_height) & (height <= p.agent_height)
        floor = height < p.floor_height
        cells, index = np.unique(flat, return_inverse=True)  # only the cells seen this step change
        obstacles = self.obstacle_hits.ravel()
        floors = self.floor_hits.ravel()
        obstacles[cells] += np.bincount(index[obstacle], minlength=len(cells)).astype(np.int32)
        floors[cells] += np.bincount(index[floor], minlength=len(cells)).astype(np.int32)
        self.grid.explored.ravel()[cells] = True
        self.grid.occupancy.ravel()[cells] = np.where(obstacles[cells] >= p.obstacle_hits, Cell.OBSTACLE,
                                                      np.where(floors[cells] > 0, Cell.FREE, Cell.UNKNOWN))

    def _clear_footprint(self, x: float, z: float) -> None:
        r = self.params.agent_radius
        r0, c0 = self.grid.cell_of(x - r, z - r)
        r1, c1 = self.grid.cell_of(x + r, z + r)
        n = self.grid.shape[0]
        rows, cols = slice(max(r0, 0), min(r1 + 1, n)), slice(max(c0, 0), min(c1 + 1, n))
        self.grid.occupancy[rows, cols] = Cell.FREE
        self.grid.explored[rows, cols] = True
        self.obstacle_hits[rows, cols] = 0

    # -- detections ----------------------------------------------------------------------
    def _just_opened(self, outcome: ActionOutcome | None,
                     detections: list[Detection]) -> tuple[ObjectInstance | None, Detection | None]:
        """After a successful Open of a remembered instance: it and the detection of its type
        under the click (the container, its door now open), else (None, None)."""
        if outcome is None or not outcome.success or outcome.action.action not in ("Open", "OpenObject"):
            return None, None
        instance = self.memory.instances.get(outcome.action.object_key or "")
        click = outcome.action.target
        if instance is None or "x" not in click:
            return None, None
        for detection in detections:
            rows, cols = detection.mask.shape
            r = min(int(click["y"] * rows), rows - 1)
            c = min(int(click["x"] * cols), cols - 1)
            if detection.object_type == instance.object_type and detection.mask[r, c]:
                return instance, detection
        return None, None

    def _integrate_detection(self, points: np.ndarray, detection: Detection, camera: np.ndarray, pose: Pose,
                             opened: ObjectInstance | None = None) -> None:
        p = self.params
        x0, y0, x1, y1 = detection.box  # the mask should lie inside its box: index the box only
        r0, c0 = max(int(np.floor(y0)), 0), max(int(np.floor(x0)), 0)
        inner = detection.mask[r0:int(np.ceil(y1)), c0:int(np.ceil(x1))]
        if inner.sum() == detection.pixels:
            hits = points[r0:r0 + inner.shape[0], c0:c0 + inner.shape[1]][inner]
        else:
            hits = points[detection.mask]
        hits = hits[np.isfinite(hits[:, 0])]
        if len(hits) > MAX_POINTS:  # a large mask: an even sample is as good for its statistics
            hits = hits[:: len(hits) // MAX_POINTS + 1]
        if p.size_prior:  # what the mask bled onto, beyond the type's size from the rest
            hits = trim(detection.object_type, hits)
        if len(hits) == 0:
            return
        low, high = np.percentile(hits, 10, axis=0), np.percentile(hits, 90, axis=0)
        centroid = tuple(float(v) for v in np.median(hits, axis=0))
        extent = tuple(float(v) for v in np.maximum(high - low, 0.02))
        if (detection.score < p.weak_score and opened is None and not self._weak_confirms(detection.object_type, centroid)
                and not self._weakly_seen_again(detection.object_type, centroid, pose)):
            return
        rows, cols, inside = self._cells(hits[:, [0, 2]])
        channel = self._channel(detection.object_type)
        n = self.grid.shape[0]
        flat = np.unique(rows[inside] * n + cols[inside])
        view = channel.ravel()
        view[flat] = np.maximum(view[flat], detection.score)
        cut = detection.mask[:, 0].any() or detection.mask[:, -1].any()  # cut by the frame's side: a part
        if opened is not None:
            instance = union_box(self.memory, opened, centroid, extent, detection.score, self.step)
        elif (named := nearest_box([i for i in self.memory.instances.values()  # a put's refusal named it
                                    if i.states.get("taken_for") == detection.object_type], centroid, extent)) is not None:
            instance = self.memory.fuse(named, named.object_type, centroid, extent, detection.score, self.step)
        elif (more_of := boxes.furniture_part(self.memory, detection.object_type, centroid, extent, self.sightings)) is not None:
            instance = union_box(self.memory, more_of, centroid, extent, detection.score, self.step)
            self.sightings[instance.key] = (centroid, extent)
        elif (cut or detection.object_type in SINGLE) and (part_of := nearest_box(
                self.memory.of_type(detection.object_type), centroid, extent, meeting=True)) is not None:
            instance = self.memory.fuse(part_of, detection.object_type, part_of.position, extent, detection.score, self.step)
        elif detection.object_type in STACKED:
            instance = observe_box(self.memory, detection.object_type, centroid, extent, detection.score, self.step)
        else:  # two sightings of a type in one frame are two objects, unless their boxes meet (one seen in
            # parts); slices always are two: they lie touching in a row, and one taken leaves the others
            apart = {key for key, box in self.sightings.items()
                     if detection.object_type in PIECE_TYPES or not boxes_meet(box, (centroid, extent))}
            put = self.placements.seen_as(self.memory, detection.object_type, centroid, apart, self.step, p.match_radius)
            if put is not None:  # seen where the Follower put it: there it is, not where it was believed
                instance = self.memory.fuse(put, put.object_type, centroid, extent, detection.score, self.step)
                instance.position = centroid
            else:
                instance = self.memory.observe(detection.object_type, centroid, extent, detection.score, self.step,
                                               p.match_radius, exclude=apart,
                                               vertical_radius=p.vertical_match or np.inf)
            self.sightings[instance.key] = (centroid, extent)
        instance.states.pop("inferred", None)  # seen
        self._cap(instance)
        held = self.memory.held
        if held is None or held not in (instance.key, instance.container):  # what the held thing carries stays on it
            instance.container = self.placements.container(self.memory, instance)
        # horizontal, as the simulator measures reach (a vertical capsule around the agent)
        distance = float(np.percentile(np.linalg.norm((hits - camera)[:, [0, 2]], axis=1), VIEW_PERCENTILE))
        self.in_view[instance.key] = min(distance, self.in_view.get(instance.key, np.inf))
        if distance < instance.states.get("seen_from", (0.0, 0.0, np.inf))[2]:  # the side it is seen from (approached from there)
            instance.states["seen_from"] = (float(camera[0]), float(camera[2]), distance)

    def _cap(self, instance: ObjectInstance) -> None:
        """With ``size_cap``, no side of its box longer than its type's objects' can be (an
        open container's box holds its door: twice that)."""
        if self.params.size_cap and instance.object_type not in boxes.FURNITURE:
            instance.extent = capped(instance.object_type, instance.extent, bool(instance.states.get("is_open")))

    def _pieces_unseen(self, outcome: ActionOutcome | None) -> None:
        """After a slice, when this frame shows none of its pieces: believe them
        (``believe_pieces``). Pieces in view are mapped as they are seen."""
        whole = self.memory.instances.get(outcome.action.object_key or "") if outcome is not None else None
        if whole is None or not outcome.success or outcome.action.action not in ("Slice", "SliceObject") \
                or whole.object_type not in PIECES:
            return
        if not any(self.memory.instances[k].object_type == piece_of(whole.object_type) for k in self.in_view):
            believe_pieces(self.memory, whole)

    def _weakly_seen_again(self, object_type: str, centre: tuple[float, float, float], pose: Pose) -> bool:
        """Record a weak sighting that confirmed nothing; True once sightings of its type
        within ``match_radius`` of it came from ``weak_views`` different poses (a detection
        scoring 0.25-0.5 is right 22-36% of the time; see docs/mapping.md for what a second
        pose did not fix)."""
        if self.params.weak_views <= 0:
            return False
        x, _, z = centre
        for kind, place, poses in self.weak_sightings:
            if kind == object_type and np.hypot(place[0] - x, place[2] - z) <= self.params.match_radius:
                poses.add(pose)
                return len(poses) >= self.params.weak_views
        self.weak_sightings.append((object_type, centre, {pose}))
        return self.params.weak_views <= 1

    def _weak_confirms(self, object_type: str, centre: tuple[float, float, float]) -> bool:
        """A weak sighting (below ``weak_score``: a type perception was told to look for)
        counts only where the Follower has reason to expect one: within ``match_radius`` of
        an instance of its type (a hint, an earlier sighting), or within ``OPENED_DEPTH`` of a
        container it opened (in the dark of a cabinet). Elsewhere it is ignored: a credit card
        on a low shelf scored 0.26 as a mug, and was picked up for one."""
        x, _, z = centre
        if any(np.hypot(i.position[0] - x, i.position[2] - z) <= self.params.match_radius
               for i in self.memory.of_type(object_type)):
            return True
        return any(i.states.get("is_open") and "opened_from" in i.states
                   and abs(i.position[0] - x) <= i.extent[0] / 2 + OPENED_DEPTH
                   and abs(i.position[2] - z) <= i.extent[2] / 2 + OPENED_DEPTH for i in self.memory.instances.values())

    def _note_top_views(self) -> None:
        """Remember, per instance, the nearest distance it was seen at from above (its top at
        least ``TOP_MARGIN`` below the camera): what stands on a surface seen so is seen with it."""
        limit = self.context.camera.camera_height - TOP_MARGIN
        for key, distance in self.in_view.items():
            instance = self.memory.instances[key]
            if instance.position[1] + instance.extent[1] / 2 <= limit:
                self.top_views[key] = min(distance, self.top_views.get(key, np.inf))

    def sees(self, object_type: str, reach: float) -> list[str]:
        """Keys of the instances of a type in the current frame within ``reach`` of the camera."""
        instances = self.memory.instances
        return [k for k, d in self.in_view.items() if d <= reach and instances[k].object_type == object_type]

    def _channel(self, object_type: str) -> np.ndarray:
        """The class's evidence layer; layers live in a buffer that doubles when full, and
        ``grid.evidence`` is a view of the layers in use."""
        grid = self.grid
        if object_type not in grid.classes:
            n = len(grid.classes)
            if n == len(self._layers):
                grown = np.zeros((max(8, 2 * n), *grid.shape), dtype=np.float32)
                grown[:n] = self._layers
                self._layers = grown
            grid.classes = (*grid.classes, object_type)
            grid.evidence = self._layers[: n + 1]
        return grid.evidence[grid.classes.index(object_type)]
