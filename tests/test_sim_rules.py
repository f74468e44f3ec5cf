"""One test per state-change rule, asserting the resulting AI2-THOR metadata."""

from __future__ import annotations

from sim_helpers import (
    BURNER,
    COFFEE,
    COUNTER,
    FAUCET,
    FRIDGE,
    KNOB,
    MICROWAVE,
    PLANT,
    SINK,
    TOASTER,
    go_to,
    kitchen,
    meta,
    obj,
    place,
)

from simulator.sim import FOLLOWER


def step(sim, action, **target):
    return sim.step(FOLLOWER, action, **target)


def test_faucet_cleans_and_fills_what_is_in_the_basin():
    sim = kitchen()
    mug = obj(sim, "Mug")
    mug.is_dirty = True
    place(sim, mug.object_id, SINK)
    go_to(sim, SINK)
    assert step(sim, "ToggleObjectOn", objectId=FAUCET).success
    m = meta(sim, mug.object_id)
    assert m["isDirty"] is False and m["isFilledWithLiquid"] is True and m["fillLiquid"] == "water"
    assert mug.object_id in sim.world.cleaned
    assert meta(sim, FAUCET)["isToggled"] is True


def test_object_put_into_a_running_basin_is_cleaned():
    sim = kitchen()
    cup = obj(sim, "Cup")
    cup.is_dirty = True
    go_to(sim, SINK)
    assert step(sim, "ToggleObjectOn", objectId=FAUCET).success
    assert step(sim, "PickupObject", objectId=cup.object_id).success
    assert step(sim, "PutObject", objectId=cup.object_id, receptacleObjectId=SINK).success
    assert meta(sim, cup.object_id)["isDirty"] is False
    assert meta(sim, cup.object_id)["parentReceptacles"] == [SINK]


def test_a_put_on_the_sink_lands_in_its_basin_under_the_tap():
    sim = kitchen()
    pot = obj(sim, "Pot")
    sink = SINK.removesuffix("|SinkBasin")
    assert sink in sim.world.objects and sim.world.objects[sink].receptacle
    go_to(sim, SINK)
    assert step(sim, "ToggleObjectOn", objectId=FAUCET).success
    assert step(sim, "PickupObject", objectId=pot.object_id).success
    assert step(sim, "PutObject", objectId=pot.object_id, receptacleObjectId=sink).success
    assert meta(sim, pot.object_id)["parentReceptacles"] == [SINK]
    assert meta(sim, pot.object_id)["isFilledWithLiquid"] is True


def test_closed_microwave_heats_and_cooks():
    sim = kitchen()
    potato = obj(sim, "Potato")
    sim.world.objects[MICROWAVE].is_open = True
    place(sim, potato.object_id, MICROWAVE)
    go_to(sim, MICROWAVE)
    assert step(sim, "CloseObject", objectId=MICROWAVE).success
    assert step(sim, "ToggleObjectOn", objectId=MICROWAVE).success
    m = meta(sim, potato.object_id)
    assert m["isCooked"] and m["ObjectTemperature"] == "Hot" and m["simbotIsCooked"]
    assert potato.object_id in sim.world.heated


def test_open_microwave_does_not_heat():
    sim = kitchen()
    apple = obj(sim, "Apple")
    sim.world.objects[MICROWAVE].is_open = True
    place(sim, apple.object_id, MICROWAVE)
    go_to(sim, MICROWAVE)
    assert step(sim, "ToggleObjectOn", objectId=MICROWAVE).success
    assert meta(sim, apple.object_id)["ObjectTemperature"] == "RoomTemp"
    assert apple.object_id not in sim.world.heated


def test_stove_knob_lights_its_burner_and_boils_a_potato_in_water():
    sim = kitchen()
    pot, potato = obj(sim, "Pot"), obj(sim, "Potato")
    pot.is_filled, pot.liquid = True, "water"
    place(sim, pot.object_id, BURNER)
    place(sim, potato.object_id, pot.object_id)
    go_to(sim, BURNER)
    assert step(sim, "ToggleObjectOn", objectId=KNOB).success
    assert meta(sim, BURNER)["isToggled"] is True
    m = meta(sim, potato.object_id)
    assert m["simbotIsBoiled"] and m["isCooked"] and m["ObjectTemperature"] == "Hot"
    assert step(sim, "ToggleObjectOff", objectId=KNOB).success
    assert meta(sim, BURNER)["isToggled"] is False


def test_toaster_toasts_bread_slices():
    sim = kitchen()
    bread = obj(sim, "BreadSliced")
    place(sim, bread.object_id, TOASTER)
    go_to(sim, TOASTER)
    assert step(sim, "ToggleObjectOn", objectId=TOASTER).success
    assert meta(sim, bread.object_id)["isCooked"] is True


def test_coffee_machine_fills_the_mug():
    sim = kitchen()
    mug = obj(sim, "Mug")
    place(sim, mug.object_id, COFFEE)
    go_to(sim, COFFEE)
    assert step(sim, "ToggleObjectOn", objectId=COFFEE).success
    m = meta(sim, mug.object_id)
    assert m["isFilledWithLiquid"] and m["fillLiquid"] == "coffee" and m["simbotIsFilledWithCoffee"]


def test_fridge_cools_and_alfred_records_it_on_close():
    sim = kitchen()
    apple = obj(sim, "Apple")
    go_to(sim, COUNTER)
    assert step(sim, "PickupObject", objectId=apple.object_id).success
    go_to(sim, FRIDGE)
    assert step(sim, "OpenObject", objectId=FRIDGE).success
    assert step(sim, "PutObject", objectId=apple.object_id, receptacleObjectId=FRIDGE).success
    assert meta(sim, apple.object_id)["ObjectTemperature"] == "Cold"
    assert apple.object_id not in sim.world.cooled
    assert step(sim, "CloseObject", objectId=FRIDGE).success
    assert apple.object_id in sim.world.cooled
    assert meta(sim, apple.object_id)["visible"] is False  # hidden in the closed fridge


def test_slicing_with_a_knife_makes_pieces_with_thor_ids():
    sim = kitchen()
    knife, apple = obj(sim, "Knife"), obj(sim, "Apple")
    apple_id, parent = apple.object_id, apple.parent
    go_to(sim, COUNTER)
    assert not step(sim, "SliceObject", objectId=apple_id).success  # no knife yet
    assert step(sim, "PickupObject", objectId=knife.object_id).success
    assert step(sim, "SliceObject", objectId=apple_id).success
    assert apple_id not in sim.world.objects
    pieces = [o for o in sim.world.objects.values() if o.object_type == "AppleSliced"]
    assert len(pieces) == 8
    assert {p.object_id for p in pieces} == {f"{apple_id}|AppleSliced_{k}" for k in range(8)}
    assert all(p.parent == parent for p in pieces)


def test_egg_cracks_without_a_knife():
    sim = kitchen()
    egg = obj(sim, "Egg")
    go_to(sim, COUNTER)
    assert step(sim, "SliceObject", objectId=egg.object_id).success
    assert [o.object_type for o in sim.world.objects.values() if o.object_type.startswith("Egg")] == ["EggCracked"]


def test_pour_waters_the_plant_and_empties_the_cup():
    sim = kitchen()
    cup = obj(sim, "Cup")
    cup.is_filled, cup.liquid = True, "water"
    go_to(sim, COUNTER)
    assert step(sim, "PickupObject", objectId=cup.object_id).success
    go_to(sim, PLANT)
    assert step(sim, "Pour", objectId=PLANT).success
    assert meta(sim, PLANT)["isFilledWithLiquid"] is True
    assert meta(sim, cup.object_id)["isFilledWithLiquid"] is False
    assert not step(sim, "Pour", objectId=PLANT).success  # nothing left to pour


def test_failed_actions_change_nothing_and_say_why():
    sim = kitchen()
    mug, apple = obj(sim, "Mug"), obj(sim, "Apple")
    go_to(sim, COUNTER)
    assert step(sim, "PickupObject", objectId=mug.object_id).success
    before = sim.state_hash()
    cases = [
        (("PickupObject",), {"objectId": apple.object_id}, "hand is full"),
        (("PutObject",), {"objectId": mug.object_id, "receptacleObjectId": FRIDGE}, "not visible"),
        (("OpenObject",), {"objectId": "Nothing|+00.00|+00.00|+00.00"}, "does not exist"),
        (("CloseObject",), {"objectId": COUNTER}, "not openable"),
        (("Fly",), {}, "Unknown action"),
    ]
    for (action,), target, message in cases:
        result = step(sim, action, **target)
        assert not result.success and message in result.error_message
        assert sim.state_hash() == before
    go_to(sim, FRIDGE)
    before = sim.state_hash()
    result = step(sim, "PutObject", objectId=mug.object_id, receptacleObjectId=FRIDGE)
    assert not result.success and "closed" in result.error_message
    assert sim.state_hash() == before


def test_teach_click_targets_the_object_under_the_point():
    import numpy as np

    from simulator.geometry import project_boxes

    sim = kitchen()
    go_to(sim, COUNTER)
    mug = obj(sim, "Mug")
    camera = sim.world.agents[FOLLOWER].camera(90)
    x0, y0, x1, y1 = project_boxes(camera, np.array([mug.position]), np.array([mug.size]))[0]
    result = step(sim, "Pickup", x=(x0 + x1) / 2, y=(y0 + y1) / 2)
    assert result.success and sim.world.agents[FOLLOWER].held == mug.object_id
    assert not step(sim, "Pickup", x=1.5, y=0.5).success


def test_look_limits_and_step_sizes():
    sim = kitchen()
    agent = sim.world.agents[FOLLOWER]
    agent.horizon = 0.0
    assert step(sim, "LookDown").success and agent.horizon == 15  # ALFRED: 15 degrees
    assert step(sim, "Look Down").success and agent.horizon == 45  # TEACh: 30 degrees
    assert step(sim, "Look Down").success is False  # 75 > 60
    assert agent.horizon == 45


def test_commander_cannot_interact():
    sim = kitchen()
    result = sim.step(0, "PickupObject", objectId=obj(sim, "Mug").object_id)
    assert not result.success and "Commander" in result.error_message
