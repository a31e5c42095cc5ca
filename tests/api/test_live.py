"""Live updates: the table and person streams (server-sent events), the long poll woken by the
notifier, the table's ETag, and PostgreSQL's NOTIFY waking a listener.

The streams are read through Django's AsyncClient inside ``asyncio.run`` (no pytest plugin); every
wait is for a frame or an event, with a timeout that only a failure reaches."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, transaction
from django.test import AsyncClient

from games import notify
from games.models import Event
from tests.api.play import person
from tests.api.test_tables import act, started_pair, strings_in, table

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 10.0


@pytest.fixture(autouse=True)
def _listener():
    """Each test gets a fresh listener, stopped at the end (its connection would outlive the
    test database)."""
    notify.shutdown()
    yield
    notify.shutdown()


@pytest.fixture
def alice(counter_game):
    return person("alice")


@pytest.fixture
def bob(counter_game):
    return person("bob")


def token_of(client) -> str:
    return client._credentials["HTTP_AUTHORIZATION"]


def elsewhere(fn):
    """``fn`` on a thread of its own, as another client would act; its connection closed after."""

    def run(*args):
        try:
            return fn(*args)
        finally:
            connection.close()

    return sync_to_async(run, thread_sensitive=False)


def run(scenario):
    return asyncio.run(scenario)


class Stream:
    """An open event stream: frames read one at a time, each within ``TIMEOUT``."""

    def __init__(self, response):
        assert response.status_code == 200, getattr(response, "content", b"")
        assert response["Content-Type"].startswith("text/event-stream")
        self.response = response
        self.chunks = aiter(response.streaming_content)
        self.buffer = ""

    async def frame(self) -> dict:
        """The next message (comments and ``retry:`` skipped): ``{"id", "event", "data"}``."""
        while True:
            while "\n\n" not in self.buffer:
                chunk = await asyncio.wait_for(anext(self.chunks), TIMEOUT)
                self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            raw, self.buffer = self.buffer.split("\n\n", 1)
            fields: dict = {}
            for line in raw.split("\n"):
                name, _, value = line.partition(": ")
                if name in ("id", "event", "data"):
                    fields[name] = value
            if "data" in fields:
                fields["data"] = json.loads(fields["data"])
                return fields

    async def frames_until(self, seq: int) -> list[dict]:
        frames = []
        while not frames or int(frames[-1]["id"]) < seq:
            frames.append(await self.frame())
        return frames

    async def close(self):
        await self.chunks.aclose()


async def open_stream(client, path: str, **headers) -> Stream:
    response = await AsyncClient().get(path, headers={"Authorization": token_of(client), **headers})
    stream = Stream(response)
    # The server starts the iterator at once; the test client only when read. Its first line
    # (retry:) comes once the stream is registered with the listener.
    first = await asyncio.wait_for(anext(stream.chunks), TIMEOUT)
    stream.buffer = first.decode() if isinstance(first, bytes) else first
    assert stream.buffer.startswith("retry: ")
    return stream


def test_each_seat_streams_its_own_cards_and_a_spectator_none(alice, bob):
    table_id = started_pair(alice, bob)
    version = table(alice, table_id)["version"]
    carol = person("carol")

    async def read(client):
        stream = await open_stream(client, f"/api/v1/tables/{table_id}/stream/?after=0")
        try:
            return await stream.frames_until(version)
        finally:
            await stream.close()

    async def all_three():
        return await asyncio.gather(read(alice), read(bob), read(carol))

    seen_alice, seen_bob, seen_carol = run(all_three())
    for frames in (seen_alice, seen_bob, seen_carol):
        assert [int(f["id"]) for f in frames] == list(range(1, version + 1))
        assert all(f["event"] == f["data"]["type"] for f in frames)
    # The same items the events endpoint gives each of them.
    for client, frames in ((alice, seen_alice), (bob, seen_bob), (carol, seen_carol)):
        assert [f["data"] for f in frames] == client.get(f"/api/v1/tables/{table_id}/events/").json()["results"]
    dealt = next(f for f in seen_alice if f["event"] == "HandStarted")
    alice_card, bob_card = Event.objects.get(table_id=table_id, seq=int(dealt["id"])).secret["cards"]
    assert dealt["data"]["data"]["your_card"] == alice_card
    assert next(f for f in seen_bob if f["event"] == "HandStarted")["data"]["data"]["your_card"] == bob_card
    assert "your_card" not in next(f for f in seen_carol if f["event"] == "HandStarted")["data"]["data"]
    assert bob_card not in strings_in([f["data"] for f in seen_alice])
    assert alice_card not in strings_in([f["data"] for f in seen_bob])
    assert {alice_card, bob_card}.isdisjoint(strings_in([f["data"] for f in seen_carol]))


def test_last_event_id_resumes_exactly_and_new_events_arrive_live(alice, bob):
    table_id = started_pair(alice, bob)
    view = table(alice, table_id)
    version = view["version"]
    mover = alice if view["to_act"][0] == 0 else bob

    async def scenario():
        resumed = await open_stream(alice, f"/api/v1/tables/{table_id}/stream/", **{"Last-Event-ID": "1"})
        first = await resumed.frames_until(version)
        await resumed.close()
        live = await open_stream(bob, f"/api/v1/tables/{table_id}/stream/?after={version}")
        # Acted from another thread while the stream waits; the stream reads nothing before it.
        mine = await elsewhere(table)(mover, table_id)
        sent = await elsewhere(act)(mover, table_id, mine["legal_actions"][0], mine["version"])
        assert sent.status_code == 200, sent.json()
        after = sent.json()["version"]
        arrived = await live.frames_until(after)
        await live.close()
        return first, arrived, after

    first, arrived, after = run(scenario())
    assert [int(f["id"]) for f in first] == list(range(2, version + 1))
    assert [int(f["id"]) for f in arrived] == list(range(version + 1, after + 1))
    assert [f["data"] for f in arrived] == bob.get(f"/api/v1/tables/{table_id}/events/?after={version}").json()[
        "results"
    ]


def test_a_bad_resume_point_is_refused_and_streams_are_limited_per_person(alice, bob, settings):
    table_id = started_pair(alice, bob)
    settings.STREAMS_MAX_PER_USER = 1

    async def scenario():
        client, auth = AsyncClient(), {"Authorization": token_of(alice)}
        bad = await client.get(f"/api/v1/tables/{table_id}/stream/", headers={**auth, "Last-Event-ID": "x"})
        # Near-integers that Python's int() would take are refused like every integer parameter.
        near = [
            await client.get(f"/api/v1/tables/{table_id}/stream/", headers={**auth, "Last-Event-ID": raw})
            for raw in (" 1", "+1", "1_0", "1.0", "-1")
        ]
        for raw in ("%2B1", "%D9%A1"):  # "+1", and the Arabic-Indic digit one
            near.append(await client.get(f"/api/v1/tables/{table_id}/stream/?after={raw}", headers=auth))
        anonymous = await AsyncClient().get(f"/api/v1/tables/{table_id}/stream/")
        held = await open_stream(alice, "/api/v1/me/stream/")
        second = await client.get(f"/api/v1/tables/{table_id}/stream/", headers=auth)
        await held.close()
        return bad, near, anonymous, second

    bad, near, anonymous, second = run(scenario())
    assert bad.status_code == 400
    assert [(r.status_code, json.loads(r.content)["code"]) for r in near] == [(400, "invalid")] * 7
    assert anonymous.status_code == 401
    assert second.status_code == 429
    assert json.loads(second.content)["code"] == "too_many_streams"


def test_a_persons_stream_says_your_turn_once_the_opponent_acted(alice, bob):
    table_id = started_pair(alice, bob)
    view = table(alice, table_id)
    mover, idle = (alice, bob) if view["to_act"][0] == 0 else (bob, alice)

    async def scenario():
        stream = await open_stream(idle, "/api/v1/me/stream/")
        opening = await open_stream(mover, "/api/v1/me/stream/")
        # The mover's stream opens with the turn that awaits them now.
        waiting = await opening.frame()
        await opening.close()
        mine = await elsewhere(table)(mover, table_id)
        sent = await elsewhere(act)(mover, table_id, mine["legal_actions"][0], mine["version"])
        assert sent.status_code == 200, sent.json()
        turn = await stream.frame()
        await stream.close()
        return waiting, turn, sent.json()["version"]

    waiting, turn, after = run(scenario())
    assert waiting["event"] == "your_turn"
    assert waiting["data"]["table"] == table_id and waiting["data"]["version"] == view["version"]
    assert turn["event"] == "your_turn"
    assert turn["data"]["table"] == table_id and turn["data"]["version"] == after


def test_notices_become_the_persons_frames_and_deadline_timers():
    """The person's stream from notices alone: start, turn, end, payout; a turn with a deadline
    warns before it, and a later notice of the table cancels that warning."""
    from datetime import UTC, datetime, timedelta

    from api.streams import _Notices

    async def scenario(settings_warning=0.05):
        waiter = notify.Waiter(asyncio.get_running_loop())
        notices = _Notices(7, waiter)
        base = {"k": "table", "table": "t1", "v": 3, "seated": [7, 8], "to_act": [7], "started": True}
        soon = (datetime.now(UTC) + timedelta(seconds=0.2)).isoformat()
        frames = notices.frames({**base, "deadline": soon, "ended": False})
        assert [f.split("\n")[0] for f in frames] == ["event: table_started", "event: your_turn"]
        assert await waiter.wait(TIMEOUT)
        warned = notices.drain()[0]
        assert warned[0].startswith("event: deadline")
        later = (datetime.now(UTC) + timedelta(seconds=0.2)).isoformat()
        notices.frames({**base, "v": 4, "deadline": later, "started": False, "ended": False})
        moved = notices.frames({**base, "v": 5, "to_act": [8], "started": False, "ended": True})
        assert [f.split("\n")[0] for f in moved] == ["event: table_ended"]
        assert notices.timers == {}
        payout = notices.frames({"k": "payout", "user": 7, "payout": 1, "table": "t1", "status": "approved"})
        assert payout[0].startswith("event: payout_decided")

    from django.test import override_settings

    with override_settings(DEADLINE_WARNING_SECONDS=1):
        run(scenario())


def test_table_view_answers_304_to_its_etag(alice, bob):
    table_id = started_pair(alice, bob)
    first = alice.get(f"/api/v1/tables/{table_id}/")
    tag = first["ETag"]
    assert str(first.json()["version"]) in tag
    again = alice.get(f"/api/v1/tables/{table_id}/", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == tag
    # Another seat's view is another tag.
    assert bob.get(f"/api/v1/tables/{table_id}/")["ETag"] != tag
    view = first.json()
    mover = alice if view["to_act"][0] == 0 else bob
    mine = table(mover, table_id)
    assert act(mover, table_id, mine["legal_actions"][0], mine["version"]).status_code == 200
    moved = alice.get(f"/api/v1/tables/{table_id}/", HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200
    assert moved["ETag"] != tag


def test_etag_of_an_open_table_changes_with_its_seating(alice, bob):
    table_id = alice.post("/api/v1/tables/", {"game": "counter", "seats": 2}, format="json").json()["id"]
    tag = alice.get(f"/api/v1/tables/{table_id}/")["ETag"]
    assert bob.post(f"/api/v1/tables/{table_id}/join/", {}, format="json").status_code == 200
    assert alice.get(f"/api/v1/tables/{table_id}/", HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_the_long_poll_returns_as_soon_as_another_thread_appends(alice, bob):
    table_id = started_pair(alice, bob)
    view = table(alice, table_id)
    version = view["version"]
    mover = alice if view["to_act"][0] == 0 else bob
    answers = []
    live = notify.hub()

    def poll():
        try:
            answers.append(bob.get(f"/api/v1/tables/{table_id}/events/?after={version}&wait=20"))
        finally:
            # The test client leaves the request's connection open; a pooled one would stay taken.
            connection.close()

    poller = threading.Thread(target=poll)
    poller.start()
    # The poll is waiting once its waiter is registered.
    deadline = time.monotonic() + TIMEOUT
    while live.counts()[0] == 0:
        assert time.monotonic() < deadline, "the long poll never waited"
        time.sleep(0.01)
    mine = table(mover, table_id)
    started = time.monotonic()
    assert act(mover, table_id, mine["legal_actions"][0], mine["version"]).status_code == 200
    poller.join(TIMEOUT)
    assert not poller.is_alive()
    assert time.monotonic() - started < 5
    answer = answers[0].json()
    assert answer["version"] > version
    assert [e["seq"] for e in answer["results"]] == list(range(version + 1, answer["version"] + 1))


def test_a_socket_notice_wakes_a_waiter_and_a_rolled_back_one_does_not(counter_table, settings):
    if connection.vendor == "postgresql":
        pytest.skip("the socket notifier is the one without PostgreSQL")
    live = notify.hub()
    # Ready means listening and past the wake that follows: a waiter made now hears notices only.
    assert live.ready.is_set()
    woken = live.watch_table(counter_table.pk, notify.Waiter())
    try:
        with transaction.atomic():
            counter_table.version += 1
            notify.table_moved(counter_table, to_act_users=[], seated_users=[])
            transaction.set_rollback(True)
        assert not woken.wait_blocking(0.3)
        with transaction.atomic():
            notify.table_moved(counter_table, to_act_users=[], seated_users=[])
        assert woken.wait_blocking(TIMEOUT)
    finally:
        live.forget(woken)


def test_postgres_notify_wakes_the_listener_at_commit(postgres_tx, counter_table):
    live = notify.hub()
    assert live.ready.is_set()
    woken = live.watch_table(counter_table.pk, notify.Waiter())
    person_waiter = live.watch_user(99, notify.Waiter())
    try:
        with transaction.atomic():
            notify.table_moved(counter_table, to_act_users=[99], seated_users=[99])
            # Not before the commit.
            assert not woken.wait_blocking(0.2)
        assert woken.wait_blocking(TIMEOUT)
        assert person_waiter.wait_blocking(TIMEOUT)
        assert person_waiter.take()[0]["to_act"] == [99]
    finally:
        live.forget(woken)
        live.forget(person_waiter)


def test_a_persons_stream_hears_their_payout_decided(counter_game, task_queue):
    from ledger.models import Payout
    from ledger.units import format_amount
    from tests.api.test_payouts import finished_table

    alice, sam, tina = person("alice"), person("sam", staff=True), person("tina", staff=True)
    table_id = finished_table(task_queue, alice, sam)
    payout = Payout.objects.get(table_id=table_id, seat=0)
    assert payout.user_id == alice.user.pk

    async def scenario():
        stream = await open_stream(alice, "/api/v1/me/stream/")
        approve = elsewhere(lambda: tina.post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json"))
        assert (await approve()).status_code == 200
        notice = await stream.frame()
        await stream.close()
        return notice

    notice = run(scenario())
    assert notice["event"] == "payout_decided"
    assert notice["data"]["payout"] == payout.pk and notice["data"]["status"] == "approved"
    assert notice["data"]["table"] == table_id
    assert notice["data"]["amount"] == format_amount(payout.amount, "MXN") and notice["data"]["currency"] == "MXN"


def test_five_card_draw_streams_show_each_seat_its_own_hand_only(task_queue):
    """Five-Card Draw, a few actions in: each seat's stream and a spectator's pass the FD-19 leak
    checks against the decoded truth, and equal what the events endpoint gives each of them."""
    import random

    from tests.api.draw import choose
    from tests.api.play import Game, set_up
    from tests.api.test_five_card_draw_leaks import Counts, Truth, check_events

    owner, staff = person("dora"), person("sam", staff=True)
    table_id, clients = set_up(Game("five-card-draw", 3, people=(0, 1, 2)), owner, staff)
    rng = random.Random(19)
    for _ in range(6):
        view = table(clients[0], table_id)
        if view["status"] != "running" or not view["to_act"]:
            break
        seat = view["to_act"][0]
        mine = table(clients[seat], table_id)
        assert act(clients[seat], table_id, choose(mine, rng), mine["version"]).status_code == 200
    version = table(clients[0], table_id)["version"]
    watchers = {0: clients[0], 1: clients[1], None: person("eve")}

    async def read(client):
        stream = await open_stream(client, f"/api/v1/tables/{table_id}/stream/?after=0")
        try:
            return [frame["data"] for frame in await stream.frames_until(version)]
        finally:
            await stream.close()

    async def all_of_them():
        return await asyncio.gather(*(read(client) for client in watchers.values()))

    streamed = dict(zip(watchers, run(all_of_them())))
    truth = Truth(table_id)
    truth.refresh()
    counts = Counts()
    for seat, items in streamed.items():
        assert items == watchers[seat].get(f"/api/v1/tables/{table_id}/events/").json()["results"]
        check_events(truth, seat, items, counts)
    assert counts.events == 3 * version
    assert "CardsDealt" in counts.kinds


def test_an_idle_stream_sends_keep_alive_comments_and_keeps_its_slot(alice, settings):
    from django.core.cache import cache

    settings.STREAM_HEARTBEAT_SECONDS = 0.02

    async def scenario():
        stream = await open_stream(alice, "/api/v1/me/stream/")
        beats = 0
        while beats < 6:  # past a slot refresh (every 4th)
            chunk = await asyncio.wait_for(anext(stream.chunks), TIMEOUT)
            beats += (chunk.decode() if isinstance(chunk, bytes) else chunk) == ": keep-alive\n\n"
        held = [
            key
            for key in (f"stream:{alice.user.pk}:{n}" for n in range(settings.STREAMS_MAX_PER_USER))
            if cache.get(key)
        ]
        await stream.close()
        return held

    assert len(run(scenario())) == 1


def test_the_asgi_application_serves_a_stream_and_ends_it_when_the_client_goes(alice, settings):
    """Through config.asgi itself (streams outside Django's per-request thread): the stream opens,
    and once the client disconnects the handler returns and the person's slot is free again."""
    from django.core.cache import cache

    from config.asgi import application

    token = token_of(alice).encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/api/v1/me/stream/",
        "raw_path": b"/api/v1/me/stream/",
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1"), (b"authorization", token), (b"accept", b"text/event-stream")],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8000),
    }

    async def scenario():
        gone = asyncio.Event()
        sent: asyncio.Queue = asyncio.Queue()
        requested = False

        async def receive():
            nonlocal requested
            if not requested:
                requested = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            await sent.put(message)

        served = asyncio.create_task(application(scope, receive, send))
        start = await asyncio.wait_for(sent.get(), TIMEOUT)
        first = await asyncio.wait_for(sent.get(), TIMEOUT)
        gone.set()
        await asyncio.wait_for(served, TIMEOUT)
        return start, first

    start, first = run(scenario())
    assert start["status"] == 200
    assert {k.lower(): v for k, v in start["headers"]}[b"content-type"].startswith(b"text/event-stream")
    assert first["body"].startswith(b"retry: ")
    deadline = time.monotonic() + TIMEOUT
    keys = [f"stream:{alice.user.pk}:{n}" for n in range(settings.STREAMS_MAX_PER_USER)]
    while any(cache.get(key) for key in keys):
        assert time.monotonic() < deadline, "the stream's slot was never given back"
        time.sleep(0.01)
