"""The people of the desks' browser tests and their set-up through the API: roles given as an
operator gives them (``manage.py shell`` on the served database), tables played by the API, balances."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from tests.api.server import Server, manage
from tests.web.api import OWNERS, PRESENCE, Client, deposit, finished_hands, register


def person(server: Server, name: str, *, staff: bool = False, auditor: bool = False) -> Client:
    """A new person (the browser tests' password), made staff or an auditor if asked."""
    client = register(server, name)
    if staff or auditor:
        script = (
            "from django.contrib.auth import get_user_model; from django.contrib.auth.models import Group;"
            f"u = get_user_model().objects.get(username={name!r}); u.is_staff = {staff!r}; u.save();"
            f"{auditor!r} and u.groups.add(Group.objects.get_or_create(name='auditors')[0])"
        )
        done = manage(server, "shell", "-c", script)
        assert done.returncode == 0, done.stderr
    return client


def fund(server: Server, username: str, amount: int) -> None:
    """``amount`` MXN into the wallet in deposits at or below the two-person limit (1000.00)."""
    while amount > 0:
        deposit(server, username, "MXN", f"{min(amount, 1000)}.00")
        amount -= 1000


def play_until(players: list[Client], table_id: str, done: Callable[[dict], bool], *, seed: int, limit: float) -> dict:
    """Random legal moves for each person at the table until ``done`` holds of a view one of them
    reads (checked before each of their moves); that view."""
    rng = random.Random(seed)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        moved = False
        for player in players:
            view = player.ok("GET", f"/tables/{table_id}/")
            if done(view):
                return view
            options = [a for a in view["legal_actions"] if a.get("type") not in PRESENCE | OWNERS]
            if options:
                body = {"action": rng.choice(options), "expected_version": view["version"]}
                player.call("POST", f"/tables/{table_id}/actions/", body)
                moved = True
        if not moved:
            time.sleep(0.1)  # a bot's turn, played by the worker: ask again shortly
    raise AssertionError(f"{table_id} did not get there in {limit} s")


def play_hand_one(players: list[Client], table_id: str, *, seed: int = 5, limit: float = 120) -> None:
    """Random legal moves for each person at the table until hand 1 is finished."""
    play_until(players, table_id, lambda _view: finished_hands(players[0], table_id) >= 1, seed=seed, limit=limit)


def play_to_the_end(players: list[Client], table_id: str, *, seed: int = 11, limit: float = 180) -> dict:
    """Random legal moves for each person until the table has finished; the final view."""
    return play_until(players, table_id, lambda view: view["status"] == "finished", seed=seed, limit=limit)


def balance(client: Client, currency: str = "MXN") -> int:
    wallets = client.ok("GET", "/wallets/me/")["wallets"]
    return sum(w["balance_minor"] for w in wallets if w["currency"] == currency)


def arrives(page, selector: str) -> None:
    """Wait for ``selector``; a refusal in the error region instead fails at once with its words."""
    page.wait_for_function("s => document.querySelector(s) || document.querySelector('#errors p')", arg=selector)
    errors = page.locator("#errors p")
    assert page.locator(selector).count(), errors.all_inner_texts()
