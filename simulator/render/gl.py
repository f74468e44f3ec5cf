"""The process-wide headless OpenGL context (moderngl over EGL) and its clear failure.

Owns context creation only. One context per process, created on first use in the
calling thread (moderngl contexts are not shared across threads).
"""

from __future__ import annotations

from typing import Any

from contracts.errors import NesyError

INSTALL_HINT = (
    "install Mesa's EGL and software rasterizer (Debian/Ubuntu: "
    "apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri), or run with `render: none` "
    "for symbolic observations only"
)

_CONTEXT: Any = None


class RenderUnavailable(NesyError):
    """No headless OpenGL 3.3 context could be created."""


def context() -> Any:
    """The shared ``moderngl.Context`` (EGL, headless), created on first call."""
    global _CONTEXT
    if _CONTEXT is not None:
        return _CONTEXT
    try:
        import moderngl
    except ImportError as exc:  # pragma: no cover - moderngl is a dependency
        raise RenderUnavailable(
            f"rendering needs the Python package moderngl ({exc}); pip install moderngl"
        ) from exc
    try:
        _CONTEXT = moderngl.create_standalone_context(backend="egl", require=330)
    except Exception as exc:
        raise RenderUnavailable(
            f"cannot create a headless OpenGL (EGL) context: {exc}. To render, {INSTALL_HINT}"
        ) from exc
    return _CONTEXT


def available() -> bool:
    """True if a context can be created (used by tests and `render: none` fallbacks)."""
    try:
        context()
    except RenderUnavailable:
        return False
    return True
