"""`nesy play` with scripted input: a person as Commander (Progress Check, SearchObject,
utterances, done) and a person as Follower who types what the Commander says."""

from __future__ import annotations

import io
import json
from pathlib import Path

from agent.cli import main
from agent.evaluation.play import Console, parse_follower_command, pick_episode, play
from agent.followers.action_executor import MOTIONS
from agent.settings import load_config
from contracts.agents import FollowerAction

BASELINE = str(Path(__file__).resolve().parents[1] / "configs" / "teach-baseline.yaml")


def test_a_person_as_commander_with_scripted_input(tmp_path, monkeypatch, capsys):
    script = "help\nprogress\nsearch Mug\nForward Forward\n\nTurnLeft\ndone\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["play", BASELINE, "--split", "valid_unseen", "--episode", "30", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "You are the Commander" in out and "commands:" in out
    assert "Progress Check: Make a mug of coffee." in out and "[ ]" in out
    assert "SearchObject: Mug" in out
    assert "Follower: What should I do next?" in out
    assert "end: commander_done" in out
    for name in ("map.png", "search.png", "tatc-valid_unseen-0030.json"):
        assert (tmp_path / name).stat().st_size > 0
    log = json.loads((tmp_path / "tatc-valid_unseen-0030.json").read_text())
    said = [i["utterance"] for i in log["interactions"] if i["agent_id"] == 0]
    assert said == ["Forward Forward", "TurnLeft"]
    assert [i["action"] for i in log["interactions"] if i["agent_id"] == 1 and i["action"] not in ("Text", "Stop")][:3] == [
        "Forward", "Forward", "Turn Left"]
    assert log["result"]["oracles"] == ["commander:human"]


def test_end_of_input_quits_cleanly(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("progress\n"))
    assert main(["play", BASELINE, "--episode", "0", "--out", str(tmp_path), "--no-egocentric"]) == 0
    assert "quit: the episode was not finished" in capsys.readouterr().out


def tokens(utterance: str) -> list[str]:
    """The Commander's action tokens, one typed line each (interactions take 5 words)."""
    words, typed = utterance.split(), []
    while words:
        n = 1 if words[0] in MOTIONS else 5
        typed.append(" ".join(words[:n]))
        words = words[n:]
    return typed


def test_a_person_as_follower_completes_the_task_by_following_the_commander(tmp_path):
    stream = io.StringIO()
    todo: list[str] = []
    seen = 0

    def person() -> str:  # reads what the Commander said, types it back token by token
        nonlocal seen
        text = stream.getvalue()
        for line in text[seen:].splitlines():
            if line.startswith("Commander: ") and not line.endswith("."):
                todo.extend(tokens(line[len("Commander: "):]))
        seen = len(text)
        return (todo.pop(0) if todo else "What should I do next?") + "\n"

    episode = pick_episode("tatc", "valid_unseen", "1")
    console = Console(tmp_path, person, stream, egocentric=True)
    result = play(load_config(BASELINE), episode, "follower", console)
    assert result.result is not None and result.result["success"], stream.getvalue()[-2000:]
    assert result.result["failed_actions"] == 0
    assert (tmp_path / "map.png").is_file() and result.log_path.is_file()
    assert main(["replay", str(result.log_path), "--out", str(tmp_path / "r.gif"), "--no-egocentric"]) == 0


def test_typed_follower_commands():
    def visible(object_type: str) -> str | None:
        return "Mug|1|2|3" if object_type.lower() == "mug" else None

    assert parse_follower_command("turn left", visible) == FollowerAction("Turn Left")
    assert parse_follower_command("forward", visible) == FollowerAction("Forward")
    assert parse_follower_command("LookDown", visible) == FollowerAction("Look Down")
    assert parse_follower_command("pickup mug", visible) == FollowerAction("Pickup", {"objectId": "Mug|1|2|3"})
    assert parse_follower_command("Pickup Mug at 0.57 0.25", visible) == FollowerAction("Pickup", {"x": 0.57, "y": 0.25})
    assert parse_follower_command("place 0.5 0.4", visible) == FollowerAction("Place", {"x": 0.5, "y": 0.4})
    assert parse_follower_command("where is the mug?", visible) == FollowerAction.say("where is the mug?")
    assert parse_follower_command("say hello", visible) == FollowerAction.say("hello")
    assert parse_follower_command("stop", visible) == FollowerAction("Stop")
    assert "no visible Knife" in parse_follower_command("pickup Knife", visible)
    assert "unknown action" in parse_follower_command("fly", visible)
