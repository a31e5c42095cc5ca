"""The event rate of a table where no person plays: bots paced by BOT_PACE_SECONDS, and unpaced.

The production shape (tests/production/shape.py): one web process, a Celery worker (threads pool)
and beat, on a PostgreSQL database and a Redis db of the benchmark's own (dropped at the end). A
Whiskey Poker ``pot`` table of --seats seats, one person and the rest bots, starts; the person
sits out, so the table's bot plays their seat too and every bot turn is due BOT_PACE_SECONDS after
the move before. Such a table deals no new hand once the hand ends (CM-21: ``DealPostponed``, the
state's ``waiting_for_players``), and a bots-only Whiskey Poker hand is short (the bots knock
early: a few seconds' moves at a 1 s pace), so for the window the person sits in (the next hand is
dealt at once) and out again, hand after hand. The rate is taken over the bots-only stretches, each from the
``SatOut`` event to the ``DealPostponed`` one by the events' own times (``created_at``), read back
with GET /tables/{id}/events/; the window's figures count every event, the person's included. At
the end the table is left waiting for --quiet seconds: the events written then (none expected
until ``idle_minutes`` ends it). Then the same with BOT_PACE_SECONDS=0 (pacing off, as before it
existed) for --window-off seconds.

    python tests/benchmarks/bench_bot_pace.py [--window 30] [--window-off 10] [--pace 1.0] [--seats 6]

Environment: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres; a database of
the benchmark's own is created beside it), BENCH_REDIS_URL (default redis://127.0.0.1:6379/0).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.production.players import Person, TableSpec, register, set_up_table  # noqa: E402
from tests.production.shape import Shape  # noqa: E402

# The hand in play ends within this long even at a slow pace; a longer one is a fault.
HAND_LIMIT = 300.0
# A table's view or one of its events, as the API answers it.
Json = dict[str, Any]


def view_of(person: Person, table_id: str) -> Json:
    status, view = person.request("GET", f"/api/v1/tables/{table_id}/")
    if status != 200:
        raise RuntimeError(f"table GET: {status} {view}")
    answer: Json = view
    return answer


def act(person: Person, table_id: str, kind: str) -> None:
    """POST ``kind`` at the table's current version, again at the new one while a bot moved first."""
    for _ in range(50):
        sent = person.act(table_id, {"type": kind}, view_of(person, table_id)["version"])
        if sent.status == 200:
            return
        if sent.status != 409:
            raise RuntimeError(f"{kind}: {sent.status} {sent.answer}")
    raise RuntimeError(f"{kind}: the table kept moving for 50 tries")


def until_waiting(person: Person, table_id: str) -> bool:
    """Once the table waits for players (CM-21), the bots-only hand over: True; False if the match
    ended with the hand instead (the person's seat out of chips)."""
    deadline = time.monotonic() + HAND_LIMIT
    while time.monotonic() < deadline:
        view = view_of(person, table_id)
        if view["status"] != "running":
            return False
        if view["state"].get("waiting_for_players"):
            return True
        time.sleep(0.1)
    raise RuntimeError(f"the hand did not end within {HAND_LIMIT:.0f} s")


def events_after(person: Person, table_id: str, after: int) -> list[Json]:
    events: list[Json] = []
    while True:
        status, page = person.request("GET", f"/api/v1/tables/{table_id}/events/?after={after}&limit=500")
        if status != 200:
            raise RuntimeError(f"events GET: {status} {page}")
        events += page["results"]
        if not page["has_more"]:
            return events
        after = events[-1]["seq"]


def at(event: Json) -> float:
    return datetime.fromisoformat(event["created_at"]).timestamp()


def kinds(events: list[Json]) -> str:
    counted = {kind: sum(e["actor_kind"] == kind for e in events) for kind in ("user", "bot", "system")}
    return ", ".join(f"{kind} {n}" for kind, n in counted.items())


def bot_moves(events: list[Json]) -> int:
    """Bot commands: one command's events share their seat and time (games.store stamps them once)."""
    return len({(e["actor_seat"], e["created_at"]) for e in events if e["actor_kind"] == "bot"})


def run(shape: Shape, name: str, pace: float, window: float, quiet: float, seats: int) -> dict[str, float]:
    """One table at ``pace``: the person sits out and in hand after hand for ``window`` seconds."""
    env = {"BOT_PACE_SECONDS": str(pace)}
    web = shape.start_web("web", env=env)
    shape.start_worker("worker", env=env)
    shape.start_beat(env=env)
    try:
        person = register([web], name)
        spec = TableSpec("whiskey-poker", seats, people=1, options={"scoring": "pot", "chips_per_player": 100})
        table = set_up_table(spec, [person])
        act(person, table.id, "sit_out")
        started = time.monotonic()
        waiting = until_waiting(person, table.id)
        while waiting and time.monotonic() - started < window:
            act(person, table.id, "sit_in")
            act(person, table.id, "sit_out")
            waiting = until_waiting(person, table.id)
        time.sleep(quiet)
        events = events_after(person, table.id, table.start_version)
    finally:
        for process in shape.processes.values():
            process.stop()
    first = next(n for n, e in enumerate(events) if e["type"] == "SatOut")
    waits = [n for n, e in enumerate(events) if e["type"] == "DealPostponed"]
    window_events = events[first : waits[-1] + 1]
    # The waiting table's events, if it waits at the end (not if its match ended with the last hand).
    after_wait = events[waits[-1] + 1 :] if waiting else []
    # Each bots-only stretch: after a SatOut, up to and with the DealPostponed that follows it (a
    # last hand that ended the match instead is left out).
    stretches, seconds, hands = [], 0.0, 0
    for n, event in enumerate(events):
        end = next((m for m in waits if m > n), None)
        if event["type"] == "SatOut" and end is not None:
            stretches += events[n + 1 : end + 1]
            seconds += at(events[end]) - at(event)
            hands += 1
    moves = bot_moves(stretches)
    wall = at(events[waits[-1]]) - at(events[first])
    print(f"\n== BOT_PACE_SECONDS={pace:g}: {seats} seats (1 person sitting out, {seats - 1} bots), {hands} hands")
    print(
        f"events written from the first SatOut to the last DealPostponed: {len(window_events)} in {wall:.1f} s, "
        f"{len(window_events) / wall:.2f}/s ({kinds(window_events)}; the person's sit_in and sit_out between hands "
        "and the hands' starts with them included)"
    )
    print(
        f"while only bots played ({hands} stretches from SatOut to DealPostponed, {seconds:.2f} s by the "
        f"events' times): {len(stretches)} events, {len(stretches) / seconds:.2f}/s ({kinds(stretches)}); "
        f"bot moves {moves}, {moves / seconds:.2f}/s, {moves / hands:.1f} a hand"
    )
    if not waiting:
        print("the match ended with its last hand (the person's seat out of chips): no wait to watch")
    else:
        print(
            f"after the table began waiting (DealPostponed): {len(after_wait)} events in {quiet:.0f} s "
            f"(expected 0 until idle_minutes, 10 by default, ends the wait)"
        )
    return {"events_per_s": len(stretches) / seconds, "bot_moves_per_s": moves / seconds, "after_wait": len(after_wait)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--window", type=float, default=30.0, help="seconds of bots-only hands, paced")
    parser.add_argument("--window-off", type=float, default=10.0, help="the same with BOT_PACE_SECONDS=0")
    parser.add_argument("--pace", type=float, default=1.0, help="BOT_PACE_SECONDS for the paced run")
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--quiet", type=float, default=5.0, help="seconds the waiting table is watched")
    args = parser.parse_args()
    postgres = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    redis = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
    # The person asks for the table's view every 0.1 s; throttles would count the benchmark's own pace.
    env = {"THROTTLE_USER": "1000000/minute", "THROTTLE_ANON": "1000000/minute"}
    print(f"{os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start")
    with Shape.create(postgres, redis, prefix="bench_bot_pace", env=env) as shape:
        paced = run(shape, "paced", args.pace, args.window, args.quiet, args.seats)
        unpaced = run(shape, "unpaced", 0.0, args.window_off, args.quiet, args.seats)
    print(f"\nload average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    print(
        f"pacing at {args.pace:g} s writes {paced['events_per_s']:.2f} events/s while bots play, against "
        f"{unpaced['events_per_s']:.1f} unpaced: {unpaced['events_per_s'] / paced['events_per_s']:.0f} times fewer"
    )
    print(
        f"RESULT bot_pace pace={args.pace:g} events_per_s={paced['events_per_s']:.2f} "
        f"bot_moves_per_s={paced['bot_moves_per_s']:.2f} unpaced_events_per_s={unpaced['events_per_s']:.1f} "
        f"unpaced_bot_moves_per_s={unpaced['bot_moves_per_s']:.1f} "
        f"after_wait={paced['after_wait'] + unpaced['after_wait']}"
    )


if __name__ == "__main__":
    main()
