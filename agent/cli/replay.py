"""``nesy replay``: an episode log as an animated GIF or an HTML page."""

from __future__ import annotations

import argparse

from agent.cli.common import positive_int

ORDER = 12


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="animate an episode log (GIF or HTML: egocentric view, top-down map, dialogue)",
        description="Re-simulate an episode from its log (DIR/logs/<episode_id>.json of `nesy "
        "eval`): the Follower's egocentric view when rendering is available, the top-down map "
        "and the dialogue as it happened. Without EGL the frames show the map only.",
    )
    parser.add_argument("log", metavar="LOG", help="an episode log (JSON)")
    parser.add_argument("--out", default=None, metavar="FILE", help="FILE.gif or FILE.html (default: LOG with .gif)")
    parser.add_argument("--stride", type=positive_int, default=1, help="a frame every N Follower actions (default 1)")
    parser.add_argument("--fps", type=float, default=4.0, help="frames per second (default 4)")
    parser.add_argument("--no-egocentric", action="store_true", help="top-down map only, even with EGL")
    parser.add_argument("--map", nargs=2, metavar=("PERCEPTION", "MAPPER"), default=None,
                        help="also draw the map MAPPER builds from PERCEPTION on the Follower's observations "
                             "(e.g. --map oracle-seg semantic; the episode must have run with rendering)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from agent.cli.common import not_a_folder
    from agent.evaluation.replay import replay

    log = not_a_folder(args.log, "an episode log such as DIR/logs/<episode_id>.json")
    path, result = replay(log, args.out, False if args.no_egocentric else None, args.stride, args.fps,
                          tuple(args.map) if args.map else None)
    view = "egocentric view + top-down map" if result.egocentric else "top-down map (no EGL: no egocentric view)"
    print(f"replay: {path} ({len(result.frames)} frames, {view}, {len(result.dialogue)} utterances)")
    for note in result.divergences:
        print(f"warning: {note}")
    return 0
