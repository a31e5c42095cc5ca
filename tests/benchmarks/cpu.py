"""CPU time of a benchmark's processes, counted whole: every process of a tree, the ones still
running and the ones already gone.

Linux keeps, for each process, its own CPU (utime and stime in /proc/<pid>/stat) and the CPU of the
children it has waited for (cutime and cstime: each reaped child's own CPU plus what that child had
itself reaped). So a tree's CPU so far is the sum, over the tree's live processes, of all four: a
process that is gone is in exactly one live ancestor's cutime, the one that reaped it. Summing only
the live processes' utime and stime, as sampling does, misses every process born and reaped between
two samples: a PostgreSQL server's short-lived backends (one per connection), gunicorn's recycled
workers. Counted this way the tree's CPU is a counter that only grows, and the difference of two
readings is exactly the CPU spent in between, whoever spent it.

A tree is named by its root processes: a root, every process whose parent chain reaches it, and
every process in a root's process group (a killed parent's orphans stay in its group). The root
must outlive the window, and must be the one that reaps: a PostgreSQL server of the benchmark's own
(its postmaster reaps every backend), a gunicorn master, a Celery worker. A shared server's root
also reaps other clients' backends, so there only ``pids``, the backends seen at each reading, can
be counted, and that under-counts (see ``Meter.add_pids``).

    meter = Meter()
    meter.add_tree("web", [web.pid])
    meter.add_tree("postgres", [postmaster_pid])
    before = meter.read()
    ...
    spent = meter.read() - before   # {"web": 1.23, "postgres": 2.5} in CPU seconds
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

PROC = Path("/proc")


@dataclass(frozen=True)
class Stat:
    """The fields of one /proc/<pid>/stat that the accounting reads; times in clock ticks."""

    pid: int
    ppid: int
    pgrp: int
    utime: int
    stime: int
    cutime: int
    cstime: int

    @property
    def own(self) -> int:
        """The process's own CPU (all its threads)."""
        return self.utime + self.stime

    @property
    def total(self) -> int:
        """Its own CPU and that of the children it reaped (theirs included, recursively)."""
        return self.utime + self.stime + self.cutime + self.cstime


def parse_stat(text: str) -> Stat:
    """One line of /proc/<pid>/stat. The command, in parentheses, may hold spaces and parentheses
    itself, so the fields are counted from the last ')'."""
    head, _, tail = text.rpartition(")")
    pid = int(head.split("(", 1)[0])
    fields = tail.split()
    # After the command: state (0), ppid (1), pgrp (2), session, tty_nr, tpgid, flags, minflt,
    # cminflt, majflt, cmajflt, utime (11), stime (12), cutime (13), cstime (14).
    return Stat(
        pid=pid,
        ppid=int(fields[1]),
        pgrp=int(fields[2]),
        utime=int(fields[11]),
        stime=int(fields[12]),
        cutime=int(fields[13]),
        cstime=int(fields[14]),
    )


def snapshot(proc: Path = PROC) -> dict[int, Stat]:
    """Every process's stat, by pid (processes that exit while being read are left out)."""
    stats = {}
    for path in proc.glob("[0-9]*/stat"):
        try:
            stat = parse_stat(path.read_text())
        except (OSError, ValueError, IndexError):
            continue
        stats[stat.pid] = stat
    return stats


def members(stats: Mapping[int, Stat], roots: Iterable[int]) -> set[int]:
    """The live processes of the tree of ``roots``: the roots, their descendants by parent, and
    every process in a root's process group."""
    roots = set(roots)
    children: dict[int, list[int]] = {}
    for stat in stats.values():
        children.setdefault(stat.ppid, []).append(stat.pid)
    found = {pid for pid in roots if pid in stats}
    found |= {stat.pid for stat in stats.values() if stat.pgrp in roots}
    queue = list(found)
    while queue:
        for child in children.get(queue.pop(), ()):
            if child not in found:
                found.add(child)
                queue.append(child)
    return found


def tree_ticks(stats: Mapping[int, Stat], roots: Iterable[int]) -> int:
    """The CPU of the tree of ``roots`` so far, live and reaped processes alike, in ticks.

    A live member's reaped children are in its cutime; a reaped process is never also live, so
    nothing is counted twice. A member whose parent is also a member is still counted for its own
    time: it is alive, so its parent has not reaped it."""
    return sum(stats[pid].total for pid in members(stats, roots))


def pids_ticks(stats: Mapping[int, Stat], pids: Iterable[int]) -> int:
    """The own CPU of the given processes that are alive, in ticks (what sampling sees)."""
    return sum(stats[pid].own for pid in pids if pid in stats)


TICK = 1 / os.sysconf("SC_CLK_TCK")


@dataclass
class Reading:
    """CPU seconds by name at one instant; subtract an earlier reading for what was spent between."""

    seconds: dict[str, float]
    at: float

    def __sub__(self, earlier: Reading) -> Spent:
        return Spent(
            {name: value - earlier.seconds.get(name, 0.0) for name, value in self.seconds.items()},
            self.at - earlier.at,
        )


@dataclass
class Spent:
    """CPU seconds spent by name over ``wall`` seconds."""

    seconds: dict[str, float]
    wall: float

    @property
    def total(self) -> float:
        return sum(self.seconds.values())

    def cores(self, name: str | None = None) -> float:
        """Cores kept busy on average: by ``name``, or by all together."""
        spent = self.total if name is None else self.seconds.get(name, 0.0)
        return spent / self.wall if self.wall > 0 else 0.0

    def per(self, count: int) -> dict[str, float]:
        """Milliseconds of CPU per one of ``count`` things (person actions), by name and in total."""
        if count <= 0:
            return {}
        shares = {name: value * 1000 / count for name, value in self.seconds.items()}
        shares["total"] = self.total * 1000 / count
        return shares


@dataclass
class Meter:
    """Named groups of processes, read together from one snapshot of /proc."""

    trees: dict[str, Callable[[], Iterable[int]]] = field(default_factory=dict)
    sampled: dict[str, Callable[[], Iterable[int]]] = field(default_factory=dict)
    proc: Path = PROC

    def add_tree(self, name: str, roots: Iterable[int] | Callable[[], Iterable[int]]) -> None:
        """Count the whole tree of ``roots`` (live and reaped). A callable is asked at each reading,
        for roots that change (a restarted process)."""
        self.trees[name] = roots if callable(roots) else _constant(list(roots))

    def add_pids(self, name: str, pids: Callable[[], Iterable[int]]) -> None:
        """Count only the processes ``pids()`` names at each reading, their own CPU: for processes
        whose reaper is not ours (a shared PostgreSQL's backends). Whatever was born and reaped
        between two readings is missed, and so is the last part of the life of one that ended."""
        self.sampled[name] = pids

    def read(self, clock: Callable[[], float] | None = None) -> Reading:
        import time

        named = {name: list(pids()) for name, pids in self.sampled.items()}
        roots = {name: list(get()) for name, get in self.trees.items()}
        stats = snapshot(self.proc)
        seconds = {name: tree_ticks(stats, pids) * TICK for name, pids in roots.items()}
        seconds.update({name: pids_ticks(stats, pids) * TICK for name, pids in named.items()})
        return Reading(seconds, (clock or time.monotonic)())


def _constant(values: list[int]) -> Callable[[], list[int]]:
    return lambda: values


def self_seconds() -> float:
    """This process's own CPU so far (the load generator's share of the machine)."""
    times = os.times()
    return times.user + times.system


def machine_busy() -> tuple[float, float]:
    """(busy, total) seconds of all the machine's cores so far, from /proc/stat; the difference of
    two readings says how many cores were busy in between, whoever kept them busy."""
    first = (PROC / "stat").read_text().splitlines()[0].split()
    # cpu user nice system idle iowait irq softirq steal guest guest_nice
    user, nice, system, idle, iowait, irq, softirq, steal = (int(value) for value in first[1:9])
    busy = user + nice + system + irq + softirq
    return busy * TICK, (busy + idle + iowait + steal) * TICK


def reference_seconds(rounds: int = 5) -> float:
    """CPU seconds of a fixed piece of plain Python (dicts, strings, JSON: what a request does most),
    the least of ``rounds`` runs: how fast this machine runs Python, printed beside a benchmark's
    figures so that runs on different machines can be compared. The same work whatever the project
    becomes; 0.08 to 0.16 s on the shared machine that first printed it, whose speed varied that much
    from minute to minute (docs/operations.md, "Capacity")."""
    import json
    import time

    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for number in range(4_000):
            body = {"table": f"t-{number}", "seats": [{"seat": seat, "chips": seat * number} for seat in range(8)]}
            text = json.dumps(body, separators=(",", ":"))
            back = json.loads(text)
            back["seats"].sort(key=lambda seat: -seat["chips"])
            "|".join(str(seat["chips"]) for seat in back["seats"])
        best = min(best, time.process_time() - started)
    return best
