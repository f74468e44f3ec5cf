"""The lexicon: surface words and phrases -> AI2-THOR object types, verbs -> predicates,
number words, quantifiers, attributes and directions; plus typo correction against it.

Multi-word phrases are matched longest-first; plurals are generated. Everything here is
hand-written (no data-derived entries), so the ``rules`` parser needs no training.
"""

from __future__ import annotations

import re
from functools import lru_cache

# AI2-THOR type -> surface phrases (singular; plurals are generated).
_OBJECTS: dict[str, tuple[str, ...]] = {
    "AlarmClock": ("alarm clock", "alarm", "clock"),
    "Apple": ("apple",),
    "ArmChair": ("armchair", "arm chair", "recliner", "easy chair"),
    "BaseballBat": ("baseball bat", "bat"),
    "BasketBall": ("basketball", "basket ball"),
    "BathtubBasin": ("bathtub", "bath tub", "tub", "bath", "bathtub basin"),
    "Bed": ("bed",),
    "Book": ("book", "novel", "textbook"),
    "Bottle": ("glass bottle", "bottle"),
    "Bowl": ("bowl",),
    "Box": ("box", "cardboard box", "carton"),
    "Bread": ("bread", "loaf", "loaf of bread", "toast"),
    "ButterKnife": ("butter knife", "dinner knife", "table knife"),
    "Cabinet": ("cabinet", "cupboard", "cabinets"),
    "Candle": ("candle",),
    "Cart": ("cart",),
    "CD": ("cd", "disc", "compact disc", "dvd", "disk", "cd case", "cds"),
    "CellPhone": ("cell phone", "cellphone", "phone", "mobile phone", "smartphone", "mobile"),
    "Chair": ("chair",),
    "Cloth": ("cloth", "rag", "washcloth", "wash cloth"),
    "CoffeeMachine": ("coffee machine", "coffee maker", "coffeemaker", "espresso machine"),
    "CoffeeTable": ("coffee table",),
    "CounterTop": ("counter", "countertop", "counter top", "kitchen counter", "island", "kitchen island"),
    "CreditCard": ("credit card", "card", "debit card"),
    "Cup": ("cup", "glass", "goblet", "tumbler", "drinking glass", "wine glass"),
    "Desk": ("desk",),
    "DeskLamp": ("desk lamp", "lamp", "table lamp", "light", "table light", "desk light", "bedside lamp", "lamp light",
                 "reading lamp", "lamp shade", "lampshade"),
    "DiningTable": ("dining table", "table", "kitchen table", "dinner table"),
    "DishSponge": ("sponge", "dish sponge", "scrubber"),
    "Drawer": ("drawer",),
    "Dresser": ("dresser", "chest of drawers", "bureau", "tv stand", "television stand", "entertainment center",
                "tv table", "tv cabinet"),
    "Egg": ("egg",),
    "Faucet": ("faucet", "tap"),
    "FloorLamp": ("floor lamp", "standing lamp", "tall lamp", "lamp stand"),
    "Fork": ("fork",),
    "Fridge": ("fridge", "refrigerator", "freezer", "icebox"),
    "GarbageCan": ("garbage can", "trash can", "bin", "trash", "garbage", "trash bin", "garbage bin",
                   "waste bin", "wastebasket", "waste basket", "recycling bin", "dustbin"),
    "HandTowel": ("hand towel", "towel"),
    "HousePlant": ("plant", "house plant", "houseplant", "flower", "potted plant"),
    "Kettle": ("kettle", "tea kettle", "teapot"),
    "KeyChain": ("keychain", "key chain", "keys", "key", "key ring"),
    "Knife": ("knife", "kitchen knife", "chef knife", "bread knife"),
    "Ladle": ("ladle",),
    "Laptop": ("laptop", "computer", "notebook computer"),
    "Lettuce": ("lettuce", "head of lettuce", "cabbage"),
    "Microwave": ("microwave", "microwave oven"),
    "Mug": ("mug", "coffee mug", "coffee cup"),
    "Newspaper": ("newspaper", "paper", "magazine"),
    "Ottoman": ("ottoman", "footstool", "foot stool"),
    "Pan": ("pan", "frying pan", "skillet", "fry pan"),
    "Pen": ("pen",),
    "Pencil": ("pencil",),
    "PepperShaker": ("pepper shaker", "pepper", "pepper mill", "pepper grinder"),
    "Pillow": ("pillow", "cushion"),
    "Plate": ("plate", "dish", "saucer"),
    "Plunger": ("plunger",),
    "Pot": ("pot", "cooking pot", "saucepan", "sauce pan"),
    "Potato": ("potato", "spud"),
    "RemoteControl": ("remote control", "remote", "controller", "tv remote"),
    "Safe": ("safe",),
    "SaltShaker": ("salt shaker", "salt", "shaker"),
    "Shelf": ("shelf", "shelves", "shelving", "cubby", "cubbies", "bookshelf", "shelving unit"),
    "SideTable": ("side table", "end table", "nightstand", "night stand", "bedside table", "stand"),
    "SinkBasin": ("sink", "sink basin", "basin", "kitchen sink"),
    "SoapBar": ("soap bar", "bar of soap", "soap", "bar soap"),
    "SoapBottle": ("soap bottle", "bottle of soap", "soap dispenser", "dish soap", "lotion", "bottle of lotion",
                   "lotion bottle", "shampoo", "bottle of shampoo", "shampoo bottle", "liquid soap"),
    "Sofa": ("sofa", "couch", "loveseat", "love seat"),
    "Spatula": ("spatula",),
    "Spoon": ("spoon",),
    "SprayBottle": ("spray bottle", "spray", "sprayer", "spray can"),
    "Statue": ("statue", "figurine", "sculpture", "statuette"),
    "StoveBurner": ("stove", "burner", "stove burner", "stovetop", "stove top", "oven", "range"),
    "TennisRacket": ("tennis racket", "racket", "racquet", "tennis racquet"),
    "TissueBox": ("tissue box", "box of tissues", "tissues", "kleenex", "box of tissue", "tissue"),
    "Toaster": ("toaster",),
    "Toilet": ("toilet", "commode"),
    "ToiletPaper": ("toilet paper", "toilet paper roll", "roll of toilet paper", "tp"),
    "ToiletPaperHanger": ("toilet paper hanger", "toilet paper holder", "paper holder", "holder", "toilet roll holder"),
    "Tomato": ("tomato",),
    "Vase": ("vase",),
    "Watch": ("watch", "wristwatch", "wrist watch"),
    "WateringCan": ("watering can", "watering pot"),
    "WineBottle": ("wine bottle", "bottle of wine", "wine"),
    "PaperTowelRoll": ("paper towel", "paper towels", "paper towel roll", "roll of paper towels"),
    "Television": ("television", "tv"),
}
SLICEABLE = {"Apple", "Bread", "Lettuce", "Potato", "Tomato", "Egg"}
MOVABLE_RECEPTACLES = {"Plate", "Bowl", "Pan", "Mug", "Pot", "Box", "Cup"}
LAMPS = {"DeskLamp", "FloorLamp"}
FURNITURE = {"CounterTop", "DiningTable", "SinkBasin", "GarbageCan", "Fridge", "Cabinet", "SideTable", "Microwave",
             "Drawer", "Shelf", "Toilet", "Desk", "ArmChair", "CoffeeTable", "Dresser", "Sofa", "CoffeeMachine",
             "BathtubBasin", "StoveBurner", "Bed", "Cart", "ToiletPaperHanger", "Ottoman", "Safe", "Chair",
             "Faucet", "Toaster", "Television", "DeskLamp", "FloorLamp"}
APPLIANCES = {"Microwave": "heat", "Fridge": "cool", "SinkBasin": "clean", "StoveBurner": "heat"}

_IRREGULAR_PLURALS = {"knife": "knives", "shelf": "shelves", "loaf": "loaves", "glass": "glasses",
                      "potato": "potatoes", "tomato": "tomatoes", "box": "boxes", "dish": "dishes",
                      "couch": "couches", "bench": "benches", "keys": "keys", "lettuce": "lettuces",
                      "bread": "breads", "salt": "salt", "pepper": "pepper", "tissues": "tissues",
                      "trash": "trash", "garbage": "garbage", "toast": "toast", "wine": "wine",
                      "soap": "soaps", "cabinets": "cabinets", "shelves": "shelves"}

# Verb lemma -> predicate.
VERBS: dict[str, str] = {
    **dict.fromkeys(("rinse", "wash", "clean", "scrub", "cleanse", "wipe"), "clean"),
    **dict.fromkeys(("microwave", "heat", "warm", "cook", "bake", "nuke", "fry", "boil", "toast", "reheat"), "heat"),
    **dict.fromkeys(("chill", "cool", "refrigerate", "freeze", "cold"), "cool"),
    **dict.fromkeys(("cut", "slice", "chop", "dice", "carve"), "slice"),
    **dict.fromkeys(("pick", "grab", "take", "get", "lift", "collect", "fetch", "retrieve", "remove", "hold", "carry", "bring"), "pickup"),
    **dict.fromkeys(("put", "place", "set", "drop", "move", "leave", "deposit", "throw", "toss", "insert", "stick", "return", "lay", "store", "position", "dump", "transfer", "rest", "stack"), "put"),
    **dict.fromkeys(("open",), "open"),
    **dict.fromkeys(("close", "shut"), "close"),
    **dict.fromkeys(("examine", "inspect", "look", "view", "study", "read", "check", "see", "observe"), "examine"),
    **dict.fromkeys(("go", "walk", "head", "turn", "move", "face", "approach", "navigate", "find", "proceed", "locate", "continue", "step"), "goto"),
    **dict.fromkeys(("fill",), "fill"),
    **dict.fromkeys(("pour", "empty"), "pour"),
    **dict.fromkeys(("water",), "water"),
    **dict.fromkeys(("make", "prepare", "brew", "serve", "fix"), "make"),
}
# Participles/adjectives that mark an object's state (ALFRED: "a rinsed mug", "a hot apple").
STATE_WORDS: dict[str, str] = {
    **dict.fromkeys(("clean", "cleaned", "rinsed", "washed", "scrubbed", "wet"), "clean"),
    **dict.fromkeys(("hot", "heated", "warm", "warmed", "cooked", "microwaved", "baked", "boiled", "toasted", "fried"), "heat"),
    **dict.fromkeys(("cold", "chilled", "cooled", "cool", "refrigerated", "frozen"), "cool"),
    **dict.fromkeys(("sliced", "cut", "chopped", "slice", "slices", "piece", "pieces", "wedge", "wedges", "chunk", "half", "diced"), "sliced"),
}
# The first word of a step instruction -> its past tense, for the Follower's reports
# ("Rinse the mug." -> "I rinsed the mug."); the rules parser reads "I <past> ..." as a report.
PAST_TENSE: dict[str, str] = {
    "go": "went", "walk": "walked", "head": "headed", "pick": "picked", "grab": "grabbed", "take": "took",
    "place": "placed", "put": "put", "rinse": "rinsed", "wash": "washed", "clean": "cleaned",
    "microwave": "microwaved", "heat": "heated", "cook": "cooked", "warm": "warmed", "chill": "chilled",
    "cool": "cooled", "slice": "sliced", "cut": "cut", "open": "opened", "close": "closed", "shut": "shut",
    "turn": "turned", "switch": "switched", "fill": "filled", "pour": "poured", "toast": "toasted",
    "boil": "boiled", "water": "watered",
}
ATTRIBUTES = ("dirty", "empty", "full", "red", "green", "yellow", "white", "black", "blue", "brown",
              "silver", "gold", "grey", "gray", "orange", "pink", "purple", "small", "large", "big",
              "little", "tall", "short", "wooden", "metal", "glass", "plastic", "round", "square",
              "open", "closed", "other", "first", "second", "last")
NUMBERS: dict[str, int] = {"one": 1, "a": 1, "an": 1, "single": 1, "two": 2, "both": 2, "pair": 2,
                           "couple": 2, "three": 3, "four": 4, "five": 5, "six": 6, "1": 1, "2": 2,
                           "3": 3, "4": 4, "5": 5, "6": 6, "another": 1, "second": 2}
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
ALL_WORDS = ("all", "every", "each", "everything")
DIRECTIONS: dict[str, str] = {"left": "left", "right": "right", "behind": "behind", "back": "behind",
                              "front": "front", "ahead": "front", "forward": "front", "above": "above",
                              "over": "above", "below": "below", "under": "below", "beneath": "below",
                              "around": "around", "near": "near", "next": "near", "beside": "near",
                              "by": "near"}
# A place's level (``contracts.geometry.level``): "the upper cabinet", "the bottom drawer" (not "the top of ...").
LEVELS: dict[str, str] = {"upper": "upper", "top": "upper", "high": "upper", "higher": "upper", "wall": "upper",
                          "lower": "lower", "bottom": "lower", "low": "lower", "base": "lower"}
# Preposition -> relation of an object to a place.
PLACE_PREPS: dict[str, str] = {"in": "in", "into": "in", "inside": "in", "within": "in", "on": "on",
                               "onto": "on", "upon": "on", "atop": "on", "to": "on", "at": "on",
                               "under": "under", "beneath": "under", "underneath": "under",
                               "near": "near", "beside": "near", "by": "near", "next": "near"}
SOURCE_PREPS = ("from", "off", "out")
YES = ("yes", "yeah", "yep", "yup", "sure", "correct", "right", "exactly", "affirmative", "ok", "okay")
NO = ("no", "nope", "nah", "not", "wrong", "incorrect", "negative")
GREETINGS = ("hi", "hello", "hey", "greetings", "morning", "evening", "afternoon", "howdy")
THANKS = ("thanks", "thank", "done", "finished", "complete", "completed", "bye", "goodbye", "cheers",
          "great", "job", "perfect")
ACKS = ("ok", "okay", "alright", "sure", "got", "will", "understood", "roger", "fine", "k", "noted",
        "cool", "great", "good")
FILLER = {"please", "could", "can", "would", "will", "you", "me", "i", "we", "it", "them", "then",
          "and", "the", "a", "an", "of", "to", "for", "with", "that", "this", "these", "those",
          "there", "here", "is", "are", "be", "do", "does", "did", "up", "down", "some", "let",
          "let's", "'s", "us", "your", "my", "our", "need", "want", "like", "'d", "now", "first",
          "next", "after", "afterwards", "finally", "again", "just", "so", "its", "it's", "one",
          "ones", "back", "over", "also", "too", "should", "shall", "what", "where",
          "which", "how", "why", "who", "when", "by", "at", "from", "off", "out", "in", "on",
          "into", "onto", "inside", "side", "top", "bottom", "front", "left", "right", "around",
          "water", "coffee", "sandwich", "salad", "breakfast", "plate", "all", "every", "each",
          "single", "only", "other", "another", "!", "?", ".", ",", "'", "-", "n't", "not", "if",
          "has", "have", "been", "being", "was", "were", "am", "'m", "'re", "yourself", "way",
          "room", "kitchen", "bathroom", "bedroom", "area", "spot", "place", "floor", "wall",
          "or", "help", "direction", "corner", "end", "edge", "middle", "center", "centre", "far", "close", "closest",
          "nearest", "near", "towards", "toward", "across", "past", "along", "until", "till",
          "while", "once", "use", "using", "sitting", "located", "found", "lying", "item",
          "object", "thing", "stuff", "task", "job", "as", "well", "ready", "more",
          "anything", "else", "something", "same", "new", "make", "sure", "very", "much", "any",
          "think", "guess", "believe", "maybe", "probably", "perhaps", "looks", "seems", "saw"}


def _plural(word: str) -> str:
    last = word.split()[-1]
    if last in _IRREGULAR_PLURALS:
        return word[: len(word) - len(last)] + _IRREGULAR_PLURALS[last]
    if last.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if last.endswith("y") and last[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


@lru_cache(maxsize=1)
def phrase_table() -> dict[str, tuple[str, bool]]:
    """surface phrase -> (AI2-THOR type, is_plural)."""
    table: dict[str, tuple[str, bool]] = {}
    for type_, phrases in _OBJECTS.items():
        for phrase in phrases + (type_.lower(),):
            table.setdefault(phrase, (type_, False))
            table.setdefault(_plural(phrase), (type_, True))
    return table


def surface(type_: str, plural: bool = False) -> str:
    """The canonical surface phrase of a type ("SinkBasin" -> "sink"); a type without words
    in the lexicon (a detector's "Sink") is said as its name's words ("sink")."""
    base = type_.removesuffix("Sliced")
    phrase = _OBJECTS[base][0] if base in _OBJECTS else re.sub(r"(?<=[a-z])(?=[A-Z])", " ", base).lower()
    return _plural(phrase) if plural else phrase


def object_types() -> list[str]:
    return sorted(_OBJECTS)


def speakable(type_: str | None) -> bool:
    """Has the type (or, for a slice, its whole object) words in the lexicon?"""
    return type_ is not None and type_.removesuffix("Sliced") in _OBJECTS


@lru_cache(maxsize=1)
def known_words() -> frozenset[str]:
    """Words the parser understands or deliberately ignores (not candidates for correction)."""
    words: set[str] = set(FILLER) | set(VERBS) | set(STATE_WORDS) | set(ATTRIBUTES) | set(NUMBERS)
    words |= set(DIRECTIONS) | set(PLACE_PREPS) | set(YES) | set(NO) | set(GREETINGS) | set(LEVELS)
    words |= set(THANKS) | set(ACKS) | set(ALL_WORDS) | set(SOURCE_PREPS) | set(PAST_TENSE.values())
    for phrase in phrase_table():
        words.update(phrase.split())
    return frozenset(words)


@lru_cache(maxsize=1)
def _deletes() -> dict[str, str]:
    """One-deletion variants of the content words -> the word (for typo correction)."""
    content = set(VERBS) | set(STATE_WORDS) | {w for p in phrase_table() for w in p.split()}
    table: dict[str, str] = {}
    for word in sorted(content, key=lambda w: (len(w), w)):
        if len(word) < 3:
            continue
        for i in range(len(word)):
            table.setdefault(word[:i] + word[i + 1:], word)
    return table


@lru_cache(maxsize=8192)
def correct(word: str) -> str:
    """``word`` if known, else the content word one edit away (a missing, extra or wrong
    letter, or two swapped letters; for 3-letter words only a missing letter or a swap)."""
    if len(word) < 3 or word in known_words() or not word.isalpha():
        return word
    deletes = _deletes()
    known = known_words()
    if len(word) >= 5:  # an extra letter
        for i in range(len(word)):
            candidate = word[:i] + word[i + 1:]
            if candidate in known:
                return candidate
    if word in deletes:  # a missing letter
        return deletes[word]
    for i in range(len(word)):  # a wrong letter or a transposition
        candidate = deletes.get(word[:i] + word[i + 1:])
        if candidate is not None and len(candidate) == len(word) and _one_edit(word, candidate):
            if len(word) > 3 or sorted(candidate) == sorted(word):
                return candidate
    return word


def _one_edit(word: str, other: str) -> bool:
    """Two words of one length that differ in one letter or by two neighbours swapped (not
    "upper" and "paper", which share a deletion at different places)."""
    differ = [i for i, (a, b) in enumerate(zip(word, other, strict=True)) if a != b]
    return len(differ) == 1 or (len(differ) == 2 and differ[1] == differ[0] + 1
                                and word[differ[0]] == other[differ[1]] and word[differ[1]] == other[differ[0]])
