"""``nesy report``: several runs side by side in markdown, with PNG plots.

For each run folder: its ``summary.json`` when it says the run is complete and covers the
folder's episodes (otherwise a summary of the episodes finished so far, marked unfinished
with how many of the selected episodes are done) and its ``episodes.jsonl``. The report has an
overall table (one column per run), a per-task table (success and goal-condition rates of
each run side by side), the failure causes, the mean steps on the episodes every run solves
(against the first run), where the steps went (``agent.evaluation.census``, from the
episode logs), and two plots: per-task success bars (one bar per run) and the distribution
of steps per episode (successes and failures).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.evaluation.census import census
from agent.evaluation.results import RUN_FILE, SUMMARY_FILE, read_json_object, read_rows
from agent.evaluation.summary import SUMMARY_KEYS, summarize
from contracts.errors import NesyError

KINDS_SHOWN = 8  # failed-interaction kinds listed (the most common over all runs)


class ReportError(NesyError):
    """A folder that is not an evaluation run."""


@dataclass
class Run:
    label: str
    folder: Path
    summary: dict[str, Any]
    rows: list[dict[str, Any]]
    complete: bool


def load_run(folder: str | Path) -> Run:
    folder = Path(folder)
    episodes = folder / "episodes.jsonl"
    if not episodes.is_file():
        raise ReportError(f"{folder}: not an evaluation run (no episodes.jsonl); run `nesy eval ... --out {folder}`")
    rows = read_rows(episodes, repair=False)
    rewrite = "rerun the same `nesy eval` command to rewrite it"
    summary_path = folder / SUMMARY_FILE
    if summary_path.is_file():
        summary = read_json_object(summary_path, rewrite)
        newer = ("complete", "episodes_selected", "plan_length_ratio", "end_position")  # keys an older nesy did not write
        missing = [k for k in SUMMARY_KEYS if k not in summary and k not in newer]
        if missing:
            raise ReportError(f"{summary_path} is not a run summary (no {', '.join(missing[:3])}); {rewrite}")
        # a summary of an older nesy has no "complete": it stands if it covers every line
        if summary.get("complete", True) is True and summary["episodes"] == len(rows):
            return Run(folder.name, folder, summary, rows, True)
    identity: dict[str, Any] = {}
    if (folder / RUN_FILE).is_file():
        identity = read_json_object(folder / RUN_FILE, "it is rewritten by rerunning the same `nesy eval` command")
    selected = identity.get("episodes_selected")
    summary = summarize(rows, "(see config.yaml)", identity.get("suite", "?"), identity.get("split", "?"),
                        selected=selected if isinstance(selected, int) else None)
    return Run(folder.name, folder, summary, rows, False)



def _labels(runs: list[Run]) -> None:
    """Folder names, or longer paths where two runs share a name."""
    names = [r.label for r in runs]
    for run in runs:
        if names.count(run.label) > 1:
            run.label = str(run.folder)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _table(header: list[str], rows: list[list[str]], align: str = "---") -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + [align] * (len(header) - 1)) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


OVERALL = (
    ("config", lambda s: f"`{s['config']}`"),
    ("oracles", lambda s: ", ".join(s["oracles"]) or "none"),
    ("suite / split", lambda s: f"{s['suite']} / {s['split']}"),
    ("episodes", lambda s: str(s["episodes"]) if s.get("complete", True) or not s.get("episodes_selected")
     else f"{s['episodes']} of {s['episodes_selected']}"),
    ("success rate (SR)", lambda s: _pct(s["success_rate"])),
    ("goal-condition success (GC)", lambda s: _pct(s["goal_condition_success"])),
    ("PLW SR", lambda s: _pct(s["plw_success_rate"])),
    ("PLW GC", lambda s: _pct(s["plw_goal_condition_success"])),
    ("mean steps", lambda s: f"{s['mean_steps']:.1f}"),
    ("mean failed actions", lambda s: f"{s['mean_failed_actions']:.2f}"),
    ("mean utterances", lambda s: f"{s['mean_utterances']:.1f}"),
    ("mean questions", lambda s: f"{s['mean_questions']:.1f}"),
    ("failure causes", lambda s: ", ".join(f"{k} {v}" for k, v in s["failure_causes"].items()) or "none"),
    ("wall time", lambda s: f"{s['wall_seconds']:.0f} s"),
    ("episodes / hour", lambda s: f"{s['episodes_per_hour']:.0f}"),
)


def markdown(runs: Sequence[Run], plots: dict[str, str]) -> str:
    labels = [r.label + ("" if r.complete else " (unfinished)") for r in runs]
    lines = ["# Evaluation report", "", "## Overall", ""]
    lines += _table(["", *labels], [[name, *(fmt(r.summary) for r in runs)] for name, fmt in OVERALL])
    tasks = sorted({t for r in runs for t in r.summary["per_task"]})
    lines += ["", "## Per task type", "", "Success rate / goal-condition success (episodes).", ""]
    body = []
    for task in tasks:
        cells = []
        for run in runs:
            row = run.summary["per_task"].get(task)
            cells.append("-" if row is None else
                         f"{_pct(row['success_rate'])} / {_pct(row['goal_condition_success'])} ({row['episodes']})")
        body.append([task, *cells])
    lines += _table(["task type", *labels], body)
    lines += _paired(runs, labels)
    lines += _solved_by_all(runs, labels)
    lines += _steps_went(runs, labels)
    if plots:
        lines += ["", "## Plots", ""]
        lines += [f"![{name}]({path})" for name, path in plots.items()]
    lines += ["", "SR: episodes that succeed; GC: goal conditions satisfied; PLW: weighted by the "
              "expert's path length (TEACh's TLW). summary.json holds them as fractions; see "
              "docs/evaluation.md.", ""]
    return "\n".join(lines)


def _paired(runs: Sequence[Run], labels: list[str]) -> list[str]:
    """Each run against the first on the episodes both ran: successes, the episodes gained
    and lost, and the exact two-sided sign test on those (is the difference more than the
    noise of which episodes flip?)."""
    if len(runs) < 2:
        return []
    first = {r["episode_id"]: bool(r["success"]) for r in runs[0].rows}
    table = []
    for run, label in zip(runs[1:], labels[1:], strict=True):
        other = {r["episode_id"]: bool(r["success"]) for r in run.rows}
        common = sorted(set(first) & set(other))
        gained = [e for e in common if other[e] and not first[e]]
        lost = [e for e in common if first[e] and not other[e]]
        table.append([label, str(len(common)), f"{sum(first[e] for e in common)} -> {sum(other[e] for e in common)}",
                      _episode_list(gained), _episode_list(lost), f"{sign_test(len(gained), len(lost)):.2f}"])
    return ["", f"## Paired episodes against {labels[0]}", "",
            "On the episodes both runs ran: successes of the first run -> this run, the episodes "
            "this run gained and lost, and the two-sided sign test's p on those.", ""] + _table(
        ["run", "episodes", "successes", "gained", "lost", "p"], table)


def _episode_list(ids: list[str], shown: int = 8) -> str:
    names = ", ".join(e.rsplit("-", 1)[-1] for e in ids[:shown])
    return f"{len(ids)}" + (f" ({names}{', ...' if len(ids) > shown else ''})" if ids else "")


def sign_test(gained: int, lost: int) -> float:
    """Exact two-sided sign test: the chance of a split at least this uneven if each
    discordant episode were a fair coin."""
    n = gained + lost
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(gained, lost) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def _solved_by_all(runs: Sequence[Run], labels: list[str]) -> list[str]:
    """Mean steps on the episodes every run solves, against the first run: what a change
    costs or saves where it does not change success (issue 14's measure: questions cut the
    steps of the episodes both ``rules`` and ``never`` solve by how much?)."""
    if len(runs) < 2:
        return []
    steps = [{r["episode_id"]: r["steps"] for r in run.rows if r["success"]} for run in runs]
    common = set(steps[0]).intersection(*steps[1:])
    lines = ["", "## Episodes every run solves", ""]
    if not common:
        return lines + ["None.", ""]
    means = [sum(s[e] for e in common) / len(common) for s in steps]
    change = ["(baseline)"] + [f"{100 * (m - means[0]) / means[0]:+.1f}%" if means[0] else "-" for m in means[1:]]
    table = [["mean steps", *(f"{m:.1f}" for m in means)], ["change", *change]]
    searching = [{r["episode_id"]: (r.get("metrics") or {}).get("search_steps") for r in run.rows} for run in runs]
    if all(s[e] is not None for s in searching for e in common):  # Followers that count them (the modular one)
        table.append(["of them searching", *(f"{sum(s[e] for e in common) / len(common):.1f}" for s in searching)])
    return lines + [f"Mean steps on the {len(common)} episodes every run solves, against the first run; "
                    "searching: steps taken for a plan step that looks for something the map does not "
                    "hold (what location answers can save).", ""] + _table(["", *labels], table)


def _steps_went(runs: Sequence[Run], labels: list[str]) -> list[str]:
    """Where the Follower's actions went (``census``), when the runs have episode logs."""
    counts = [census(run.folder, run.rows) for run in runs]
    if not any(c.episodes for c in counts):
        return []

    def share(part: int | None, whole: int) -> str:
        return "-" if part is None or not whole else f"{100 * part / whole:.1f}% ({part})"

    table = [
        ["episodes with a log", *(str(c.episodes) for c in counts)],
        ["Follower actions", *(str(c.actions) for c in counts)],
        ["searching, of the actions", *(share(c.search_steps, c.actions) for c in counts)],
        ["turns undone by the next action", *(share(c.undone_turns, c.actions) for c in counts)],
        ["moves blocked", *(str(c.blocked_moves) for c in counts)],
        ["failed interactions", *(str(sum(c.failed.values())) for c in counts)],
        ["episodes ended at the step limit", *(str(c.at_step_limit) for c in counts)],
    ]
    if all(c.search_steps is None for c in counts):  # Followers that do not count them
        table = [row for row in table if not row[0].startswith("searching")]
    lines = ["", "## Where the steps go", "",
             "From the episode logs: the Follower's actions (not its questions), the share spent searching for "
             "what its map does not hold, and turns undone by the very next action.", ""]
    lines += _table(["", *labels], table)
    kinds = sum((c.failed for c in counts), Counter()).most_common(KINDS_SHOWN)
    if kinds:
        lines += ["", "Failed interactions by kind (object ids and numbers left out), the most common:", ""]
        lines += _table(["kind", *labels], [[f"`{k}`", *(str(c.failed[k]) for c in counts)] for k, _ in kinds])
    return lines


def plot_per_task(runs: Sequence[Run], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    tasks = sorted({t for r in runs for t in r.summary["per_task"]})
    width = 0.8 / max(1, len(runs))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(tasks) + 2), 4.2))
    x = np.arange(len(tasks))
    for i, run in enumerate(runs):
        values = [100 * run.summary["per_task"].get(t, {}).get("success_rate", 0.0) for t in tasks]
        ax.bar(x + (i - (len(runs) - 1) / 2) * width, values, width, label=run.label)
    ax.set_xticks(x, tasks, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel("success rate (%)")
    ax.set_ylim(0, 118)
    ax.set_yticks(range(0, 101, 20))
    ax.set_title("Success per task type")
    ax.legend(fontsize=8, loc="upper center", ncol=min(4, len(runs)), frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_steps(runs: Sequence[Run], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    most = max((r["steps"] for run in runs for r in run.rows), default=1)
    bins = list(range(0, most + max(1, most // 30) + 1, max(1, most // 30)))
    for run in runs:  # in % of the run's episodes, so runs of different sizes compare
        share = 100.0 / max(1, len(run.rows))
        ok = [r["steps"] for r in run.rows if r["success"]]
        failed = [r["steps"] for r in run.rows if not r["success"]]
        ax.hist(ok, bins=bins, weights=[share] * len(ok), alpha=0.5, label=f"{run.label}: successes ({len(ok)})")
        if failed:
            ax.hist(failed, bins=bins, weights=[share] * len(failed), histtype="step", linewidth=1.6,
                    label=f"{run.label}: failures ({len(failed)})")
    ax.set_xlabel("Follower steps per episode")
    ax.set_ylabel("% of the run's episodes")
    ax.set_title("Steps per episode")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_report(folders: Sequence[str | Path], out: str | Path | None = None) -> Path:
    """Write the markdown report and its PNG plots; returns the report's path."""
    if not folders:
        raise ReportError("give at least one run folder")
    runs = [load_run(f) for f in folders]
    _labels(runs)
    target = Path(out) if out else (Path(folders[0]) / "report.md" if len(runs) == 1 else Path("report.md"))
    if target.is_dir():
        raise ReportError(f"--out {target} is a folder; give the report's file name (e.g. {target / 'report.md'})")
    target.parent.mkdir(parents=True, exist_ok=True)
    stem = target.with_suffix("")
    per_task = plot_per_task(runs, Path(f"{stem}_per_task.png"))
    steps = plot_steps(runs, Path(f"{stem}_steps.png"))
    plots = {"success per task type": per_task.name, "steps per episode": steps.name}
    target.write_text(markdown(runs, plots))
    return target
