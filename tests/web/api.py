"""The API from outside, as a person's client calls it: for setting up what a browser test does not
click through (a deposit, a table played by the API to get a real audit) and for reading results."""

from __future__ import annotations

import json
import random
import secrets
import time
import urllib.error
import urllib.request
from typing import Any

from tests.api.server import Server

PRESENCE = {"sit_out", "sit_in", "leave"}  # what a player sends about being there, not a move of the game
OWNERS = {"end_match", "end_table"}  # the owner's commands, offered to the owner: not a move either

# Small tables that end quickly; the stakes each game's create-table request takes (docs/api.md).
TABLES: dict[str, dict[str, Any]] = {
    "euchre": {"seats": 4, "options": {"target_points": 3}, "stake": {"currency": "MXN", "amount": "10.00"}},
    "five-card-draw": {
        "seats": 3,
        "options": {"format": "tournament", "starting_stack": 10, "forced_bets": "blinds"},
        "stake": {"currency": "MXN", "amount": "10.00"},
    },
    "guerra": {"seats": 3, "options": {"max_rounds": 30}, "stake": {"currency": "MXN", "amount": "10.00"}},
    "la-viuda": {"seats": 4, "options": {"chips_per_player": 2}, "stake": {"currency": "MXN", "chip_value": "5.00"}},
    "whiskey-poker": {
        "seats": 3,
        "options": {"scoring": "pot", "chips_per_player": 2},
        "stake": {"currency": "MXN", "chip_value": "2.00"},
    },
}


class Client:
    """One caller of the API with a token (a person, or the harness's staff member)."""

    def __init__(self, server: Server, token: str):
        self.server = server
        self.token = token

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.server.url + "/api/v1" + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={
                "Authorization": f"Token {self.token}",
                "Content-Type": "application/json",
                "Accept": "application/json",
                "Idempotency-Key": secrets.token_hex(16),
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        return status, (json.loads(text) if text else None)

    def ok(self, method: str, path: str, body: dict | None = None) -> Any:
        status, answer = self.call(method, path, body)
        assert 200 <= status < 300, (method, path, status, answer)
        return answer


def staff(server: Server) -> Client:
    return Client(server, server.token)


def register(server: Server, username: str | None = None, password: str = "a long passphrase 42") -> Client:
    """A new person, signed up through the API (the browser tests sign up by clicking instead)."""
    username = username or f"p{secrets.token_hex(5)}"
    request = urllib.request.Request(
        server.url + "/api/v1/auth/register/",
        method="POST",
        data=json.dumps({"username": username, "password": password}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=20) as response:
        token = json.loads(response.read())["token"]
    client = Client(server, token)
    client.username = username  # type: ignore[attr-defined]
    return client


def deposit(server: Server, username: str, currency: str = "MXN", amount: str = "100.00") -> Any:
    return staff(server).ok("POST", f"/wallets/{username}/deposits/", {"currency": currency, "amount": amount})


def table_with_bots(player: Client, game: str) -> str:
    """A small money table of ``game``: the player at seat 0, bots in the rest, started."""
    terms = TABLES[game]
    table = player.ok("POST", "/tables/", {"game": game, **terms})
    table_id = str(table["id"])
    player.ok("POST", f"/tables/{table_id}/join/", {"seat": 0})
    for seat in range(1, terms["seats"]):
        player.ok("POST", f"/tables/{table_id}/bots/", {"seat": seat})
    player.ok("POST", f"/tables/{table_id}/start/")
    return table_id


def play_until(player: Client, table_id: str, *, hands: int = 1, seed: int = 11, limit: float = 120) -> dict:
    """Play the player's turns at random (seeded) until ``hands`` hands are finished or the table is."""
    rng = random.Random(seed)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        view = player.ok("GET", f"/tables/{table_id}/")
        if view["status"] == "finished" or finished_hands(player, table_id) >= hands:
            return view
        options = [action for action in view["legal_actions"] if action.get("type") not in PRESENCE | OWNERS]
        if not options:
            time.sleep(0.1)
            continue
        player.call(
            "POST", f"/tables/{table_id}/actions/", {"action": rng.choice(options), "expected_version": view["version"]}
        )
    raise AssertionError(f"table {table_id} did not finish {hands} hand(s) in {limit} s")


def finished_hands(client: Client, table_id: str) -> int:
    status, page = client.call("GET", f"/tables/{table_id}/hands/")
    if status != 200:
        return 0
    return max((hand["hand_no"] for hand in page["results"]), default=0)
