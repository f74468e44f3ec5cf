"""What an agent gets from the world each step, and what the runner tells modules once.

``Observation`` is what a robot has: egocentric RGB and depth (when rendering), its pose as
odometry relative to the episode's start pose, whether its gripper holds something, the
last action's name, success and error message, and the utterances heard since its last
turn. Nothing in it names a simulator object.

``ModuleContext`` carries what is fixed for a run (camera intrinsics, whether frames are
rendered, the worker index) and the episode's seed; the runner builds it and the Follower
hands it to each of its modules' ``reset``, so no module copies intrinsics into its params.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from contracts.geometry import CameraIntrinsics, Pose

COMMANDER, FOLLOWER = 0, 1  # TEACh's agent ids: agent 0 is the Commander, agent 1 the Follower
COLOUR_CHANGE = 24  # of 255, in any channel: a pixel that changed between two frames
DEPTH_CHANGE = 0.01  # metres: ... or whose depth did


@dataclass(frozen=True)
class Utterance:
    agent_id: int
    text: str
    step: int


@dataclass
class Observation:
    """What one agent perceives after an action (no ground truth)."""

    agent_id: int
    pose: Pose  # odometry relative to the agent's start pose
    holding: bool  # the gripper holds something (proprioception)
    last_action: str | None
    last_action_success: bool
    error_message: str
    utterances: list[Utterance] = field(default_factory=list)
    rgb: np.ndarray | None = None  # H x W x 3 uint8 when rendering is on
    depth: np.ndarray | None = None  # H x W float32 metres along the view axis (0: nothing)


@dataclass(frozen=True)
class ModuleContext:
    """What every module may know about the run it is part of (built by the runner)."""

    camera: CameraIntrinsics
    rendering: bool  # observations carry rgb and depth
    seed: int = 0  # the episode's seed (derived from the config's seed and the episode)
    worker_index: int = 0  # which evaluation worker runs the episode (0..K-1)


@dataclass(frozen=True)
class FollowerBriefing:
    """What the benchmark tells the Follower at the start: ALFRED gives the human goal (and,
    if configured, the step instructions); TATC gives nothing but that a Commander will talk
    to it. No episode id: nothing that would let a module look the episode up."""

    suite: str  # "tatc" | "alfred"
    goal_text: str = ""
    step_texts: tuple[str, ...] = ()


def frame_changes(before: Observation, after: Observation) -> np.ndarray | None:
    """H x W bool: the pixels whose colour or depth changed between two frames from one camera
    pose (an interaction's before and after: only what went or came differs); None without
    two frames alike."""
    if before.rgb is None or after.rgb is None or before.rgb.shape != after.rgb.shape:
        return None
    out = (np.abs(before.rgb.astype(np.int16) - after.rgb.astype(np.int16)) > COLOUR_CHANGE).any(axis=-1)
    if before.depth is not None and after.depth is not None and before.depth.shape == out.shape:
        out |= np.abs(before.depth - after.depth) > DEPTH_CHANGE
    return out
