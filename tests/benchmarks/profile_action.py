"""Where the CPU of one person's action goes, in-process: a 4-seat Whiskey Poker table of one person
and three bots; each cycle is the person's table GET, their action POST and the bot turns that
follow (run by the test task queue, as the worker would). Prints CPU per cycle by kind and the
functions of the project (and the libraries under them) that take most of it.

    .venv/bin/python -m pytest tests/benchmarks/profile_action.py -q -s [--cycles N via CYCLES=N]
"""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import time

import pytest

from tests.api.play import Game, game_moves, person, set_up

pytestmark = pytest.mark.django_db(transaction=True)

CYCLES = int(os.environ.get("CYCLES", "40"))
# PROFILE=0: the CPU figures alone, without the profiler's own cost in them.
PROFILE = os.environ.get("PROFILE") != "0"


class _NoProfile:
    def enable(self) -> None:
        pass

    def disable(self) -> None:
        pass


def test_print_where_the_cpu_of_an_action_goes(task_queue):
    owner, staff = person("alice"), person("sam", staff=True)
    spec = Game("whiskey-poker", 4, people=(0,), options={"scoring": "points", "target_points": 50})
    table_id, clients = set_up(spec, owner, staff)
    client = clients[0]
    task_queue.run_until_idle()
    spent = {"get": 0.0, "post": 0.0, "bots": 0.0}
    # The profiler's clock is the process's CPU time: a wait on the database costs nothing here.
    profile = cProfile.Profile(time.process_time) if PROFILE else _NoProfile()
    done = 0
    for _ in range(CYCLES):
        started = time.process_time()
        profile.enable()
        view = client.get(f"/api/v1/tables/{table_id}/").json()
        profile.disable()
        spent["get"] += time.process_time() - started
        if view["status"] == "finished":
            break
        if 0 not in view["to_act"]:
            started = time.process_time()
            profile.enable()
            task_queue.run_until_idle()
            profile.disable()
            spent["bots"] += time.process_time() - started
            continue
        action = game_moves(view)[0]
        started = time.process_time()
        profile.enable()
        answer = client.post(
            f"/api/v1/tables/{table_id}/actions/",
            {"action": action, "expected_version": view["version"]},
            format="json",
        )
        profile.disable()
        spent["post"] += time.process_time() - started
        assert answer.status_code == 200, answer.json()
        started = time.process_time()
        profile.enable()
        task_queue.run_until_idle()
        profile.disable()
        spent["bots"] += time.process_time() - started
        done += 1
    print()
    print(
        f"{done} person actions; CPU per action (ms):", {k: round(1000 * v / max(done, 1), 2) for k, v in spent.items()}
    )
    if not PROFILE:
        return
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats(os.environ.get("SORT", "tottime")).print_stats(int(os.environ.get("LINES", "35")))
    if os.environ.get("DUMP"):
        stats.dump_stats(os.environ["DUMP"])
    if os.environ.get("CALLERS"):
        stats.print_callers(os.environ["CALLERS"])
    print(out.getvalue())
