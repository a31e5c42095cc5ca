"""Playing whole games through HTTP: people as random legal clients, bots run by the worker's tasks
(from the in-test queue), and the checks every finished game must pass."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Sum
from knox.models import AuthToken
from rest_framework.test import APIClient

from games import chain, store
from games.engine import presence, registry
from games.engine.codec import encode_state
from games.models import Table
from ledger import services as ledger
from ledger.models import Posting


def person(name: str, *, staff: bool = False) -> APIClient:
    user = get_user_model().objects.create_user(username=name, is_staff=staff)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")
    client.user = user
    return client


def fund(staff: APIClient, client: APIClient, currency: str, amount: str) -> None:
    response = staff.post(
        f"/api/v1/wallets/{client.user.username}/deposits/", {"currency": currency, "amount": amount}, format="json"
    )
    assert response.status_code == 201, response.json()


def game_moves(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The game's own moves among a view's ``legal_actions``: neither sitting out, in or leaving
    (CM-20) nor the owner's commands (ending the table), which a test sends when it means to."""
    owners = registry.get(view["game"]).owner_commands
    return [
        action
        for action in view["legal_actions"]
        if not presence.is_presence_action(action) and action["type"] not in owners
    ]


@dataclass
class Game:
    """A table to play: who sits where (a client, or None for a bot) and its terms."""

    game: str
    seats: int
    people: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)
    stake: dict[str, Any] | None = None
    fund: str = "1000.00"


def set_up(spec: Game, owner: APIClient, staff: APIClient) -> tuple[str, dict[int, APIClient | None]]:
    response = owner.post(
        "/api/v1/tables/",
        {"game": spec.game, "seats": spec.seats, "options": spec.options, "stake": spec.stake},
        format="json",
    )
    assert response.status_code == 201, response.json()
    table_id = response.json()["id"]
    clients: dict[int, APIClient | None] = {}
    for seat in range(spec.seats):
        if seat in spec.people:
            client = owner if seat == spec.people[0] else person(f"player{seat}")
            if spec.stake:
                fund(staff, client, spec.stake["currency"], spec.fund)
            joined = client.post(f"/api/v1/tables/{table_id}/join/", {"seat": seat}, format="json")
            assert joined.status_code == 200, joined.json()
            clients[seat] = client
        else:
            added = owner.post(f"/api/v1/tables/{table_id}/bots/", {"seat": seat}, format="json")
            assert added.status_code == 201, added.json()
            clients[seat] = None
    started = owner.post(f"/api/v1/tables/{table_id}/start/")
    assert started.status_code == 200, started.json()
    return table_id, clients


def play_to_the_end(
    table_id: str,
    clients: dict[int, APIClient | None],
    task_queue,
    rng: random.Random,
    *,
    limit: int = 20_000,
    choose=None,
    read_events: bool = False,
) -> dict:
    """Random legal clients act whenever one of them is awaited; queued tasks (bots, and with
    ``run_timers`` the timed commands) run in between. ``choose(view, rng)`` picks an action from a
    person's view (any legal action by default); with ``read_events`` the first person also reads
    the latest events after each step. Returns the final table as the first person sees it."""
    watcher = next(c for c in clients.values() if c is not None)
    for _ in range(limit):
        task_queue.run_until_idle()
        view = watcher.get(f"/api/v1/tables/{table_id}/").json()
        if read_events:
            watcher.get(f"/api/v1/tables/{table_id}/events/", {"after": max(view["version"] - 5, 0)})
        if view["status"] == "finished":
            return view
        people = [seat for seat in view["to_act"] if clients.get(seat) is not None]
        if not people:
            if not task_queue.published:
                _run_due_system_command(table_id)
            continue
        client = clients[rng.choice(people)]
        mine = client.get(f"/api/v1/tables/{table_id}/").json()
        # Sitting out, sitting in and leaving (CM-20) are listed whenever allowed, and the owner's
        # commands to their owner; a random client plays the game's moves, and a test that means
        # to leave or end the table says so itself.
        moves = game_moves(mine)
        mine["legal_actions"] = moves
        if not moves:
            continue
        response = client.post(
            f"/api/v1/tables/{table_id}/actions/",
            {
                "action": choose(mine, rng) if choose else rng.choice(moves),
                "expected_version": mine["version"],
            },
            format="json",
        )
        assert response.status_code == 200, response.json()
    pytest.fail("the game did not finish")


def _run_due_system_command(table_id: str) -> None:
    """Nobody may act and no task is queued: the table waits for its timer (an offer, a round of
    an automatic game). Bring the deadline forward, as if the time had passed, and sweep."""
    from django.utils import timezone

    from games import play

    table = Table.objects.get(pk=table_id)
    if table.deadline_at is None:
        pytest.fail(f"table {table_id} waits for nobody and has no deadline")
    Table.objects.filter(pk=table_id).update(deadline_at=timezone.now())
    assert play.expire_deadline(table_id=table_id, expected_version=table.version) is not None


def check_finished_table(table_id: str) -> dict[str, int]:
    """What every finished game must show: a valid hash chain, replay from scratch equal to the
    loaded state, balanced books, an empty escrow, and every unit of money that came in waiting in
    pending payouts. Returns the pending payouts by account key."""
    table = Table.objects.get(pk=table_id)
    assert table.status == Table.Status.FINISHED
    assert chain.verify_chain(table) == []
    decider = registry.get(table.game)
    scratch, version = store.replay_from_scratch(table, decider)
    loaded, loaded_version = store.load(table=table, decider=decider, cache=False)
    assert version == loaded_version == table.version
    assert store.canonical_json(encode_state(scratch)) == store.canonical_json(encode_state(loaded))
    report = ledger.reconcile()
    assert report.ok, report.lines()
    payouts: dict[str, int] = {}
    if table.currency:
        escrow = f"table:{table.pk}:escrow:{table.currency}"
        paid_in = Posting.objects.filter(account__key=escrow, amount__gt=0).aggregate(total=Sum("amount"))["total"] or 0
        # What came into the pending accounts (a bot's share has already left for the house bankroll).
        rows = Posting.objects.filter(account__key__startswith=f"payout:{table.pk}.", amount__gt=0).values_list(
            "account__key", "amount"
        )
        for key, amount in rows:
            payouts[key] = payouts.get(key, 0) + amount
        assert sum(payouts.values()) == paid_in > 0
        from ledger.selectors import balance_of

        assert balance_of(key=escrow) == 0
    return payouts


def hold_state_at(table_id: str, version: int) -> None:
    """This process holds the table's state at ``version`` and no newer, as one that served the
    table a while ago and left its later moves to other processes."""
    table = Table.objects.get(pk=table_id)
    decider = registry.get(table.game)
    older, _ = store.load(table=table, decider=decider, at=version, cache=False)
    store.forget(table.pk)
    store.remember(table.pk, decider, version, older)
