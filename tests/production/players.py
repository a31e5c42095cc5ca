"""People playing over HTTP against a running shape: registration, deposits, tables with bots,
random legal actions each sent with an Idempotency-Key, alternating between web processes."""

from __future__ import annotations

import itertools
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from tests.production.shape import Process, Shape

# Sitting out, sitting in and leaving (CM-20): listed whenever allowed, never a random player's move;
# nor the owner's commands, offered to the owner (ending a Whiskey Poker pot match, a cash table).
PRESENCE = frozenset({"sit_out", "sit_in", "leave"})
OWNERS = frozenset({"end_match", "end_table"})


def moves(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A seat's legal actions without the presence ones and the owner's, as a client sends them:
    what a random player picks from. A range (a Five-Card Draw bet or raise, FD-4) is sent at its
    least and at its most, a draw stands pat (FD-7); a top-up (FD-13) is no move but a purchase."""
    sent = []
    for action in legal:
        kind = action.get("type")
        if kind in PRESENCE | OWNERS | {"top_up"}:
            continue
        if kind == "draw":
            sent.append({"type": "draw", "discard": []})
        elif "min" in action and "max" in action and "amount" not in action:
            sent += [{"type": kind, "amount": amount} for amount in dict.fromkeys((action["min"], action["max"]))]
        else:
            sent.append(action)
    return sent


PASSWORD = "a long enough passphrase 7"


@dataclass
class Sent:
    """One action a person sent: its key, body, the web process that took it and its answer."""

    key: str
    table_id: str
    body: dict[str, Any]
    web: int
    status: int
    answer: Any
    seconds: float


@dataclass
class Person:
    """A registered user whose requests go to each web process in turn."""

    username: str
    token: str
    webs: list[Process]
    pk: int = 0
    sent: list[Sent] = field(default_factory=list)
    _turn: itertools.count = field(default_factory=itertools.count)

    def next_web(self) -> tuple[int, Process]:
        index = next(self._turn) % len(self.webs)
        return index, self.webs[index]

    def request(self, method: str, path: str, body: Any = None, **kwargs) -> tuple[int, Any]:
        _, web = self.next_web()
        return web.request(method, path, body, token=self.token, **kwargs)

    def act(self, table_id: str, action: dict[str, Any], version: int) -> Sent:
        """POST the action with a fresh Idempotency-Key; the answer is kept for the checks."""
        key = uuid.uuid4().hex
        body = {"action": action, "expected_version": version}
        index, web = self.next_web()
        started = time.perf_counter()
        status, answer = web.request(
            "POST", f"/api/v1/tables/{table_id}/actions/", body, token=self.token, headers={"Idempotency-Key": key}
        )
        sent = Sent(key, table_id, body, index, status, answer, time.perf_counter() - started)
        self.sent.append(sent)
        return sent


def register(webs: list[Process], username: str) -> Person:
    web = webs[hash(username) % len(webs)]
    status, body = web.request("POST", "/api/v1/auth/register/", {"username": username, "password": PASSWORD})
    if status != 201:
        raise AssertionError(f"registering {username}: {status} {body}")
    return Person(username, body["token"], webs)


def staff_member(shape: Shape, webs: list[Process], username: str = "staff") -> Person:
    """A superuser made by ``manage.py createsuperuser``, its token fetched over HTTP."""
    shape.manage(
        "createsuperuser",
        "--noinput",
        f"--username={username}",
        f"--email={username}@example.com",
        check=True,
        env={"DJANGO_SUPERUSER_PASSWORD": PASSWORD},
    )
    status, body = webs[0].request("POST", "/api/v1/auth/token/", {"username": username, "password": PASSWORD})
    if status != 200:
        raise AssertionError(f"token of {username}: {status} {body}")
    return Person(username, body["token"], webs)


def deposit(staff: Person, person: Person, currency: str, amount: str) -> None:
    status, body = staff.request(
        "POST",
        f"/api/v1/wallets/{person.username}/deposits/",
        {"currency": currency, "amount": amount},
        headers={"Idempotency-Key": uuid.uuid4().hex},
    )
    if status != 201:
        raise AssertionError(f"deposit for {person.username}: {status} {body}")


@dataclass
class TableSpec:
    game: str
    seats: int
    people: int
    options: dict[str, Any] = field(default_factory=dict)
    stake: dict[str, Any] | None = None


def tables_of_every_game(length: int = 1) -> list[TableSpec]:
    """A money table of every game for two people and bots, ``length`` setting how long each plays
    (chips per player, Euchre's target, fives of Five-Card Draw chips, tens of Guerra rounds): 1 is a
    minute's play or less."""
    chips = {"currency": "MXN", "chip_value": "1.00"}
    stake = {"currency": "MXN", "amount": "5.00"}
    return [
        TableSpec("la-viuda", 4, people=2, options={"chips_per_player": length}, stake=chips),
        TableSpec("whiskey-poker", 3, people=2, options={"scoring": "pot", "chips_per_player": length}, stake=chips),
        TableSpec("euchre", 4, people=2, options={"target_points": length}, stake=stake),
        # A tournament (FD-13) of a few antes' chips each: the random players' bets end it in a few hands.
        TableSpec(
            "five-card-draw", 3, people=2, options={"format": "tournament", "starting_stack": 5 * length}, stake=stake
        ),
        TableSpec("guerra", 3, people=2, options={"max_rounds": 10 * length}, stake=stake),
    ]


@dataclass
class PlayedTable:
    """A table set up over HTTP: its people by seat (the others are bots) and its version once started."""

    id: str
    spec: TableSpec
    people: dict[int, Person]
    start_version: int
    finished: bool = False
    error: str | None = None


def set_up_table(spec: TableSpec, people: list[Person]) -> PlayedTable:
    """The first person creates the table; people take the first seats, bots the rest; it starts."""
    owner = people[0]
    status, body = owner.request(
        "POST",
        "/api/v1/tables/",
        {"game": spec.game, "seats": spec.seats, "options": spec.options, "stake": spec.stake},
    )
    if status != 201:
        raise AssertionError(f"creating {spec.game}: {status} {body}")
    table_id = body["id"]
    for seat in range(spec.seats):
        if seat < len(people):
            status, body = people[seat].request("POST", f"/api/v1/tables/{table_id}/join/", {"seat": seat})
            expected = 200
        else:
            status, body = owner.request("POST", f"/api/v1/tables/{table_id}/bots/", {"seat": seat})
            expected = 201
        if status != expected:
            raise AssertionError(f"seat {seat} at {spec.game}: {status} {body}")
    status, body = owner.request("POST", f"/api/v1/tables/{table_id}/start/")
    if status != 200:
        raise AssertionError(f"starting {spec.game}: {status} {body}")
    return PlayedTable(table_id, spec, dict(enumerate(people)), body["version"])


def play(
    table: PlayedTable, rng: random.Random, *, until: float, poll: float = 0.15, stop: threading.Event | None = None
) -> None:
    """Random legal actions by whichever person the table awaits, until it finishes, the
    monotonic clock passes ``until`` or ``stop`` is set. Bots and timers are the workers' and
    beat's business."""
    watcher = table.people[0]
    path = f"/api/v1/tables/{table.id}/"
    try:
        while time.monotonic() < until and not (stop is not None and stop.is_set()):
            status, view = watcher.request("GET", path)
            if status != 200:
                raise AssertionError(f"GET {path}: {status} {view}")
            if view["status"] == "finished":
                table.finished = True
                return
            awaited = [seat for seat in view["to_act"] if seat in table.people]
            if not awaited:
                time.sleep(poll)
                continue
            person = table.people[rng.choice(awaited)]
            status, mine = person.request("GET", path)
            if status != 200 or not moves(mine["legal_actions"]):
                continue
            sent = person.act(table.id, rng.choice(moves(mine["legal_actions"])), mine["version"])
            # 409: a bot or a timer moved the table first; the next view says what is awaited now.
            if sent.status not in (200, 409):
                raise AssertionError(f"action at {table.spec.game}: {sent.status} {sent.answer}")
    except Exception as exc:  # reported with the table that did not finish
        table.error = f"{type(exc).__name__}: {exc}"


def play_all(tables: list[PlayedTable], *, seconds: float, seed: int = 0) -> None:
    """Every table in its own thread, all bounded by the same deadline."""
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=play, args=(table, random.Random(seed + n)), kwargs={"until": until}, daemon=True)
        for n, table in enumerate(tables)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
