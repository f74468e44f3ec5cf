"""The detector's classes: the AI2-THOR object types of our floor plans.

Every object type that occurs in the supported iTHOR floor plans (receptacles, appliances,
fixed furniture and the pickupable objects spawned on them), plus the pieces that slicing
makes (``AppleSliced``, ``BreadSliced``, ``LettuceSliced``, ``PotatoSliced``,
``TomatoSliced``, ``EggCracked``): 116 types. Category id ``k + 1`` in the COCO files and
label ``k + 1`` in the model is ``CLASSES[k]`` (0 is the background). The list is fixed
here, not read from the simulator, so the detector never imports it;
``tests/test_detector_data.py`` checks that it still equals the floor plans' types.
"""

from __future__ import annotations

SLICED_PIECES = ("AppleSliced", "BreadSliced", "LettuceSliced", "PotatoSliced", "TomatoSliced", "EggCracked")

CLASSES: tuple[str, ...] = (
    "AlarmClock", "Apple", "AppleSliced", "ArmChair", "BaseballBat", "BasketBall", "Bathtub",
    "BathtubBasin", "Bed", "Blinds", "Book", "Boots", "Bowl", "Box", "Bread", "BreadSliced",
    "ButterKnife", "CD", "Cabinet", "Candle", "Cart", "CellPhone", "Chair", "Cloth",
    "CoffeeMachine", "CoffeeTable", "CounterTop", "CreditCard", "Cup", "Curtains", "Desk",
    "DeskLamp", "DiningTable", "DishSponge", "Drawer", "Dresser", "Egg", "EggCracked", "Faucet",
    "FloorLamp", "Footstool", "Fork", "Fridge", "GarbageCan", "Glassbottle", "HandTowel",
    "HandTowelHolder", "HousePlant", "Kettle", "KeyChain", "Knife", "Ladle", "Lamp", "Laptop",
    "LaundryHamper", "LaundryHamperLid", "Lettuce", "LettuceSliced", "LightSwitch", "Microwave",
    "Mirror", "Mug", "Newspaper", "Ottoman", "Painting", "Pan", "PaperTowelRoll", "Pen", "Pencil",
    "PepperShaker", "Pillow", "Plate", "Plunger", "Poster", "Pot", "Potato", "PotatoSliced",
    "RemoteControl", "Safe", "SaltShaker", "ScrubBrush", "Shelf", "ShowerCurtain", "ShowerDoor",
    "ShowerGlass", "ShowerHead", "SideTable", "Sink", "SinkBasin", "SoapBar", "SoapBottle", "Sofa",
    "Spatula", "Spoon", "SprayBottle", "Statue", "StoveBurner", "StoveKnob", "TVStand",
    "TeddyBear", "Television", "TennisRacket", "TissueBox", "Toaster", "Toilet", "ToiletPaper",
    "ToiletPaperHanger", "Tomato", "TomatoSliced", "Towel", "TowelHolder", "Vase", "Watch",
    "WateringCan", "Window", "WineBottle",
)

CLASS_INDEX = {name: k + 1 for k, name in enumerate(CLASSES)}  # object type -> COCO category id
