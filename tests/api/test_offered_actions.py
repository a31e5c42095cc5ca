"""Offered means accepted, over HTTP, in every game: a table view's ``legal_actions`` is exactly
what the service accepts from that caller now. A seat that sits out is offered sitting in and
leaving, not the moves the table's bot plays for it (CM-20); a seat whose player left, nothing;
the table's owner, seated or not, the owner's commands while the game takes them (WP-6, FD-13).
The refusals list the same offered actions. A client that sends only what it is offered, presence
and owner's commands included, plays every game to its end without one refusal."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import selectors
from games.engine import presence, registry
from games.models import Seat
from tests.api.draw import repeat_deals
from tests.api.play import Game, _run_due_system_command, check_finished_table, game_moves, person, set_up
from tests.api.presence import until_turn, view

pytestmark = pytest.mark.django_db(transaction=True)

# Two people (the owner at seat 0) and bots at each game, on terms that end soon.
GAMES = {
    "la-viuda": Game("la-viuda", 4, people=(0, 1), options={"chips_per_player": 4}),
    "whiskey-poker": Game("whiskey-poker", 3, people=(0, 1), options={"scoring": "pot", "chips_per_player": 4}),
    "euchre": Game("euchre", 4, people=(0, 1), options={"target_points": 5}),
    "guerra": Game("guerra", 3, people=(0, 1), options={"max_rounds": 40}),
    "five-card-draw": Game(
        "five-card-draw",
        3,
        people=(0, 1),
        options={"format": "cash", "opening": "anything_opens"},
        stake={"currency": "MXN", "chip_value": "0.50"},
    ),
    # The draw's ace rule (an ace shown for the counts it names, FD-7) and blinds; a folded or
    # short player is offered the top-up (FD-13), which the client buys from its wallet.
    "five-card-draw-aces": Game(
        "five-card-draw",
        3,
        people=(0, 1),
        options={"format": "cash", "opening": "anything_opens", "ace_rule": "five_with_ace", "forced_bets": "blinds"},
        stake={"currency": "MXN", "chip_value": "0.50"},
    ),
}
OWNERS = {"whiskey-poker": "end_match", "five-card-draw": "end_table"}
# A table's seed is its tag: the aces table keeps the one it was first played with (under the old
# slug), whose random client sits out, as the test asserts; a new tag is another game.
SEEDED_AS = {"five-card-draw-aces": "five_card_draw-aces"}
PRESENCE = {"sit_out", "sit_in", "leave"}


def post(client: APIClient, table_id: str, action: dict[str, Any], version: int):
    return client.post(
        f"/api/v1/tables/{table_id}/actions/", {"action": action, "expected_version": version}, format="json"
    )


def types(offered: list[dict[str, Any]]) -> list[str]:
    return [option["type"] for option in offered]


def filled(option: dict[str, Any], state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The action to send for an offered one: as offered, with a value chosen from any range it
    gives (a bet's ``amount``, a top-up's ``chips``, a draw's cards). A draw discards a count
    between its ``min`` and ``max``, showing one of the ``show_ace`` rule's aces for the counts
    it names (FD-7), kept in the hand when the rule says ``keep``."""
    kind = option["type"]
    if kind == "draw":
        held = list(state["hand"]["your_cards"])
        count = rng.randint(option["min"], min(option["max"], len(held)))
        rule = option.get("show_ace")
        if rule is None or count < rule["min"]:
            return {"type": "draw", "discard": rng.sample(held, count)}
        ace = rng.choice(rule["aces"])
        pool = [card for card in held if card != ace] if rule["keep"] else held
        return {"type": "draw", "discard": rng.sample(pool, min(count, len(pool))), "show": ace}
    if kind == "top_up":
        return {"type": kind, "chips": rng.randint(option["min"], option["max"])}
    if "min" in option and "max" in option and "amount" not in option:
        return {"type": kind, "amount": rng.randint(option["min"], option["max"])}
    return {key: value for key, value in option.items() if key not in ("min", "max")}


def check_offered(game: str, seat: int | None, mine: dict[str, Any], *, owner: bool, left: bool) -> None:
    """What a view may offer: the owner's commands only to the owner; to a seat the bot plays only
    presence (and the owner's) actions; to a seat whose player left, none but the owner's."""
    kinds = set(types(mine["legal_actions"]))
    owners = registry.get(mine["game"]).owner_commands
    if not owner:
        assert not kinds & owners, (game, seat, kinds)
    if seat is not None and mine["seats"][seat]["played_by_bot"]:
        assert kinds <= PRESENCE | owners, (game, seat, kinds)
    if left:
        assert kinds <= owners, (game, seat, kinds)


# --- a seat that sits out, and one that left --------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_cm_20_a_seat_that_sits_out_is_offered_only_presence_and_each_is_accepted(game, task_queue, monkeypatch):
    """CM-20: on its turn the seat sits out; before the bot has moved for it, its view offers
    ``sit_in`` and ``leave`` only (it used to list the game's moves, refused ``sitting_out``), and
    a move of the game is refused ``sitting_out`` listing the same offer. Each offered action is
    then accepted: sitting in, sitting out again, and leaving; after that the seat is offered
    nothing, and whatever it sends is refused ``seat_left`` with nothing listed."""
    repeat_deals(monkeypatch, f"offered {game}")
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(GAMES[game], owner, staff)
    me, client = 1, clients[1]
    rng = random.Random(5)
    mine = until_turn(table_id, clients, me, task_queue, rng)
    moves = game_moves(mine)
    assert moves, mine["legal_actions"]
    notices: list[dict[str, Any]] = []
    monkeypatch.setattr("games.notify.publish", notices.append)
    sat = post(client, table_id, {"type": "sit_out"}, mine["version"])
    assert sat.status_code == 200, sat.json()
    assert types(sat.json()["table"]["legal_actions"]) == ["sit_in", "leave"]
    away = view(client, table_id)  # the bot's turn is queued, not yet played
    assert me in away["to_act"] and away["seats"][me]["played_by_bot"]
    # Nor is it the person's turn on their own stream: the notice and the opening list say so.
    user = Seat.objects.get(table_id=table_id, number=me).user
    assert notices and all(user.pk not in notice["to_act"] for notice in notices), notices
    assert [row["your_turn"] for row in selectors.awaiting(user) if row["table"] == table_id] == [False]
    assert types(away["legal_actions"]) == ["sit_in", "leave"]
    refused = post(client, table_id, filled(moves[0], mine["state"], rng), away["version"])
    assert refused.status_code == 422, refused.json()
    assert refused.json()["code"] == "sitting_out" and refused.json()["legal_actions"] == away["legal_actions"]

    for action in ({"type": "sit_in"}, {"type": "sit_out"}):
        offered = view(client, table_id)
        assert action in offered["legal_actions"], (action, offered["legal_actions"])
        answer = post(client, table_id, action, offered["version"])
        assert answer.status_code == 200, answer.json()
    offered = view(client, table_id)
    assert {"type": "leave"} in offered["legal_actions"]
    left = post(client, table_id, {"type": "leave"}, offered["version"])
    assert left.status_code == 200, left.json()
    assert left.json()["table"]["legal_actions"] == []
    task_queue.run_until_idle()
    gone = view(client, table_id)
    assert gone["legal_actions"] == []
    for action in ({"type": "sit_in"}, {"type": "leave"}, filled(moves[0], mine["state"], rng)):
        refused = post(client, table_id, action, gone["version"])
        if gone["status"] == "running":
            assert refused.status_code == 422, (action, refused.json())
            assert refused.json()["code"] == "seat_left" and refused.json()["legal_actions"] == [], refused.json()
        else:
            assert refused.status_code == 409, (action, refused.json())


# --- the owner's commands ---------------------------------------------------------------------


def _owned_table(game: Game, monkeypatch, tag: str, *, seated: bool = True):
    """A running table of ``game`` owned by alice, at seat 0 when ``seated``, else at no seat (bob
    then takes seat 0); carol at seat 1 and bots in the rest."""
    repeat_deals(monkeypatch, tag)
    alice, bob, carol, sam = person("alice"), person("bob"), person("carol"), person("sam", staff=True)
    created = alice.post(
        "/api/v1/tables/",
        {"game": game.game, "seats": game.seats, "options": game.options, "stake": game.stake},
        format="json",
    )
    assert created.status_code == 201, created.json()
    table_id = created.json()["id"]
    for seat, client in ((0, alice if seated else bob), (1, carol)):
        if game.stake:
            staff_fund = sam.post(
                f"/api/v1/wallets/{client.user.username}/deposits/",
                {"currency": game.stake["currency"], "amount": "1000.00"},
                format="json",
            )
            assert staff_fund.status_code == 201, staff_fund.json()
        assert client.post(f"/api/v1/tables/{table_id}/join/", {"seat": seat}, format="json").status_code == 200
    for seat in range(2, game.seats):
        assert alice.post(f"/api/v1/tables/{table_id}/bots/", {"seat": seat}, format="json").status_code == 201
    started = alice.post(f"/api/v1/tables/{table_id}/start/")
    assert started.status_code == 200, started.json()
    return table_id, alice, carol, started.json()


@pytest.mark.parametrize("game", sorted(OWNERS))
@pytest.mark.parametrize("seated", [True, False], ids=["owner-seated", "owner-at-no-seat"])
def test_wp_6_fd_13_the_owner_is_offered_the_end_while_it_is_accepted(game, seated, task_queue, monkeypatch):
    """WP-6, FD-13: the owner's view offers ``end_match`` / ``end_table`` from the start (and the
    answer to the start says so), seated or at no seat; nobody else's view does. Sent, it is
    accepted; from then on it is offered no more, and sent again it is refused listing the
    offer without it."""
    table_id, alice, carol, started = _owned_table(GAMES[game], monkeypatch, f"owner {game} {seated}", seated=seated)
    end = {"type": OWNERS[game]}
    assert end in started["legal_actions"]
    task_queue.run_until_idle()
    mine = view(alice, table_id)
    assert end in mine["legal_actions"] and mine["your_seat"] == (0 if seated else None)
    if not seated:
        assert mine["legal_actions"] == [end]
    assert end not in view(carol, table_id)["legal_actions"]
    forbidden = post(carol, table_id, end, mine["version"])
    assert forbidden.status_code == 403, forbidden.json()

    ended = post(alice, table_id, end, mine["version"])
    assert ended.status_code == 200, ended.json()
    assert end not in ended.json()["table"]["legal_actions"]
    task_queue.run_until_idle()
    after = view(alice, table_id)
    assert end not in after["legal_actions"]
    again = post(alice, table_id, end, after["version"])
    if after["status"] == "running":
        assert again.status_code == 422, again.json()
        assert again.json()["legal_actions"] == after["legal_actions"]
    else:
        assert again.status_code == 409, again.json()


@pytest.mark.parametrize(
    ("game", "options", "end"),
    [
        ("whiskey-poker", {"scoring": "points", "target_points": 2}, "end_match"),
        ("five-card-draw", {"format": "tournament", "starting_stack": 20, "opening": "anything_opens"}, "end_table"),
    ],
    ids=["whiskey-poker-points", "five-card-draw-tournament"],
)
def test_wp_6_fd_13_the_owner_is_not_offered_an_end_the_game_refuses(game, options, end, task_queue, monkeypatch):
    """WP-6, FD-13: a points match and a tournament cannot be ended by the owner: their views
    never offer it, and sent anyway it is refused (422) with the offer as it stands."""
    spec = Game(game, 3, people=(0, 1), options=options)
    table_id, alice, _carol, started = _owned_table(spec, monkeypatch, f"no end {game}")
    assert end not in types(started["legal_actions"])
    task_queue.run_until_idle()
    mine = view(alice, table_id)
    assert end not in types(mine["legal_actions"])
    refused = post(alice, table_id, {"type": end}, mine["version"])
    assert refused.status_code == 422, refused.json()
    assert refused.json()["legal_actions"] == mine["legal_actions"]


# --- a client that sends only what it is offered ----------------------------------------------


# Mostly the game's moves; now and then sitting out (and soon in again), rarely leaving or the end.
WEIGHTS = {"sit_out": 0.2, "sit_in": 2.0, "leave": 0.01}


def _weights(offered: list[dict[str, Any]], owners: frozenset[str]) -> list[float]:
    """Each kind of move as likely as another, however many entries it has (25 exchanges, one
    knock); presence and the owner's end by ``WEIGHTS``."""
    kinds = [option["type"] for option in offered]
    return [0.01 if kind in owners else WEIGHTS.get(kind, 1.0 / kinds.count(kind)) for kind in kinds]


def _play_offered(game: str, tag: str, task_queue, monkeypatch) -> list[str]:
    """Play ``game`` to its end with people who send only what they are offered (seeded by
    ``tag``); the types of the actions they sent."""
    repeat_deals(monkeypatch, tag)
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(GAMES[game], owner, staff)
    people = {seat: client for seat, client in clients.items() if client is not None}
    owners = registry.get(GAMES[game].game).owner_commands
    rng = random.Random(tag)
    left: set[int] = set()
    sent: list[str] = []
    for _ in range(3_000):
        # The worker is not always quicker than a client: the people look and act between a few
        # bots' turns, and now and then while one is still queued (a seat that just sat out is
        # awaited then).
        if rng.random() < 0.6:
            task_queue.run_until_idle(limit=rng.randint(1, 6))
        views = {seat: view(client, table_id) for seat, client in people.items()}
        if views[0]["status"] == "finished":
            break
        choices, weights = [], []
        for seat, mine in views.items():
            check_offered(game, seat, mine, owner=people[seat] is owner, left=seat in left)
            choices += [(seat, option) for option in mine["legal_actions"]]
            weights += _weights(mine["legal_actions"], owners)
        moving = any(not presence.is_presence_action(o) and o["type"] not in owners for _, o in choices)
        if not moving and (not choices or rng.random() < 0.5):
            # Nobody's move is offered: the table waits for a bot, or for its timer (an offer, a
            # round), whose time comes.
            if task_queue.published:
                task_queue.run_until_idle(limit=rng.randint(1, 6))
            else:
                _run_due_system_command(table_id)
            continue
        seat, option = rng.choices(choices, weights=weights)[0]
        mine = views[seat]
        action = filled(option, mine["state"], rng)
        answer = post(people[seat], table_id, action, mine["version"])
        # Offered means accepted: only a version conflict (the table moved on) may refuse it.
        assert answer.status_code in (200, 409), (game, seat, action, answer.json())
        if answer.status_code == 200:
            sent.append(option["type"])
            if option["type"] == "leave":
                left.add(seat)
    else:
        pytest.fail(f"{game}: the table did not end")
    check_finished_table(table_id)
    return sent


@pytest.mark.parametrize("game", sorted(GAMES))
def test_cm_20_a_client_sending_only_what_it_is_offered_plays_every_game_to_its_end(game, task_queue, monkeypatch):
    """Offered means accepted: two people (the owner among them) each send, at random, one of the
    actions their view offers (the game's moves with any amount or cards chosen from the offered
    ranges, sitting out, sitting in, leaving, the owner's end), the bots and timers play the rest,
    and no answer is ever a refusal other than a version conflict, until the table ends."""
    sent = _play_offered(game, f"offered client {SEEDED_AS.get(game, game)}", task_queue, monkeypatch)
    owners = registry.get(GAMES[game].game).owner_commands
    assert "sit_out" in sent and set(sent) - PRESENCE - owners, sent


@pytest.mark.long
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_cm_20_offered_means_accepted_over_many_seeded_tables(game, seed, task_queue, monkeypatch):
    """As above, at a dozen more seeded tables of each game: leaving and the owner's end come up
    too, whenever the dice say."""
    _play_offered(game, f"offered client {game} {seed}", task_queue, monkeypatch)
