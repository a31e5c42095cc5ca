"""Real table views of Euchre, Five-Card Draw and Guerra for the game modules' browser test: a
person at seat 0 and bots elsewhere, played through ``games.play`` (the person choosing as
the game's bot would), the person's view taken through the API at chosen moments; and the events
API's answer to that person at the end, with the server's sentences, for every game (the widow
games too), for the event lines of ``api/static/web/events.js``."""

from __future__ import annotations

import hashlib
import random
import uuid
from contextlib import contextmanager
from typing import Any
from unittest import mock

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games import play, selectors, store
from games.engine import presence, registry
from games.models import Table
from games.play import seeds

# slug, seats, options: one table per game module (options chosen so that its rarer parts show).
TABLES: dict[str, tuple[int, dict[str, Any]]] = {
    "euchre": (
        4,
        {"stick_the_dealer": True, "no_trump": True, "farmers_hand": True, "ace_no_face": True, "target_points": 3},
    ),
    "five-card-draw": (3, {"shotgun": True, "ace_rule": "four_with_ace", "opening": "anything_opens"}),
    "guerra": (3, {"deck": "spanish_48", "jokers": True, "ace_high": True}),
}
# The widow games have no module test of their own: they are played for their events only.
EVENT_TABLES: dict[str, tuple[int, dict[str, Any]]] = {
    **TABLES,
    "la-viuda": (4, {"chips_per_player": 2}),
    "whiskey-poker": (3, {"scoring": "pot", "chips_per_player": 2}),
}


def _view(client: APIClient, table_id: str) -> dict[str, Any]:
    response = client.get(f"/api/v1/tables/{table_id}/")
    assert response.status_code == 200, response.content
    return response.json()


def _euchre_moment(view: dict[str, Any], state: dict[str, Any]) -> str | None:
    if state.get("phase") == "play" and 0 in view["to_act"]:
        return "your-play"
    if state.get("phase") == "bidding" and state.get("bids"):
        return "bidding"
    if state.get("trick") and state.get("tricks"):
        return "mid-hand"
    return None


def _draw_moment(view: dict[str, Any], state: dict[str, Any]) -> str | None:
    if (state.get("hand") or {}).get("phase") == "drawing" and 0 in view["to_act"]:
        return "your-draw"
    if any(player.get("drew") for player in state.get("players", [])):
        return "after-draw"
    if any(action["type"] in ("bet", "raise") for action in view["legal_actions"]):
        return "your-bet"
    if (state.get("last_hand") or {}).get("showdown"):
        return "showdown"
    return None


def _guerra_moment(view: dict[str, Any], state: dict[str, Any]) -> str | None:
    if state.get("table"):
        return "mid-round"
    if any(player.get("thrown") for player in state.get("players", [])):
        return "thrown"
    if (state.get("last_round") or {}).get("battles"):
        return "battle"
    return None


MOMENTS = {"euchre": _euchre_moment, "five-card-draw": _draw_moment, "guerra": _guerra_moment}


def _events(client: APIClient, table_id: str) -> list[dict[str, Any]]:
    """Every event of the table as the events API answers seat 0, page after page, each with its
    sentence (``sentences=true``, as the table page asks)."""
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        response = client.get(f"/api/v1/tables/{table_id}/events/?after={after}&limit=500&sentences=true")
        assert response.status_code == 200, response.content
        page = response.json()
        events += page["results"]
        if not page["has_more"] or not page["results"]:
            return events
        after = page["results"][-1]["seq"]


def _moment(view: dict[str, Any], game: str) -> str | None:
    """The kind of moment a module must draw that ``view`` shows, if any."""
    if view["status"] == "finished":
        return "finished"
    if game not in MOMENTS:
        return None
    return MOMENTS[game](view, view["state"] or {})


def _should_end(state: Any, seen: dict[str, Any]) -> bool:
    """A cash Five-Card Draw table runs until its owner ends it: once its moments are seen."""
    wanted = {"your-draw", "after-draw", "showdown"}
    return wanted <= set(seen) and not getattr(state, "end_requested", True)


def _owner_end(game: str, state: Any, seen: dict[str, Any], commands_run: int) -> dict[str, Any] | None:
    """The owner's command that ends the table now, if it is time: a cash Five-Card Draw table once
    its moments are seen, a pot-scoring Whiskey Poker match after some hands (WP-6)."""
    if game == "five-card-draw" and _should_end(state, seen):
        return {"type": "end_table"}
    if game == "whiskey-poker" and commands_run >= 20 and getattr(state, "end_requested", True) is False:
        return {"type": "end_match"}
    return None


@contextmanager
def fixed_randomness(game: str):
    """Server seeds and the table's id from a counter, so the table deals the same on every run.

    With fresh seeds the moments a module must draw came only most of the time: a Euchre match to
    3 points can end with seat 0's partner going alone twice, and seat 0 never playing a card."""
    count = iter(range(1, 1_000_000))

    def next_bytes(n: int) -> bytes:
        return hashlib.sha256(f"web:{game}:{next(count)}".encode()).digest()[:n]

    table_id = uuid.UUID(hashlib.sha256(f"web:{game}".encode()).hexdigest()[:32])
    with (
        mock.patch.object(seeds.secrets, "token_bytes", next_bytes),
        mock.patch.object(Table._meta.get_field("id"), "_get_default", lambda: table_id),
    ):
        yield


_PLAYED: dict[str, tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]] = {}


def play_table(game: str, *, limit: int = 4000) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """Views of seat 0 at a table of ``game`` played to its end (or ``limit`` commands), dealt
    from fixed seeds, and the events API's answer to seat 0 at the end. Played once per test run:
    the answers are plain data, kept for the tests that ask again."""
    if game not in _PLAYED:
        with fixed_randomness(game):
            _PLAYED[game] = _play_table(game, limit=limit)
    return _PLAYED[game]


def play_views(game: str, *, limit: int = 4000) -> dict[str, dict[str, Any]]:
    """Views of seat 0 at a table of ``game`` at the moments its module must draw."""
    return play_table(game, limit=limit)[0]


def play_events(game: str, *, limit: int = 4000) -> list[dict[str, Any]]:
    """The events API's answer to seat 0 at a played table of ``game``."""
    return play_table(game, limit=limit)[1]


def _play_table(game: str, *, limit: int) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    seats, options = EVENT_TABLES[game]
    user = get_user_model().objects.create_user(username=f"web-{game}")
    client = APIClient()
    client.force_authenticate(user)
    table = play.create_table(user=user, game=game, seats=seats, options=options)
    play.join_table(table_id=table.pk, user=user, seat=0)
    for seat in range(1, seats):
        play.add_bot(table_id=table.pk, user=user, seat=seat)
    play.start_table(table_id=table.pk, user=user)
    decider = registry.get(game)
    rng = random.Random(17)
    # The API is asked only for a new kind of moment (it throttles a client that polls too often).
    seen: dict[str, dict[str, Any]] = {"beginning": _view(client, str(table.pk))}
    for commands_run in range(limit):
        row = Table.objects.select_related("owner").get(pk=table.pk)
        moment = _moment(selectors.table_view(row, 0), game)
        if moment is not None and moment not in seen:
            seen[moment] = _view(client, str(table.pk))
        if row.status == Table.Status.FINISHED:
            break
        state, version = store.load(table=row, decider=decider)
        waiting = list(decider.to_act(state))
        owner = _owner_end(game, state, seen, commands_run)
        if owner is not None:
            play.act(table_id=table.pk, user=user, action=owner, expected_version=version)
            continue
        if 0 in waiting:
            legal = [a for a in decider.legal_actions(state, 0) if not presence.is_presence_action(a)]
            action = dict(decider.bot(decider.view(state, 0), legal, rng))
            action.pop("seat", None)
            play.act(table_id=table.pk, user=user, action=action, expected_version=version)
        elif play.play_bot_turn(table_id=table.pk, expected_version=version) is None:
            break
    seen.setdefault("last", _view(client, str(table.pk)))
    return seen, _events(client, str(table.pk))
