"""A table's streams in one process (api/stream_feed.py): a stream with no position starts from the
seat's view, a position too far back is answered with the events endpoint to catch up from, one
read per wake serves every stream of the table without showing a hidden card to the wrong seat,
spectators are capped, and nothing of the table is kept once its last stream has gone. Read
through real streams, as tests/api/test_live.py reads them."""

from __future__ import annotations

import gc
import json
import threading
import time
import weakref

import pytest
from django.db.backends import utils
from django.test import AsyncClient
from knox.models import AuthToken
from rest_framework.test import APIClient

from api import stream_feed
from games import notify
from games.models import Event, Table
from tests.api import contract
from tests.api.play import person
from tests.api.test_live import TIMEOUT, Stream, elsewhere, open_stream, run, token_of
from tests.api.test_stream_rights import assert_ended_with, rest_of
from tests.api.test_stream_views import clockless
from tests.api.test_tables import act, started_pair, strings_in, table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _listener():
    notify.shutdown()
    yield
    notify.shutdown()


@pytest.fixture
def alice(counter_game):
    return person("alice")


@pytest.fixture
def bob(counter_game):
    return person("bob")


@pytest.fixture
def quiet(settings):
    """Heartbeats far apart: nothing but the table's notices wakes a stream."""
    settings.STREAM_HEARTBEAT_SECONDS = 60


def play_one(client, table_id) -> int:
    mine = table(client, table_id)
    sent = act(client, table_id, mine["legal_actions"][0], mine["version"])
    assert sent.status_code == 200, sent.json()
    return sent.json()["version"]


def mover_of(alice, bob, table_id):
    return alice if table(alice, table_id)["to_act"][0] == 0 else bob


def played_to(alice, bob, table_id, version: int) -> None:
    """Moves until the table is at ``version`` or more."""
    for _ in range(200):
        view = table(alice, table_id)
        if view["version"] >= version:
            return
        assert view["status"] == "running", view
        play_one(alice if view["to_act"][0] == 0 else bob, table_id)
    raise AssertionError(f"the table never reached version {version}")


def feeds_gone() -> None:
    """No table is followed in this process any longer, and the hub holds no table waiter."""
    deadline = time.monotonic() + TIMEOUT
    while stream_feed.followed() or notify.hub().counts()[0]:
        assert time.monotonic() < deadline, (stream_feed.followed(), notify.hub().counts())
        time.sleep(0.01)


def test_a_stream_with_no_position_sends_the_seats_view_first_then_each_new_event(alice, bob, quiet):
    """No history: the first message is the seat's view (``id`` its version, ``data`` what the
    table's GET answers), then only events after it; a reconnect from that ``id`` resumes after it."""
    table_id = started_pair(alice, bob)
    played_to(alice, bob, table_id, 4)
    mover = mover_of(alice, bob, table_id)

    async def scenario():
        stream = await open_stream(bob, f"/api/v1/tables/{table_id}/stream/")
        first = await stream.frame()
        shown = await elsewhere(table)(bob, table_id)
        after = await elsewhere(play_one)(mover, table_id)
        arrived = await stream.frames_until(after)
        await stream.close()
        resumed = await open_stream(bob, f"/api/v1/tables/{table_id}/stream/", **{"Last-Event-ID": first["id"]})
        again = await resumed.frames_until(after)
        await resumed.close()
        return first, shown, after, arrived, again

    first, shown, after, arrived, again = run(scenario())
    assert first["event"] == "table"
    assert int(first["id"]) == shown["version"] == first["data"]["version"]
    assert clockless(first["data"]) == clockless(shown)
    # Only what came after the view: no old event.
    assert [int(f["id"]) for f in arrived] == list(range(shown["version"] + 1, after + 1))
    assert [f["data"] for f in arrived] == bob.get(f"/api/v1/tables/{table_id}/events/?after={first['id']}").json()[
        "results"
    ]
    assert [int(f["id"]) for f in again] == list(range(shown["version"] + 1, after + 1))


def test_a_position_too_far_back_is_answered_with_the_events_endpoint_to_catch_up(alice, bob, settings):
    """``STREAM_RESUME_LIMIT`` events back at most; further is ``409 resume_too_old`` in the error
    shape the document declares, with ``catch_up`` (the paged events endpoint) and the version."""
    settings.STREAM_RESUME_LIMIT = 2
    table_id = started_pair(alice, bob)
    played_to(alice, bob, table_id, 5)
    version = table(alice, table_id)["version"]

    async def scenario():
        auth = {"Authorization": token_of(alice)}
        too_old = await AsyncClient().get(f"/api/v1/tables/{table_id}/stream/?after=0", headers=auth)
        by_header = await AsyncClient().get(
            f"/api/v1/tables/{table_id}/stream/", headers={**auth, "Last-Event-ID": str(version - 3)}
        )
        near = await open_stream(alice, f"/api/v1/tables/{table_id}/stream/?after={version - 2}")
        frames = await near.frames_until(version)
        await near.close()
        return too_old, by_header, frames

    too_old, by_header, frames = run(scenario())
    assert too_old.status_code == by_header.status_code == 409
    contract.check("GET", f"/api/v1/tables/{table_id}/stream/", too_old)
    body = json.loads(too_old.content)
    assert body["code"] == "resume_too_old"
    assert body["catch_up"] == f"/api/v1/tables/{table_id}/events/?after=0"
    assert body["current_version"] == version
    assert json.loads(by_header.content)["catch_up"].endswith(f"?after={version - 3}")
    # The link reads what the stream would not send; within the bound the stream sends it.
    caught = alice.get(body["catch_up"]).json()
    assert [e["seq"] for e in caught["results"]] == list(range(1, version + 1))
    assert [int(f["id"]) for f in frames] == [version - 1, version]


def test_spectators_are_capped_per_table_and_players_never(alice, bob, settings):
    """Over ``STREAM_SPECTATORS_PER_TABLE`` a spectator's stream is ``429 too_many_spectators``;
    the seated players (alice also owns the table) still open theirs, and a spectator's place is
    free again once their stream has gone."""
    settings.STREAM_SPECTATORS_PER_TABLE = 1
    table_id = started_pair(alice, bob)
    carol, dave = person("carol"), person("dave")
    path = f"/api/v1/tables/{table_id}/stream/"

    async def scenario():
        watching = await open_stream(carol, path)
        refused = await AsyncClient().get(path, headers={"Authorization": token_of(dave)})
        players = [await open_stream(client, path) for client in (alice, bob)]
        for stream in (watching, *players):
            await stream.close()
        return refused

    refused = run(scenario())
    assert refused.status_code == 429
    contract.check("GET", path, refused)
    body = json.loads(refused.content)
    assert body["code"] == "too_many_spectators"
    assert body["retry_after"] >= 1
    feeds_gone()

    async def later():
        stream = await open_stream(dave, path)
        first = await stream.frame()
        await stream.close()
        return first

    assert run(later())["event"] == "table"


class ReadsCounted:
    """The SQL statements run on the streams' reading threads while ``counting`` is set."""

    def __init__(self, monkeypatch) -> None:
        self.statements: list[str] = []
        self.counting = threading.Event()
        real_execute = utils.CursorWrapper.execute

        def counted(cursor, sql, params=None):
            if self.counting.is_set() and threading.current_thread().name.startswith("stream-read"):
                self.statements.append(sql)
            return real_execute(cursor, sql, params)

        monkeypatch.setattr(utils.CursorWrapper, "execute", counted)

    async def one_move(self, alice, bob, table_id, streams) -> tuple[list[str], int]:
        """The statements the streams' reads made for one move (until each has its events), and
        the move's version."""
        self.statements.clear()
        self.counting.set()
        after = await elsewhere(lambda: play_one(mover_of(alice, bob, table_id), table_id))()
        for stream in streams:
            await stream.frames_until(after)
        self.counting.clear()
        return list(self.statements), after


def play_into_the_next_hand(alice, bob, table_id, after: int) -> int:
    """Moves until a hand after version ``after`` is dealt; the version then."""
    for _ in range(40):
        if Event.objects.filter(table_id=table_id, seq__gt=after, type="HandStarted").exists():
            return Table.objects.get(pk=table_id).version
        play_one(mover_of(alice, bob, table_id), table_id)
    raise AssertionError("no new hand was dealt")


def test_one_read_per_wake_serves_every_stream_and_shows_each_seat_its_own_cards(alice, bob, quiet, monkeypatch):
    """Two seats and three spectators follow a table into a new hand: each wake is one read (the
    same statements one stream alone costs), every stream gets exactly what the events endpoint
    gives its reader, and a seat's hidden card is in no other seat's or spectator's frames."""
    table_id = started_pair(alice, bob, options={"hands": 2, "target": 5})
    watchers = {"alice": alice, "bob": bob, **{name: person(name) for name in ("carol", "dave", "erin")}}
    reads = ReadsCounted(monkeypatch)

    async def following(client):
        # Its own first read is done once the view has come: every read after it is the feed's.
        stream = await open_stream(client, f"/api/v1/tables/{table_id}/stream/")
        await stream.frame()
        return stream

    async def scenario():
        alone = await following(watchers["carol"])
        one_stream, _ = await reads.one_move(alice, bob, table_id, [alone])
        await alone.close()
        streams = {name: await following(client) for name, client in watchers.items()}
        many_streams, moved = await reads.one_move(alice, bob, table_id, list(streams.values()))
        dealt = await elsewhere(play_into_the_next_hand)(alice, bob, table_id, moved)
        frames = {name: await stream.frames_until(dealt) for name, stream in streams.items()}
        for stream in streams.values():
            await stream.close()
        return one_stream, many_streams, frames, moved

    one_stream, many_streams, frames, moved = run(scenario())
    assert len([sql for sql in many_streams if "games_event" in sql]) == 1, many_streams
    assert len(many_streams) == len(one_stream), (one_stream, many_streams)
    for name, client in watchers.items():
        got = [f["data"] for f in frames[name]]
        assert got == client.get(f"/api/v1/tables/{table_id}/events/?after={moved}").json()["results"], name
    alice_card, bob_card = Event.objects.get(table_id=table_id, seq__gt=moved, type="HandStarted").secret["cards"]
    seen = {name: strings_in([f["data"] for f in frames[name]]) for name in watchers}
    assert alice_card in seen["alice"] and bob_card in seen["bob"]
    if alice_card != bob_card:
        assert bob_card not in seen["alice"] and alice_card not in seen["bob"]
    for name in ("carol", "dave", "erin"):
        assert {alice_card, bob_card}.isdisjoint(seen[name]), name
    feeds_gone()


def test_a_tables_feed_is_gone_once_its_last_stream_has(alice, bob, quiet):
    """Three streams of one table share one feed in the process; as they close it is dropped with
    its listener, and the hub holds no table waiter: nothing of the table is kept."""
    table_id = started_pair(alice, bob)
    carol = person("carol")

    async def scenario():
        streams = [await open_stream(client, f"/api/v1/tables/{table_id}/stream/") for client in (alice, bob, carol)]
        for stream in streams:
            await stream.frame()
        held = stream_feed.followed()
        waiting = notify.hub().counts()[0]
        for stream in streams:
            await stream.close()
        return held, waiting

    held, waiting = run(scenario())
    assert held == {table_id: 3}
    assert waiting == 1  # the feed's one waiter, not one per stream
    feeds_gone()


def test_a_sessions_table_stream_ends_when_the_session_is_gone_without_a_notice(alice, bob, quiet):
    """The feed checks the rights of every stream it serves in one read: a browser session deleted
    behind the service's back (no notice) ends its stream at the table's next move, with nothing
    read after it sent."""
    from django.contrib.sessions.models import Session

    alice.user.set_password("a long passphrase")
    alice.user.save(update_fields=["password"])
    browser = APIClient(enforce_csrf_checks=True)
    csrf = browser.get("/api/v1/auth/session/").json()["csrf_token"]
    login = browser.post(
        "/api/v1/auth/session/",
        {"username": "alice", "password": "a long passphrase"},
        format="json",
        HTTP_X_CSRFTOKEN=csrf,
    )
    assert login.status_code == 200
    cookie = browser.cookies["sessionid"].value
    table_id = started_pair(alice, bob)
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(alice.user)[1]}")

    async def scenario():
        client = AsyncClient()
        client.cookies["sessionid"] = cookie
        followed = Stream(await client.get(f"/api/v1/tables/{table_id}/stream/"))
        view = await followed.frame()
        kept = await open_stream(bob, f"/api/v1/tables/{table_id}/stream/")
        await kept.frame()
        await elsewhere(lambda: Session.objects.filter(session_key=cookie).delete())()
        view_now = await elsewhere(table)(bob, table_id)
        mover = phone if view_now["to_act"][0] == 0 else bob
        after = await elsewhere(play_one)(mover, table_id)
        ended = await rest_of(followed)
        moved = await kept.frames_until(after)
        await kept.close()
        return view, ended, moved, after

    view, ended, moved, after = run(scenario())
    assert view["event"] == "table"
    assert_ended_with(ended, "session_ended")
    assert int(moved[-1]["id"]) == after


def test_streams_that_closed_leave_nothing_behind_and_their_memory_is_given_back(alice, bob, quiet, monkeypatch):
    """Twenty streams of one table (players and spectators) open and close: the feed, the hub's
    waiters (the table's, and the rights' of every reader) are gone, every stream's own objects
    (its member, line and waiter) are collected, and the memory is given back once, a moment
    after, rather than once per stream."""
    monkeypatch.setattr(stream_feed, "RELEASE_DELAY", 0.05)
    monkeypatch.setattr(stream_feed, "_release_due", False)
    released = threading.Event()
    calls = []

    def give_back() -> None:
        calls.append(time.monotonic())
        released.set()

    monkeypatch.setattr(stream_feed, "give_memory_back", give_back)
    table_id = started_pair(alice, bob)
    readers = [alice, bob] + [person(f"watcher{n}") for n in range(18)]

    async def scenario():
        streams = [await open_stream(client, f"/api/v1/tables/{table_id}/stream/") for client in readers]
        for stream in streams:
            await stream.frame()
        members = list(stream_feed._feeds[table_id].members.values())
        kept = [weakref.ref(thing) for member in members for thing in (member, member.line, member.waiter)]
        held = stream_feed.followed()
        for stream in streams:
            await stream.close()
        return kept, held

    kept, held = run(scenario())
    assert held == {table_id: 20}
    feeds_gone()
    live = notify.hub()
    with live.lock:
        assert (live.tables, live.users, live.holders) == ({}, {}, {})
    gc.collect()
    assert [ref for ref in kept if ref() is not None] == []
    assert released.wait(TIMEOUT)
    assert len(calls) == 1
