"""``nesy play``: a person takes the Commander's (or the Follower's) seat in the terminal."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agent.cli.common import add_config_arguments, positive_int
from agent.cli.eval import intermixed

ORDER = 13


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play an episode in the terminal as the Commander (or the Follower)",
        description="A person takes one seat of an episode and the config's agent the other, as "
        "in Alexa Arena's online evaluation. The Follower's view (follower.png, when rendering "
        "is available) and the top-down map (map.png) are rewritten in --out before each "
        "prompt; type `help` for the commands. The episode's log is written to --out "
        "(replay it with `nesy replay`).",
    )
    intermixed(parser)
    add_config_arguments(parser)
    parser.add_argument("--suite", default="tatc", choices=("tatc", "alfred"))
    parser.add_argument("--split", default="valid_unseen", help="default valid_unseen")
    parser.add_argument("--episode", default="0", metavar="N",
                        help="the N-th episode of the split (0-based, file order) or an episode id")
    parser.add_argument("--role", default="commander", choices=("commander", "follower"),
                        help="the person's seat (default commander)")
    parser.add_argument("--data", default=None, metavar="FILE", help="episode file / ALFRED trajectories")
    parser.add_argument("--out", default="runs/play", metavar="DIR", help="view images and the log (default runs/play)")
    parser.add_argument("--auto-steps", type=positive_int, default=10,
                        help="as Commander: prompt again after this many silent Follower turns")
    parser.add_argument("--no-egocentric", action="store_true", help="do not render follower.png")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from agent.evaluation.harness import load_paired_config
    from agent.evaluation.play import Console, PlayError, pick_episode, play
    from simulator import render

    if sys.stdin is None or sys.stdin.closed:
        raise PlayError("stdin is closed: nesy play reads the person's commands from stdin (a terminal, "
                        "or a script piped in: nesy play < commands.txt)")
    if Path(args.out).exists() and not Path(args.out).is_dir():
        raise PlayError(f"--out {args.out} is a file, not a folder; give a folder for the view images and the log")
    needs_commander = args.role == "follower" and args.suite == "tatc"
    loaded, note = load_paired_config(args.config, args.overrides, need_follower=args.role == "commander",
                                      need_commander=needs_commander)
    if note:
        print(note)
    data = args.data or (loaded.config.evaluation.alfred_data if args.suite == "alfred" else None)
    episode = pick_episode(args.suite, args.split, args.episode, data)
    egocentric = not args.no_egocentric and render.available()
    console = Console(Path(args.out), sys.stdin.readline, sys.stdout, egocentric)
    if not egocentric and not args.no_egocentric:
        print("(no EGL: follower.png is not written; map.png is)")
    play(loaded, episode, args.role, console, auto_steps=args.auto_steps)
    return 0
