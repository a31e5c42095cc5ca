"""How long a hand audit and its verification take as a table grows.

Run with the project's Python: ``python tests/benchmarks/bench_audit.py [--seats 5] [--chips 10]``.
Plays one La Viuda table of bots with money through the services (bots' turns and deadlines run in
process), then times, for its first, middle and last hand: building the audit JSON (which includes
the verification) and the verification alone; and ``verify_hands`` over every hand of the table.
Verification replays the table from its first event (an auditor trusts no snapshot), so its cost
grows with the hand's position in the table. Uses ``DATABASE_URL`` if set, else a throwaway SQLite
file. Each timing is the best of three because the machine may be shared.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def setup() -> None:
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix="bench_audit_")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("SECRET_KEY", "bench-only-key-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def play_table(seats: int, chips: int):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games import play, scheduling, tasks
    from games.models import Table

    owner = get_user_model().objects.create_user(username=f"bench{time.time_ns()}")
    table = play.create_table(
        user=owner,
        game="la-viuda",
        seats=seats,
        options={"chips_per_player": chips},
        stake={"currency": "MXN", "chip_value": "1.00"},
    )
    queue: list[tuple[str, tuple]] = []
    scheduling.set_publisher(lambda name, args, countdown, headers: queue.append((name, args)))
    for _ in range(seats):
        play.add_bot(table_id=table.pk, user=owner)
    play.start_table(table_id=table.pk, user=owner)
    for _ in range(100_000):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return table
        if queue:
            name, args = queue.pop(0)
            if not name.endswith("expire_deadline"):
                getattr(tasks, name.rsplit(".", 1)[1])(*args)
            continue
        Table.objects.filter(pk=table.pk).update(deadline_at=timezone.now())
        play.expire_deadline(table_id=table.pk, expected_version=table.version)
    sys.exit("the table did not finish")


def best_of(n: int, work) -> float:
    best = float("inf")
    for _ in range(n):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--chips", type=int, default=10)
    args = parser.parse_args()
    setup()
    from django.core.management import call_command

    from games import audit
    from games.models import Event

    started = time.perf_counter()
    table = play_table(args.seats, args.chips)
    played = time.perf_counter() - started
    hands = sorted(audit.finished_hand_numbers(table))
    events = Event.objects.filter(table=table).count()
    print(
        f"La Viuda, {args.seats} bots, {args.chips} chips each: {len(hands)} hands, {events} events ({played:.1f}s to play)"
    )
    for label, hand_no in (("first", hands[0]), ("middle", hands[len(hands) // 2]), ("last", hands[-1])):
        built = best_of(3, lambda hand_no=hand_no: audit.hand_audit(table, hand_no))
        checked = best_of(3, lambda hand_no=hand_no: audit.verify_hand(table, hand_no))
        print(
            f"hand {hand_no:3} ({label:6}): audit JSON {built * 1000:7.1f} ms, verification alone {checked * 1000:7.1f} ms"
        )
    whole = best_of(1, lambda: call_command("verify_hands", table=str(table.pk), stdout=io.StringIO()))
    print(
        f"RESULT verify_hands over {len(hands)} hands / {events} events: {whole:.2f} s ({whole / len(hands) * 1000:.0f} ms a hand)"
    )


if __name__ == "__main__":
    main()
