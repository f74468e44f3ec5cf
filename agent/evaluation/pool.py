"""Where a run's episodes execute: in this process, in a pool of processes or on Ray actors.

``outcomes`` yields each episode's (line, log) in completion order, keeping two episodes
per worker in flight. Every path shuts its workers down however the run ends (all done,
Ctrl-C, SIGTERM or SIGHUP, which the harness turns into KeyboardInterrupt, an error), and
no worker outlives the main process: pool processes watch their parent
(``workers.watch_parent``) and a Ray instance started here (``--ray local``) is watched by a
``guard`` process. A worker that dies (killed, out of memory) stops the run with
``WorkerDied`` naming the episode it was running; the finished episodes are saved and the
same command resumes. An interrupted pool stops its workers at once (``_stop``): the episodes
in flight are not saved anyway, and waiting for them to finish kept a stopped run's two
workers busy for minutes (a 1,000-step episode of the default Follower, stop 72).
"""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from agent.evaluation.guard import Guard
from agent.evaluation.workers import IDLE, EpisodeWorker, Outcome, init_process, run_in_process
from contracts.errors import NesyError
from simulator.episodes.model import Episode, episode_to_dict

RESUME = "the finished episodes are saved: run the same command again to resume"


class PoolError(NesyError):
    """Workers that cannot start (Ray missing) or that died during the run."""


class WorkerDied(PoolError):
    """A worker process or Ray actor died while the run was going."""


def outcomes(todo: Sequence[Episode], config_text: str, suite: str, workers: int = 1,
             ray_address: str | None = None) -> Iterator[Outcome]:
    if ray_address:
        yield from _ray_outcomes(ray_address, workers, config_text, suite, todo)
    elif workers == 1 or len(todo) == 1:
        worker = EpisodeWorker(config_text, suite, worker_index=0)
        try:
            for episode in todo:
                yield worker.run(episode)
        finally:
            worker.close()
    else:
        yield from _process_outcomes(min(workers, len(todo)), config_text, suite, todo)


def describe_exit(exitcode: int | None) -> str:
    if exitcode is None:
        return "stopped"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        why = " (out of memory, or killed by hand)" if -exitcode == signal.SIGKILL else ""
        return f"was killed by {name}{why}"
    return f"exited with code {exitcode}"


def dead_worker_message(todo: Sequence[Episode], exitcodes: dict[int, int | None],
                        slots: list[tuple[int, int]]) -> str:
    """Which worker died and what it was running. ``slots``: (pid, position in ``todo`` or
    IDLE) per worker; ``exitcodes``: pid -> exit code (the pool ends the others with
    SIGTERM once one has died, so those do not count)."""
    dead = [(pid, position) for pid, position in slots
            if exitcodes.get(pid) not in (None, 0, -signal.SIGTERM)]
    if len(dead) == 1:
        pid, position = dead[0]
        if position == IDLE:
            return f"worker process {pid} {describe_exit(exitcodes[pid])} between two episodes; {RESUME}"
        episode = todo[position].episode_id
        return (f"the worker process (pid {pid}) running episode {episode} {describe_exit(exitcodes[pid])}; "
                f"{RESUME} ({episode} runs again)")
    running = [todo[position].episode_id for _, position in (dead or slots) if position != IDLE]
    return (f"a worker process died while running {' or '.join(running) or 'no episode'}; {RESUME}")


def _process_outcomes(workers: int, config_text: str, suite: str, todo: Sequence[Episode]) -> Iterator[Outcome]:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    # spawn: a fresh interpreter per worker (no inherited GL contexts, threads or locks)
    context = multiprocessing.get_context("spawn")
    counter = context.Value("i", 0)  # hands out the worker indices 0..K-1
    pids = context.RawArray("q", workers)
    running = context.RawArray("q", [IDLE] * workers)
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=init_process,
                               initargs=(config_text, suite, counter, pids, running))
    processes = getattr(pool, "_processes", None)  # CPython's pid -> Process (filled as they start)
    if processes is None:
        processes = {}
    queue = deque(enumerate(todo))
    pending: set[Any] = set()

    def submit() -> None:
        position, episode = queue.popleft()
        pending.add(pool.submit(run_in_process, episode_to_dict(episode), position))

    try:
        while queue and len(pending) < 2 * workers:
            submit()
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                try:
                    outcome = future.result()
                except BrokenProcessPool:
                    pool.shutdown(wait=True, cancel_futures=True)
                    exitcodes = {pid: p.exitcode for pid, p in list(processes.items())}
                    slots = [(pids[i], running[i]) for i in range(workers)]
                    raise WorkerDied(dead_worker_message(todo, exitcodes, slots)) from None
                if queue:
                    submit()
                yield outcome
    except BaseException:  # interrupted (Ctrl-C, SIGTERM, SIGHUP), closed early, or failed
        _stop(pool, processes)
        raise
    pool.shutdown(wait=True, cancel_futures=True)


def _stop(pool: Any, processes: dict[int, Any], grace: float = 5.0) -> None:
    """Stop the pool's worker processes now, not after the episodes they are running."""
    pool.shutdown(wait=False, cancel_futures=True)
    alive = [p for p in list(processes.values()) if p.is_alive()]
    for process in alive:
        process.terminate()
    for process in alive:
        process.join(grace)
        if process.is_alive():
            process.kill()
            process.join(grace)


class RayWorker:
    """A Ray actor around an ``EpisodeWorker``; a failure to build it is raised by its first
    episode, so that it arrives as the error it is."""

    def __init__(self, config_text: str, suite: str, worker_index: int) -> None:
        self.worker: EpisodeWorker | None = None
        self.error: Exception | None = None
        try:
            self.worker = EpisodeWorker(config_text, suite, worker_index=worker_index)
        except Exception as exc:
            self.error = exc

    def run(self, episode: dict[str, Any]) -> Outcome:
        if self.error is not None:
            raise self.error
        assert self.worker is not None
        return self.worker.run(episode)


def _ray_outcomes(address: str, workers: int, config_text: str, suite: str,
                  todo: Sequence[Episode]) -> Iterator[Outcome]:
    try:
        import ray
    except ImportError:
        raise PoolError(
            "--ray needs Ray: install the extra with pip install 'nesy[ray]' (or pip install "
            "'ray[default]'), or run without --ray to use local processes"
        ) from None
    started_here = not ray.is_initialized()
    guard = Guard().start() if started_here and address == "local" else None
    actors: list[Any] = []
    try:
        if started_here:
            if address == "local":
                ray.init(address="local", num_cpus=workers, include_dashboard=False,
                         log_to_driver=False, configure_logging=False)
            else:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
        remote_worker = ray.remote(num_cpus=1)(RayWorker)
        actors = [remote_worker.remote(config_text, suite, index) for index in range(min(workers, len(todo)))]
        queue = deque(todo)
        pending: dict[Any, tuple[Any, Episode]] = {}

        def submit(actor: Any) -> None:
            episode = queue.popleft()
            pending[actor.run.remote(episode_to_dict(episode))] = (actor, episode)

        for actor in actors:
            for _ in range(2):
                if queue:
                    submit(actor)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            actor, episode = pending.pop(ready[0])
            try:
                outcome = ray.get(ready[0])
            except ray.exceptions.RayTaskError as exc:  # raised by our code in the actor
                if isinstance(exc.cause, NesyError):
                    raise exc.cause from None
                raise
            except ray.exceptions.RayActorError as exc:
                reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise WorkerDied(f"the Ray actor running episode {episode.episode_id} died ({reason}); "
                                 f"{RESUME} ({episode.episode_id} runs again)") from None
            if queue:
                submit(actor)
            yield tuple(outcome)
    finally:
        for actor in actors:
            ray.kill(actor)
        if started_here:
            ray.shutdown()
        if guard is not None:
            guard.stop()
