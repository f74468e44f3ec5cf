"""The trained parser's model: bag-of-n-gram features per text segment -> a small torch
network with one classification head per output field; saving/loading the shipped file.

Segments: ``g`` the sentence itself (goal or step), ``s`` all step instructions, ``l`` the
last step instruction, ``p`` the first step that picks something up, ``q`` the first step
that puts something down, ``a`` the plan the step model reads off the steps (``program``:
each step's high-level action and arguments; see ``program_features``). Features: unigrams and
bigrams of lower-cased tokens, plus the AI2-THOR types the lexicon finds with their role from the nearest preceding
preposition (``O=Mug`` object, ``P=Fridge`` place, ``F=Table`` source, ``W=Pen`` "with"). The file
(``.pt``: int8 embeddings, float16 weights, vocabularies) is a few MB.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import torch
from torch import nn

from contracts.errors import NesyError
from dialogue import lexicon as lx

DEFAULT_MODEL = Path(__file__).parent / "models" / "trained_parser.pt"  # the shipped parser model

_TOKEN_RE = re.compile(r"[a-z]+|\d+")
SEGMENTS = ("g", "s", "l", "p", "q", "a")
FORMAT = "nesy-parser-v3"
REQUIRED_MODELS = ("goal0", "step")  # a model file holds the goal ensemble (goal0, ...) and the step model


def tokens(text: str) -> list[str]:
    return _TOKEN_RE.findall(text.lower())


_PICK = {"pick", "take", "grab", "get", "lift", "remove", "retrieve", "collect"}
_PUT = {"put", "place", "set", "drop", "leave", "insert", "deposit", "throw", "toss"}


_ROLE = {**dict.fromkeys(("in", "into", "inside", "on", "onto", "to", "at", "atop", "under", "near", "beside", "by"), "P"),
         **dict.fromkeys(("from", "off", "out"), "F"), **dict.fromkeys(("with", "containing", "holding"), "W")}


def _types(words: list[str]) -> list[str]:
    """AI2-THOR types of the lexicon phrases in ``words`` (greedy longest match), with roles."""
    table = lx.phrase_table()
    out, i = [], 0
    while i < len(words):
        for n in (4, 3, 2, 1):
            hit = table.get(" ".join(words[i: i + n])) if i + n <= len(words) else None
            if hit:
                role = next((_ROLE[w] for w in reversed(words[max(0, i - 3): i]) if w in _ROLE), "O")
                out += ["T=" + hit[0] + ("+" if hit[1] else ""), f"{role}={hit[0]}"]
                i += n
                break
        else:
            i += 1
    return out


def named_types(text: str) -> set[str]:
    """The AI2-THOR types the lexicon finds named in ``text``."""
    return {g[2:].rstrip("+") for g in _types(tokens(text)) if g.startswith("T=")}


def lexicon_digest() -> str:
    """A short hash of the lexicon phrase table (the ``T=``/role features depend on it)."""
    import hashlib

    return hashlib.sha256(repr(sorted(lx.phrase_table().items())).encode()).hexdigest()[:12]


@lru_cache(maxsize=8192)
def _plain_grams(text: str) -> tuple[str, ...]:
    """Unigrams, bigrams and lexicon types of ``text``: a step is read by the step model and
    again in the goal's segments (all steps, last, pick, put), so it is analysed once."""
    words = tokens(text)
    return tuple(words + [f"{a}_{b}" for a, b in zip(words, words[1:], strict=False)] + _types(words))


def _grams(text: str, prefix: str) -> list[str]:
    return [f"{prefix}:{g}" for g in _plain_grams(text)]


Program = Sequence[tuple[str, str, str]]  # per step instruction: (action, arg0, arg1) as the step model reads it


def program_features(program: Program) -> list[str]:
    """The step model's reading of the step instructions as features of the whole task: the
    order of the manipulation actions (walks left out), how many pickups and puts, what the
    first and last pickup take, where the first and last put leave it, what is toggled,
    sliced, heated, cooled or cleaned, and the last walk's landmark. The task type and its
    fields follow from that plan ("pick, put, pick, put" is two objects; the last put's
    receptacle is the goal's), which bags of words see only loosely."""
    acts = [(a, x, y) for a, x, y in program if a and a not in ("GotoLocation", "NoOp")]
    out = ["a:seq=" + "_".join(a for a, _, _ in acts)]
    out += [f"a:{a}>{b}" for (a, _, _), (b, _, _) in zip(acts, acts[1:], strict=False)]
    picks = [x for a, x, _ in acts if a == "PickupObject"]
    puts = [y for a, _, y in acts if a == "PutObject"]
    out += [f"a:npick={min(len(picks), 3)}", f"a:nput={min(len(puts), 3)}"]
    if picks:
        out += [f"a:pick1={picks[0]}", f"a:pickL={picks[-1]}"]
    if puts:
        out += [f"a:put1={puts[0]}", f"a:putL={puts[-1]}"]
    out += [f"a:{a}={x}" for a, x, _ in acts if a not in ("PickupObject", "PutObject")]
    walks = [x for a, x, _ in program if a == "GotoLocation"]
    if walks:
        out.append(f"a:gotoL={walks[-1]}")
    return out


def features(goal: str, steps: Sequence[str] = (), program: Program = ()) -> dict[str, list[str]]:
    """Segment -> n-gram features (the same for training and inference); ``program``: the
    step model's (action, arg0, arg1) for each of ``steps``."""
    pick = next((s for s in steps if _PICK & set(tokens(s))), "")
    put = next((s for s in steps if _PUT & set(tokens(s))), "")
    return {
        "g": _grams(goal, "g"),
        "s": [f for step in steps for f in _grams(step, "s")],
        "l": _grams(steps[-1], "l") if steps else [],
        "p": _grams(pick, "p"),
        "q": _grams(put, "q"),
        "a": program_features(program) if program else [],
    }


def programs(step_model: FieldModel, step_lists: Sequence[Sequence[str]]) -> list[list[tuple[str, str, str]]]:
    """Per list of step instructions, the step model's (action, arg0, arg1) for each step."""
    flat = [text for steps in step_lists for text in steps]
    preds = step_model.labels_of([features(text) for text in flat])
    out, k = [], 0
    for steps in step_lists:
        out.append([(p["action"], p["arg0"], p["arg1"]) for p in preds[k: k + len(steps)]])
        k += len(steps)
    return out


class BagModel(nn.Module):
    """Mean-pooled n-gram embeddings per segment -> MLP -> one softmax head per field."""

    def __init__(self, vocab_size: int, heads: dict[str, int], dim: int = 32, hidden: int = 256) -> None:
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab_size, dim, mode="mean", padding_idx=0)
        self.body = nn.Sequential(nn.Dropout(0.2), nn.Linear(dim * len(SEGMENTS), hidden), nn.ReLU(), nn.Dropout(0.2))
        self.heads = nn.ModuleDict({name: nn.Linear(hidden, n) for name, n in heads.items()})

    def forward(self, ids: list[torch.Tensor], offsets: list[torch.Tensor]) -> dict[str, torch.Tensor]:
        pooled = torch.cat([self.embed(i, o) for i, o in zip(ids, offsets, strict=True)], dim=1)
        h = self.body(pooled)
        return {name: head(h) for name, head in self.heads.items()}


@dataclass
class FieldModel:
    """A trained BagModel with its vocabulary and label sets."""

    model: BagModel
    vocab: dict[str, int]
    labels: dict[str, list[str]]

    def encode(self, items: Sequence[dict[str, list[str]]]) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
        ids_out, offsets_out = [], []
        for seg in SEGMENTS:
            flat: list[int] = []
            offsets: list[int] = []
            for feats in items:
                offsets.append(len(flat))
                ids = [self.vocab[f] for f in feats[seg] if f in self.vocab]
                flat.extend(ids or [0])
            ids_out.append(torch.tensor(flat, dtype=torch.long))
            offsets_out.append(torch.tensor(offsets, dtype=torch.long))
        return ids_out, offsets_out

    @torch.no_grad()
    def probabilities(self, items: Sequence[dict[str, list[str]]]) -> list[dict[str, dict[str, float]]]:
        """Per item, per head: label -> probability."""
        if not items:
            return []
        self.model.eval()
        logits = self.model(*self.encode(items))
        out: list[dict[str, dict[str, float]]] = [{} for _ in items]
        for name, values in logits.items():
            probs = values.float().softmax(dim=1).tolist()
            for k in range(len(items)):
                out[k][name] = dict(zip(self.labels[name], probs[k], strict=True))
        return out

    @torch.no_grad()
    def labels_of(self, items: Sequence[dict[str, list[str]]]) -> list[dict[str, str]]:
        """Per item, per head: the most probable label (``predict`` without the probabilities)."""
        if not items:
            return []
        self.model.eval()
        best = {name: values.argmax(dim=1).tolist() for name, values in self.model(*self.encode(items)).items()}
        return [{name: self.labels[name][best[name][k]] for name in best} for k in range(len(items))]

    def predict(self, items: Sequence[dict[str, list[str]]]) -> list[dict[str, tuple[str, float]]]:
        """Per item, per head: the most probable label and its probability."""
        return [{h: max(p.items(), key=lambda kv: kv[1]) for h, p in item.items()}
                for item in self.probabilities(items)]

    def state(self) -> dict[str, Any]:
        """Compact: int8 embeddings with a float16 scale per row, float16 elsewhere."""
        weights: dict[str, torch.Tensor] = {}
        for key, value in self.model.state_dict().items():
            value = value.detach().float()
            if key == "embed.weight":
                scale = value.abs().amax(dim=1).clamp(min=1e-8) / 127.0
                weights[key + ".q"] = torch.round(value / scale[:, None]).to(torch.int8)
                weights[key + ".scale"] = scale.to(torch.float16)
            else:
                weights[key] = value.to(torch.float16)
        return {"weights": weights, "vocab": "\n".join(self.vocab), "labels": self.labels,
                "segments": list(SEGMENTS), "dim": self.model.embed.embedding_dim,
                "hidden": self.model.body[1].out_features}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> FieldModel:
        if state.get("segments") != list(SEGMENTS):
            raise NesyError(f"parser model was trained with segments {state.get('segments')}, this code "
                            f"uses {list(SEGMENTS)}; retrain it with 'nesy parser train'")
        vocab = {f: i for i, f in enumerate(state["vocab"].split("\n"))}
        heads = {name: len(labels) for name, labels in state["labels"].items()}
        model = BagModel(len(vocab), heads, state["dim"], state["hidden"])
        w = dict(state["weights"])
        q, scale = w.pop("embed.weight.q"), w.pop("embed.weight.scale")
        w["embed.weight"] = q.float() * scale.float()[:, None]
        model.load_state_dict({k: v.float() for k, v in w.items()})
        model.eval()
        return cls(model, vocab, state["labels"])


def save(path: Path, models: dict[str, FieldModel], meta: dict[str, Any]) -> None:
    """One file; models with the same vocabulary (the goal ensemble) store it once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    states: dict[str, dict[str, Any]] = {}
    seen: dict[str, str] = {}
    for name, fm in models.items():
        state = fm.state()
        if state["vocab"] in seen:
            state["vocab_of"] = seen[state["vocab"]]
            state["vocab"] = ""
        else:
            seen[state["vocab"]] = name
        states[name] = state
    torch.save({"format": FORMAT, "meta": meta, "models": states}, path)


def load(path: Path) -> tuple[dict[str, FieldModel], dict[str, Any]]:
    if not path.exists():
        raise NesyError(f"trained parser model {path} not found; train it with 'nesy parser train' "
                        "(or pick the rule-based parser: --parser rules)")
    try:
        blob = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:
        raise NesyError(f"{path}: not a nesy parser model ({exc})") from None
    retrain = "retrain it with 'nesy parser train'"
    found = blob.get("format") if isinstance(blob, dict) else None
    if isinstance(found, str) and found.startswith("nesy-parser-") and found != FORMAT:
        raise NesyError(f"{path}: a parser model of format {found!r}, this code reads {FORMAT!r}; {retrain}")
    if found != FORMAT:
        raise NesyError(f"{path}: not a nesy parser model (expected format {FORMAT!r})")
    states, meta = blob.get("models"), blob.get("meta", {})
    if not isinstance(states, dict) or not isinstance(meta, dict):
        raise NesyError(f"{path}: damaged parser model (no 'models' and 'meta' entries); {retrain}")
    missing = [name for name in REQUIRED_MODELS if not isinstance(states.get(name), dict)]
    if missing:
        raise NesyError(f"{path}: damaged parser model (no {' or '.join(missing)} model); {retrain}")
    try:
        for state in states.values():
            if state.get("vocab_of"):
                state["vocab"] = states[state["vocab_of"]]["vocab"]
        return {k: FieldModel.from_state(s) for k, s in states.items()}, meta
    except NesyError as exc:
        raise NesyError(f"{path}: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError, RuntimeError) as exc:
        reason = " ".join(str(exc).split())[:160]  # one line (torch's messages span several)
        raise NesyError(f"{path}: damaged parser model ({type(exc).__name__}: {reason}); {retrain}") from None
