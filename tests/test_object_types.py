"""Tests for simulator.object_types: type facts, default sizes, containment rules."""

import pytest

from contracts.errors import NesyError
from simulator.object_types import (
    TypeInfo,
    UnknownObjectTypeError,
    all_types,
    can_contain,
    type_info,
)


def test_known_type_properties():
    mug = type_info("Mug")
    assert isinstance(mug, TypeInfo)
    assert mug.pickupable and mug.receptacle and mug.fillable and mug.dirtyable
    assert not mug.openable and not mug.sliceable
    # pickupable sizes are fitted to AI2-THOR's recorded masks (docs/calibration.md)
    assert all(0.08 <= v <= 0.14 for v in mug.size)
    fridge = type_info("Fridge")
    assert fridge.openable and fridge.receptacle and not fridge.pickupable
    assert fridge.size == (0.7, 1.8, 0.7)
    assert type_info("Potato").cookable and type_info("Apple").sliceable


def test_some_instances_count_as_true():
    assert type_info("Sink").receptacle and type_info("Bathtub").receptacle
    assert type_info("Plate").breakable


def test_all_types_cover_documented_and_alfred_types():
    types = all_types()
    assert types == sorted(types)
    assert len(types) >= 125
    for name in ("Apple", "CounterTop", "Glassbottle", "Cart", "LaundryHamperLid", "EggCracked"):
        assert name in types
    assert all(all(s > 0 for s in type_info(t).size) for t in types)


def test_unknown_type_error_suggests_close_matches():
    with pytest.raises(UnknownObjectTypeError) as err:
        type_info("Aple")
    assert isinstance(err.value, NesyError)
    assert "'Aple'" in str(err.value) and "Apple" in str(err.value)
    with pytest.raises(UnknownObjectTypeError, match="CoffeeMachine"):
        type_info("coffeemachine")


@pytest.mark.parametrize("receptacle,obj", [
    ("CoffeeMachine", "Mug"), ("CoffeeMachine", "Cup"), ("Toaster", "BreadSliced"),
    ("StoveBurner", "Pot"), ("StoveBurner", "Pan"), ("StoveBurner", "Kettle"),
    ("Pot", "Potato"), ("Pan", "EggCracked"), ("Plate", "TomatoSliced"), ("Bowl", "Apple"),
    ("Fridge", "LettuceSliced"), ("Microwave", "PotatoSliced"), ("SinkBasin", "Plate"),
    ("SinkBasin", "Fork"), ("BathtubBasin", "Mug"), ("CounterTop", "AppleSliced"),
    ("Cabinet", "Mug"), ("Sink", "Plate"),
])
def test_can_contain_yes(receptacle, obj):
    assert can_contain(receptacle, obj)


@pytest.mark.parametrize("receptacle,obj", [
    ("Toaster", "Apple"), ("CoffeeMachine", "Apple"), ("StoveBurner", "Apple"),
    ("Plate", "Plate"), ("Plate", "Laptop"), ("Mug", "Fridge"), ("Apple", "Mug"),
])
def test_can_contain_no(receptacle, obj):
    assert not can_contain(receptacle, obj)


def test_can_contain_unknown_type_raises():
    with pytest.raises(UnknownObjectTypeError):
        can_contain("Toastr", "BreadSliced")
