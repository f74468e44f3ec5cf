"""The egocentric renderer: RGB, linear depth and instance ids from one instanced pass.

Owns GPU resources: unit meshes, per-primitive instance buffers, an FBO with two colour
attachments (RGBA8 colour; RG32F = (depth in metres along the view axis, instance id))
plus a depth buffer. Caches room rows per ``RoomGeometry``, part rows per ``RenderObject``
and the uploaded instance buffers per (room, objects) so repeated renders only draw.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from contracts.errors import NesyError

from .gl import context
from .meshes import PRIMITIVES, primitive_meshes
from .room import room_rows
from .shaders import OBJECT_FS, OBJECT_VS, SKY_FS, SKY_VS
from .styles import ROW, object_rows
from .types import CameraPose, Frames, RenderObject, RoomGeometry

MIN_SIZE, MAX_SIZE = 64, 900
NEAR, FAR = 0.05, 100.0
_CACHE_LIMIT = 50_000


def check_size(width: int, height: int) -> None:
    for name, value in (("width", width), ("height", height)):
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or not MIN_SIZE <= value <= MAX_SIZE
        ):
            raise NesyError(
                f"render {name} must be an integer from {MIN_SIZE} to {MAX_SIZE} pixels, got {value!r}"
            )


def view_matrix(camera: CameraPose) -> np.ndarray:
    """World -> OpenGL eye space for an AI2-THOR camera (eye looks down -z)."""
    yaw, pitch = math.radians(camera.rotation), math.radians(camera.horizon)
    fwd = np.array(
        [math.sin(yaw) * math.cos(pitch), -math.sin(pitch), math.cos(yaw) * math.cos(pitch)]
    )
    right = np.array([math.cos(yaw), 0.0, -math.sin(yaw)])
    up = np.array(
        [math.sin(yaw) * math.sin(pitch), math.cos(pitch), math.cos(yaw) * math.sin(pitch)]
    )
    eye = np.array([camera.x, camera.y, camera.z])
    m = np.eye(4)
    m[0, :3], m[1, :3], m[2, :3] = right, up, -fwd
    m[:3, 3] = -m[:3, :3] @ eye
    return m


def projection_matrix(fov_deg: float, aspect: float) -> np.ndarray:
    """Perspective with vertical ``fov_deg``; y is flipped so row 0 of the read-back is the
    top of the image."""
    f = 1.0 / math.tan(math.radians(fov_deg) / 2.0)
    p = np.zeros((4, 4))
    p[0, 0], p[1, 1] = f / aspect, -f
    p[2, 2], p[2, 3] = (FAR + NEAR) / (NEAR - FAR), 2.0 * FAR * NEAR / (NEAR - FAR)
    p[3, 2] = -1.0
    return p


class Renderer:
    """Draws a room and its objects from an AI2-THOR camera into RGB, depth and instances."""

    def __init__(self, width: int = 300, height: int = 300) -> None:
        check_size(width, height)
        self.width, self.height = width, height
        ctx = self.ctx = context()
        self.prog = ctx.program(vertex_shader=OBJECT_VS, fragment_shader=OBJECT_FS)
        self.sky_prog = ctx.program(vertex_shader=SKY_VS, fragment_shader=SKY_FS)
        tri = np.array([-1, -1, 3, -1, -1, 3], dtype="f4")
        self.sky_vao = ctx.vertex_array(
            self.sky_prog, [(ctx.buffer(tri.tobytes()), "2f", "in_pos")]
        )
        self.meshes = {p: ctx.buffer(m.tobytes()) for p, m in primitive_meshes().items()}
        self.counts = {p: len(m) for p, m in primitive_meshes().items()}
        self.instances: dict[int, object] = {}
        self.capacity = dict.fromkeys(PRIMITIVES, 0)
        self.vaos: dict[int, object] = {}
        self.n_instances = dict.fromkeys(PRIMITIVES, 0)
        self.color_rb = ctx.renderbuffer((width, height), 4)
        self.data_rb = ctx.renderbuffer((width, height), 2, dtype="f4")
        self.depth_rb = ctx.depth_renderbuffer((width, height))
        self.fbo = ctx.framebuffer([self.color_rb, self.data_rb], self.depth_rb)
        self._room_cache: dict[RoomGeometry, dict[int, np.ndarray]] = {}
        self._object_cache: dict[tuple[RenderObject, tuple], dict[int, np.ndarray]] = {}
        self._scene_key: tuple | None = None
        self._ids: dict[int, str] = {}

    # -- scene upload ---------------------------------------------------------------
    def _rows_of_room(self, room: RoomGeometry) -> dict[int, np.ndarray]:
        rows = self._room_cache.get(room)
        if rows is None:
            if len(self._room_cache) > 64:
                self._room_cache.clear()
            rows = self._room_cache[room] = room_rows(room)
        return rows

    def _rows_of_object(self, obj: RenderObject, bounds: tuple) -> dict[int, np.ndarray]:
        key = (obj, bounds)
        rows = self._object_cache.get(key)
        if rows is None:
            if len(self._object_cache) > _CACHE_LIMIT:
                self._object_cache.clear()
            rows = self._object_cache[key] = object_rows(obj, bounds)
        return rows

    def _upload(self, room: RoomGeometry, objects: Sequence[RenderObject]) -> None:
        key = (room, tuple(objects))
        if key == self._scene_key:
            return
        chunks: dict[int, list[tuple[np.ndarray, int]]] = {p: [] for p in PRIMITIVES}
        for prim, rows in self._rows_of_room(room).items():
            chunks[prim].append((rows, 0))
        ids: dict[int, str] = {}
        for k, obj in enumerate(objects, start=1):
            if obj.hidden:
                continue
            ids[k] = obj.object_id
            for prim, rows in self._rows_of_object(obj, room.bounds).items():
                chunks[prim].append((rows, k))
        for prim in PRIMITIVES:
            parts = chunks[prim]
            n = sum(len(r) for r, _ in parts)
            self.n_instances[prim] = n
            if n == 0:
                continue
            data = np.empty((n, ROW + 1), dtype=np.float32)
            data[:, :ROW] = np.concatenate([r for r, _ in parts])
            data[:, ROW] = np.repeat([k for _, k in parts], [len(r) for r, _ in parts])
            self._write(prim, data)
        self._ids = ids
        self._scene_key = key

    def _write(self, prim: int, data: np.ndarray) -> None:
        if len(data) > self.capacity[prim]:
            cap = max(64, 1 << (len(data) - 1).bit_length())
            if prim in self.instances:
                self.vaos[prim].release()
                self.instances[prim].release()
            buf = self.ctx.buffer(reserve=cap * (ROW + 1) * 4, dynamic=True)
            self.instances[prim], self.capacity[prim] = buf, cap
            self.vaos[prim] = self.ctx.vertex_array(
                self.prog,
                [
                    (self.meshes[prim], "3f 3f", "in_pos", "in_normal"),
                    (
                        buf,
                        "4f 4f 4f 3f 2f 1f/i",
                        "in_r0",
                        "in_r1",
                        "in_r2",
                        "in_color",
                        "in_mat",
                        "in_id",
                    ),
                ],
            )
        self.instances[prim].write(data.tobytes())

    # -- drawing --------------------------------------------------------------------
    def render(
        self, room: RoomGeometry, objects: Sequence[RenderObject], camera: CameraPose
    ) -> Frames:
        """RGB, depth and instance buffers of one pass. Instance ``k`` is ``objects[k-1]``."""
        self._upload(room, objects)
        ctx = self.ctx
        self.fbo.use()
        self.fbo.clear(0.0, 0.0, 0.0, 0.0, depth=1.0)
        ctx.enable(ctx.DEPTH_TEST | ctx.CULL_FACE)
        view = view_matrix(camera)
        proj = projection_matrix(camera.field_of_view, self.width / self.height)
        self.prog["u_view"].write(view.T.astype("f4").tobytes())
        self.prog["u_proj"].write(proj.T.astype("f4").tobytes())
        self.prog["u_eye"].value = (camera.x, camera.y, camera.z)
        for prim in PRIMITIVES:
            if self.n_instances[prim]:
                self.vaos[prim].render(vertices=self.counts[prim], instances=self.n_instances[prim])
        self.sky_vao.render()
        h, w = self.height, self.width
        rgb = np.empty((h, w, 3), dtype=np.uint8)
        data = np.empty((h, w, 2), dtype=np.float32)
        self.fbo.read_into(rgb, components=3, attachment=0)
        self.fbo.read_into(data, components=2, attachment=1, dtype="f4")
        return Frames(
            rgb=rgb,
            depth=data[:, :, 0].copy(),
            instance=data[:, :, 1].astype(np.int32),
            ids=dict(self._ids),
        )

    def release(self) -> None:
        """Free this renderer's GPU objects (the shared context stays)."""
        for obj in [*self.vaos.values(), *self.instances.values(), *self.meshes.values()]:
            obj.release()
        for obj in (
            self.fbo,
            self.color_rb,
            self.data_rb,
            self.depth_rb,
            self.prog,
            self.sky_prog,
            self.sky_vao,
        ):
            obj.release()
