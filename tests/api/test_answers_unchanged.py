"""The API's answers for one seeded game of each game, compared with answers recorded earlier.

This guards reorganisations that must not change behaviour: each game is played through HTTP with
everything that varies from run to run fixed (server seeds, table ids, usernames, the people's
random choices; bots already choose from the table id and version), and every answer a client
sees is compared, in order, with ``tests/api/answers/<game>.json``. Only what still depends on the
clock is normalised (see ``normalise``). Besides the JSON values, the normalised bytes of each
answer are compared, so a change of key order or number formatting shows too.

Some answers depend on the database: PostgreSQL's ``jsonb`` keeps an object's keys in its own
order, which shows in the bytes of most answers and in the text of ``history.txt``. So each backend
has its recording: ``<game>.json`` for SQLite (``make test``), ``<game>.postgresql.json`` for
PostgreSQL (CI).

``RECORD_ANSWERS=1`` rewrites the current backend's recordings instead of comparing (the test then
passes); review the diff of ``tests/api/answers/`` before committing one.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import itertools
import json
import os
import random
import re
import secrets
import uuid
from pathlib import Path
from typing import Any

import knox.crypto
import pytest
from django.db import connection
from rest_framework.test import APIClient

from api import limits
from games import store
from games.models import Table
from tests.api.play import Game, _run_due_system_command, game_moves, person

pytestmark = pytest.mark.django_db(transaction=True, reset_sequences=True)

ANSWERS = Path(__file__).resolve().parent / "answers"
RECORD = os.environ.get("RECORD_ANSWERS") == "1"

GAMES = {
    "la-viuda": Game("la-viuda", 5, people=(0, 2), stake={"currency": "MXN", "chip_value": "5.00"}),
    "whiskey-poker": Game(
        "whiskey-poker",
        4,
        people=(1, 3),
        options={"scoring": "pot", "chips_per_player": 4},
        stake={"currency": "MXN", "chip_value": "2.00"},
    ),
    "euchre": Game(
        "euchre", 4, people=(0, 1), options={"target_points": 5}, stake={"currency": "MXN", "amount": "10.00"}
    ),
    "guerra": Game(
        "guerra", 4, people=(0, 1), options={"max_rounds": 60}, stake={"currency": "MXN", "amount": "10.00"}
    ),
}


# --- what varies from run to run, fixed or normalised --------------------------------------------

# An RFC 3339 UTC date and time as a whole JSON string ("2025-01-31T12:00:00.123456Z"). Times are
# the clock's, so they differ on every run; the text around them, and whether a value is a time or
# null, is still compared.
ISO_TIME = re.compile(r'"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?"')
# The seconds to a deadline by the server's clock, beside it (the view's ``seconds_left``).
SECONDS_LEFT = re.compile(r'"seconds_left": ?\d+(?:\.\d+)?')


def normalise(text: str) -> str:
    """An answer's body with each timestamp (``created_at``, ``deadline``, ``decided_at``, ...)
    replaced by ``"<time>"`` and each ``seconds_left`` by ``"<seconds>"``: the only parts of the
    answers that depend on the clock."""
    return SECONDS_LEFT.sub('"seconds_left": "<seconds>"', ISO_TIME.sub('"<time>"', text))


@pytest.fixture
def fixed(monkeypatch):
    """Make the run repeatable: counter-derived server seeds, counter-derived table ids, a
    counter-derived clock for recording events, and no request throttling (how many requests fit in a minute depends on the machine's speed)."""
    seeds = itertools.count(1)
    tables = itertools.count(1)

    def token_bytes(n: int | None = None) -> bytes:
        # Patched in ``secrets`` itself so it holds wherever the seeds come to be made.
        return hashlib.sha256(f"server seed {next(seeds)}".encode()).digest()[: n or 32]

    def table_id() -> uuid.UUID:
        return uuid.UUID(int=0xA45E_0000_0000_4000_8000_0000_0000_0000 + next(tables))

    monkeypatch.setattr(secrets, "token_bytes", token_bytes)
    # The recordings' seeds were counted when each person's API token (DRF's then) drew its bytes
    # from ``secrets`` too, one draw per token: knox's tokens draw the same way here, so the seeds,
    # and with them every deal, stay the recorded ones.
    monkeypatch.setattr(knox.crypto, "generate_bytes", lambda n: secrets.token_bytes(n))
    # A field keeps its default callable in a cached property, read when a row is made.
    monkeypatch.setattr(Table._meta.pk, "_get_default", table_id)
    monkeypatch.setattr(limits.CountingThrottle, "allow_request", lambda self, request, view: True)
    # An event's hash covers its created_at (hash version 2), so the clock that stamps events is
    # fixed too: one millisecond per append from a fixed start. Nothing else reads it; the times
    # the answers show are normalised anyway.
    start, ticks = dt.datetime(2025, 1, 1, tzinfo=dt.UTC), itertools.count(1)
    monkeypatch.setattr(store, "_now", lambda: start + dt.timedelta(milliseconds=next(ticks)))


# --- recording the answers ---------------------------------------------------------------------


class Answers:
    """Every request a client makes, and the answer it got, in order."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def get(self, client: APIClient, path: str) -> Any:
        return self._keep("GET", client, path, None, client.get(path))

    def post(self, client: APIClient, path: str, body: dict[str, Any] | None = None) -> Any:
        return self._keep("POST", client, path, body, client.post(path, body, format="json"))

    def _keep(self, method: str, client: APIClient, path: str, body, response) -> Any:
        content_type = response["Content-Type"]
        text = normalise(response.content.decode())
        is_json = content_type.startswith("application/json")
        self.items.append(
            {
                "request": {"method": method, "path": path, "as": client.user.username, "body": body},
                "status": response.status_code,
                "content_type": content_type,
                # A text body (history.txt) is kept as its lines, so a diff shows the line that changed.
                "body": json.loads(text) if is_json else text.split("\n"),
                "bytes_sha256": hashlib.sha256(text.encode()).hexdigest(),
            }
        )
        return response.json() if is_json else response.content.decode()


def play(spec: Game, task_queue, answers: Answers) -> None:
    """Set the table up, play it to the end as ``tests/api/play.py`` does (people choose at random
    among their legal actions, the queued bot tasks run in between) and read everything after.
    Each person's view of the table is read after every step."""
    staff, owner = person("sam", staff=True), person("alice")
    created = answers.post(
        owner, "/api/v1/tables/", {"game": spec.game, "seats": spec.seats, "options": spec.options, "stake": spec.stake}
    )
    table = f"/api/v1/tables/{created['id']}/"
    people = _seat_everyone(spec, answers, staff, owner, table)
    answers.post(owner, f"{table}start/")
    version = _play_to_the_end(created["id"], table, people, task_queue, answers)
    _read_everything(table, version, staff, owner, people, answers)


def _seat_everyone(
    spec: Game, answers: Answers, staff: APIClient, owner: APIClient, table: str
) -> dict[int, APIClient]:
    """Seat the people (funding their wallets at a money table) and the bots; the people by seat."""
    people: dict[int, APIClient] = {}
    for seat in range(spec.seats):
        if seat in spec.people:
            client = owner if seat == spec.people[0] else person(f"player{seat}")
            if spec.stake:
                answers.post(
                    staff,
                    f"/api/v1/wallets/{client.user.username}/deposits/",
                    {"currency": spec.stake["currency"], "amount": spec.fund},
                )
            answers.post(client, f"{table}join/", {"seat": seat})
            people[seat] = client
        else:
            answers.post(owner, f"{table}bots/", {"seat": seat})
    return people


def _play_to_the_end(table_id: str, table: str, people: dict[int, APIClient], task_queue, answers: Answers) -> int:
    """Play until the table is finished; the table's last version."""
    rng = random.Random(20240601)
    for _ in range(5_000):
        task_queue.run_until_idle()
        views = {seat: answers.get(client, table) for seat, client in people.items()}
        view = next(iter(views.values()))
        if view["status"] == "finished":
            return view["version"]
        awaited = [seat for seat in view["to_act"] if seat in people]
        if not awaited:
            if not task_queue.published:
                _run_due_system_command(table_id)
            continue
        seat = rng.choice(awaited)
        mine = views[seat]
        # Not "leave", "sit_out" or "sit_in" (CM-20, offered on every turn): a person who left would
        # have nothing more to show, and the recorded game is one the people play themselves.
        legal = game_moves(mine)
        if legal:
            action = {"action": rng.choice(legal), "expected_version": mine["version"]}
            assert answers.post(people[seat], f"{table}actions/", action)["version"] > mine["version"]
    pytest.fail("the game did not finish")


def _read_everything(
    table: str, version: int, staff: APIClient, owner: APIClient, people: dict[int, APIClient], answers: Answers
) -> None:
    """Everything a client can read of a finished table: events, hands and their audits, a replay,
    the wallets and transactions of each person, the payouts."""
    for client in people.values():
        answers.get(client, f"{table}events/?after=0")
    hands = answers.get(owner, f"{table}hands/?limit=100")
    assert hands["has_more"] is False
    for hand_no in sorted(hand["hand_no"] for hand in hands["results"]):
        for what in ("audit/", "verify/", "history.txt", "history.phh"):
            answers.get(owner, f"{table}hands/{hand_no}/{what}")
    answers.get(owner, f"{table}replay/?version={version // 2}")
    for client in people.values():
        answers.get(client, "/api/v1/wallets/me/")
        answers.get(client, "/api/v1/ledger/transactions/")
    answers.get(staff, "/api/v1/payouts/")


# --- comparing with the recording -----------------------------------------------------------------


def dumps(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def recording(game: str) -> Path:
    suffix = "" if connection.vendor == "sqlite" else f".{connection.vendor}"
    return ANSWERS / f"{game}{suffix}.json"


def first_difference(recorded: list[dict[str, Any]], live: list[dict[str, Any]]) -> str | None:
    """What the first differing answer is, with a short diff; None when every answer is the same."""
    for index, (old, new) in enumerate(zip(recorded, live)):
        request = f"answer #{index}: {new['request']['method']} {new['request']['path']} as {new['request']['as']}"
        if old["request"] != new["request"]:
            return f"{request}: the request differs (recorded: {old['request']})"
        same_value = {k: v for k, v in old.items() if k != "bytes_sha256"} == {
            k: v for k, v in new.items() if k != "bytes_sha256"
        }
        if not same_value:
            diff = difflib.unified_diff(
                dumps(old).splitlines(), dumps(new).splitlines(), "recorded", "now", n=2, lineterm=""
            )
            return f"{request}:\n" + "\n".join(line[:240] for line in itertools.islice(diff, 60))
        if old["bytes_sha256"] != new["bytes_sha256"]:
            return f"{request}: the same JSON, but different bytes (key order, spacing or number format)"
    if len(recorded) != len(live):
        return f"{len(recorded)} answers recorded, {len(live)} now; the first {min(len(recorded), len(live))} agree"
    return None


@pytest.mark.parametrize("game", list(GAMES))
def test_the_answers_to_a_seeded_game_are_the_recorded_ones(game, fixed, task_queue):
    answers = Answers()
    play(GAMES[game], task_queue, answers)
    path = recording(game)
    if RECORD:
        ANSWERS.mkdir(exist_ok=True)
        path.write_text(
            dumps({"game": game, "recorded_on": connection.vendor, "answers": answers.items}), encoding="utf-8"
        )
        return
    assert path.exists(), f"no recording {path.name}: run with RECORD_ANSWERS=1 on the code before the change"
    recorded = json.loads(path.read_text(encoding="utf-8"))
    assert recorded["recorded_on"] == connection.vendor, f"{path.name} was recorded on {recorded['recorded_on']}"
    live = json.loads(dumps(answers.items))  # the same round trip the recording made
    difference = first_difference(recorded["answers"], live)
    if difference is not None:
        pytest.fail(f"{game}: {difference}", pytrace=False)
