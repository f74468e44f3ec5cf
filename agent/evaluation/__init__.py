"""The evaluation harness: many episodes in, trustworthy numbers out.

- ``suites``: which episodes a run covers (TATC shipped sets, ALFRED trajectories), in a
  deterministic, task-balanced order.
- ``results``: the run folder's ``episodes.jsonl`` (one flushed line per finished
  episode; a corrupt trailing line is detected and redone) and the per-episode logs.
- ``workers``: one worker = its own Simulator and agents built from the effective config;
  runs an episode with a seed derived from the config seed and the episode id.
- ``harness``: ``nesy eval``: the run folder (lock, resume, completeness), summary.
- ``pool``: where episodes execute (this process, a process pool, Ray actors); no worker
  outlives the run, and a worker that dies is named with its episode.
- ``guard``: a process that kills what ``--ray local`` started if ``nesy eval`` is killed.
- ``summary``: ``summary.json`` (exactly ``SUMMARY_KEYS``) from the per-episode lines.
- ``report``: ``nesy report``: markdown tables of several runs side by side, PNG plots.
- ``replay``: ``nesy replay``: an episode re-simulated from its log as a GIF or HTML page.
- ``play``: ``nesy play``: a person in the Commander's (or the Follower's) seat.

See docs/evaluation.md.
"""
