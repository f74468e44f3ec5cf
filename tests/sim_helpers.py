"""Test helpers: a small hand-built FloorPlan1 world and an agent teleported to poses."""

from __future__ import annotations

from simulator.sim import FOLLOWER, Simulator
from simulator.start_state import ObjectPlacement, StartState

KITCHEN = "FloorPlan1"
SINK = "Sink|-01.90|+00.97|-01.50|SinkBasin"
FAUCET = "Faucet|-02.14|+01.02|-01.50"
MICROWAVE = "Microwave|-00.24|+01.69|-02.53"
FRIDGE = "Fridge|-02.10|+00.00|+01.09"
TOASTER = "Toaster|-01.84|+00.90|+00.13"
COFFEE = "CoffeeMachine|-02.00|+00.90|-00.17"
BURNER = "StoveBurner|-00.04|+00.92|-02.37"
KNOB = "StoveKnob|-00.02|+00.88|-02.19"
COUNTER = "CounterTop|-01.87|+00.95|-01.21"
PLANT = "HousePlant|-01.95|+00.90|-02.52"

# a few movable objects on the counter by the sink (their ids are AI2-THOR's for these positions)
OBJECTS = {
    "Mug": (-1.80, 1.00, -1.30),
    "Apple": (-1.85, 1.00, -1.10),
    "Knife": (-1.75, 0.98, -1.00),
    "Pot": (-1.70, 1.05, -0.80),
    "Potato": (-1.90, 1.00, -0.70),
    "BreadSliced": (-1.80, 1.00, -0.60),
    "Egg": (-1.65, 1.00, -1.20),
    "Cup": (-1.95, 1.00, -0.95),
}


def kitchen() -> Simulator:
    start = StartState(
        scene=KITCHEN,
        objects=tuple(ObjectPlacement(t, p) for t, p in OBJECTS.items()),
        follower_pose=(-1.25, -1.25, 270, 30.0),
    )
    sim = Simulator()
    sim.reset(start)
    return sim


def obj(sim: Simulator, object_type: str):
    matches = [o for o in sim.world.objects.values() if o.object_type == object_type]
    assert matches, f"no {object_type} in the test world"
    return matches[0]


def go_to(sim: Simulator, object_id: str) -> None:
    """Teleport the Follower to the object's recorded interaction pose."""
    pose = sim.world.scene.fixed_objects[object_id].interaction_pose
    agent = sim.world.agents[FOLLOWER]
    agent.x, agent.z, agent.rotation, agent.horizon = pose[0], pose[1], pose[2], float(pose[3])
    if agent.held:
        sim.world.move_to(agent.held, sim.world.hand_position(FOLLOWER))


def place(sim: Simulator, object_id: str, receptacle_id: str) -> None:
    """Put an object into a receptacle directly (test set-up, no rules)."""
    recep = sim.world.objects[receptacle_id]
    sim.world.put_in(object_id, receptacle_id, recep.position)


def meta(sim: Simulator, object_id: str) -> dict:
    return next(o for o in sim.metadata()["objects"] if o["objectId"] == object_id)


def random_views(seed: int, n: int, heights: tuple[float, float]):
    """``n`` random views of objects on a table in front of a camera at the origin (pitch
    30-60 degrees, any yaw of the object): the pivots, cameras, rotations and the
    calibration's ``Views`` of them (boxes still empty)."""
    import numpy as np

    from simulator.calibration.boxfit import Views

    rng = np.random.default_rng(seed)
    pivots = np.column_stack([rng.uniform(-0.3, 0.3, n), rng.uniform(*heights, n), rng.uniform(0.7, 1.1, n)])
    cameras = np.column_stack([np.zeros(n), np.zeros(n), np.zeros(n), rng.choice([30.0, 45.0, 60.0], n)])
    rotations = np.column_stack([np.zeros(n), rng.uniform(0, 360, n), np.zeros(n)])
    return rng, pivots, cameras, rotations, Views(cameras, pivots, rotations, np.zeros((n, 4)), 1.576, 60.0)
