"""A run's progress reaches a log: one plain line per finished episode when stderr is not a
terminal (tqdm alone prints nothing there), tqdm's bar and no lines on a terminal."""

from __future__ import annotations

import io

from agent.evaluation.progress import EvalProgress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


ROWS = [{"episode_id": "tatc-valid_unseen-0000", "task_type": "Water Plant", "success": True, "steps": 15},
        {"episode_id": "tatc-valid_unseen-0024", "task_type": "Make Coffee", "success": False, "steps": 1000,
         "end_reason": "max_steps"}]


def test_a_log_gets_one_line_per_episode_with_the_count_and_the_time_left():
    log = io.StringIO()
    progress = EvalProgress("eval tatc/valid_unseen", total=10, already=4, stream=log)
    for row in ROWS:
        progress.update(row)
    progress.close()
    lines = log.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("eval tatc/valid_unseen 5/10 tatc-valid_unseen-0000 (Water Plant): success, 15 steps")
    assert "6/10 tatc-valid_unseen-0024 (Make Coffee): failed (max_steps), 1000 steps" in lines[1]
    assert "this session 1/2 succeeded" in lines[1] and "left" in lines[1]


def test_the_estimate_counts_the_episodes_left_at_this_sessions_pace():
    progress = EvalProgress("eval", total=10, already=0, stream=io.StringIO())
    progress.ran, progress.done = 2, 2
    assert progress.line(ROWS[0], elapsed=120.0).endswith("60 episodes/h, about 8 min left")
    progress.ran, progress.done = 1, 1
    assert progress.line(ROWS[0], elapsed=3600.0).endswith("1 episodes/h, about 9.0 h left")


def test_a_terminal_gets_the_bar_and_no_lines_and_progress_off_gets_nothing():
    terminal = Terminal()
    progress = EvalProgress("eval", total=2, already=0, stream=terminal)
    progress.update(ROWS[0])
    progress.close()
    assert "tatc-valid_unseen-0000" not in terminal.getvalue() and "1/2" in terminal.getvalue()
    quiet = io.StringIO()
    off = EvalProgress("eval", total=2, already=0, enabled=False, stream=quiet)
    off.update(ROWS[0])
    off.close()
    assert quiet.getvalue() == ""
