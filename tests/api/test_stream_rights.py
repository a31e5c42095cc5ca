"""Open streams end when the rights that opened them do (issue 22): a revoked or logged-out token,
an expired one, a session logged out; and a finished table's stream ends after its last event,
its slot free again. Each ends with ``event: stream_end`` (a ``code`` and words) and sends nothing
after it. Read through HTTP and real streams, as tests/api/test_live.py reads them."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import AsyncClient
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from api import stream_rights
from games import notify
from games.models import Table
from tests.api.play import person
from tests.api.test_live import TIMEOUT, Stream, elsewhere, open_stream, run, token_of
from tests.api.test_tables import act, started_pair, table

pytestmark = pytest.mark.django_db(transaction=True)

# A revocation reaches an open stream by a notice; a second is the promise (docs/api.md).
PROMPTLY = 1.0


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
    """Heartbeats far apart: a stream that ends promptly was ended by a notice, not a beat."""
    settings.STREAM_HEARTBEAT_SECONDS = 60


def second_token(client) -> APIClient:
    """Another device of the same person, to revoke the first one from."""
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(client.user)[1]}")
    other.user = client.user
    return other


def token_id_of(client) -> str:
    listed = client.get("/api/v1/auth/tokens/").json()["results"]
    return next(item["id"] for item in listed if item["current"])


async def rest_of(stream: Stream) -> list[dict]:
    """Every message left until the server ends the stream (which it must, within TIMEOUT)."""
    frames = []
    while True:
        try:
            frames.append(await stream.frame())
        except StopAsyncIteration:
            return frames


def slots_held(user) -> list[str]:
    from django.conf import settings

    return [key for key in (f"stream:{user.pk}:{n}" for n in range(settings.STREAMS_MAX_PER_USER)) if cache.get(key)]


def wait_for_free_slots(user) -> None:
    # The slot is given back on a reading thread as the stream closes.
    deadline = time.monotonic() + TIMEOUT
    while slots_held(user):
        assert time.monotonic() < deadline, "the stream's slot was never given back"
        time.sleep(0.01)


def mover_of(alice, bob, table_id):
    view = table(alice, table_id)
    return alice if view["to_act"][0] == 0 else bob


def play_one(client, table_id) -> int:
    mine = table(client, table_id)
    sent = act(client, table_id, mine["legal_actions"][0], mine["version"])
    assert sent.status_code == 200, sent.json()
    return sent.json()["version"]


def revoke_scenario(alice, bob, revoke):
    """alice follows a running table and her own notices with one token; ``revoke`` ends that token
    (from another thread, as another device would); then bob plays, which would deal and wake her
    streams. Returns what each stream sent after the revocation and how long each took to end."""
    table_id = started_pair(alice, bob)
    version = table(alice, table_id)["version"]

    def play_for(alices_turn: bool) -> None:
        play_one(second_token(alice) if alices_turn else bob, table_id)

    async def scenario():
        followed = await open_stream(alice, f"/api/v1/tables/{table_id}/stream/")
        await followed.frames_until(version)
        mine = await open_stream(alice, "/api/v1/me/stream/")
        revoked_at = time.monotonic()
        await elsewhere(revoke)()
        ends = await asyncio.gather(rest_of(followed), rest_of(mine))
        took = time.monotonic() - revoked_at
        # Moves after the end: a stream still open would carry them (and alice's turn).
        for _ in range(3):
            view = await elsewhere(table)(bob, table_id)
            if view["status"] != "running":
                break
            # alice's own moves are made from a new device: the revoked token can no longer act.
            await elsewhere(play_for)(view["to_act"][0] == 0)
        return ends, took

    (table_frames, my_frames), took = run(scenario())
    return table_frames, my_frames, took


def assert_ended_with(frames: list[dict], code: str) -> None:
    assert [f.get("event") for f in frames] == ["stream_end"], frames
    assert frames[0]["data"]["code"] == code
    assert frames[0]["data"]["detail"]
    assert "id" not in frames[0]


def test_revoking_a_token_ends_its_table_stream_and_its_own_stream_within_a_second(alice, bob, quiet):
    """DELETE auth/tokens/{id}/ from another device: both open streams of the revoked token end at
    once with ``token_revoked``, and no event after it (no deal, no your_turn)."""
    phone = second_token(alice)
    revoked = token_id_of(alice)

    def revoke():
        assert phone.delete(f"/api/v1/auth/tokens/{revoked}/").status_code == 204

    table_frames, my_frames, took = revoke_scenario(alice, bob, revoke)
    assert_ended_with(table_frames, "token_revoked")
    assert_ended_with(my_frames, "token_revoked")
    assert took < PROMPTLY
    wait_for_free_slots(alice.user)


def test_logging_out_ends_the_tokens_streams_within_a_second(alice, bob, quiet):
    def logout():
        assert alice.post("/api/v1/auth/logout/").status_code == 204

    table_frames, my_frames, took = revoke_scenario(alice, bob, logout)
    assert_ended_with(table_frames, "token_revoked")
    assert_ended_with(my_frames, "token_revoked")
    assert took < PROMPTLY


def test_logging_out_everywhere_ends_every_tokens_streams(alice, bob, quiet):
    def logout_all():
        assert alice.post("/api/v1/auth/logout-all/").status_code == 200

    table_frames, my_frames, took = revoke_scenario(alice, bob, logout_all)
    assert_ended_with(table_frames, "token_revoked")
    assert_ended_with(my_frames, "token_revoked")
    assert took < PROMPTLY


def test_revoking_one_token_leaves_the_streams_of_another_open(alice, bob, quiet):
    """The notice wakes every stream of the person; only the revoked token's end."""
    table_id = started_pair(alice, bob)
    version = table(alice, table_id)["version"]
    phone = second_token(alice)
    revoked = token_id_of(alice)

    async def scenario():
        gone = await open_stream(alice, f"/api/v1/tables/{table_id}/stream/")
        kept = await open_stream(phone, f"/api/v1/tables/{table_id}/stream/")
        await gone.frames_until(version)
        await kept.frames_until(version)
        assert (await elsewhere(phone.delete)(f"/api/v1/auth/tokens/{revoked}/")).status_code == 204
        ended = await rest_of(gone)
        mover = await elsewhere(mover_of)(phone, bob, table_id)
        after = await elsewhere(play_one)(mover, table_id)
        moved = await kept.frames_until(after)
        await kept.close()
        return ended, moved, after

    ended, moved, after = run(scenario())
    assert_ended_with(ended, "token_revoked")
    assert int(moved[-1]["id"]) == after


def test_a_token_revoked_while_the_listener_reconnects_ends_its_streams_at_the_resync(alice, bob, quiet):
    """A revocation whose notice was missed (the listener was reconnecting): the catch-up wake
    that follows a reconnect makes every stream check its rights from the database."""
    table_id = started_pair(alice, bob)
    version = table(alice, table_id)["version"]

    async def scenario():
        followed = await open_stream(alice, f"/api/v1/tables/{table_id}/stream/")
        await followed.frames_until(version)
        mine = await open_stream(alice, "/api/v1/me/stream/")
        # Deleted behind the API's back: no notice is published.
        await elsewhere(lambda: AuthToken.objects.filter(user=alice.user).delete())()
        notify.hub().wake_all()
        return await asyncio.gather(rest_of(followed), rest_of(mine))

    table_frames, my_frames = run(scenario())
    assert_ended_with(table_frames, "token_revoked")
    assert_ended_with(my_frames, "token_revoked")


def test_an_expired_tokens_streams_end_at_their_next_heartbeat(alice, bob, settings):
    """No notice for an expiry: the expiry held in memory is passed at a heartbeat, checked in the
    database, and the stream ends with ``token_expired``."""
    settings.STREAM_HEARTBEAT_SECONDS = 0.05
    table_id = started_pair(alice, bob)
    version = table(alice, table_id)["version"]
    expiry = timezone.now() + timedelta(seconds=1.5)
    AuthToken.objects.filter(user=alice.user).update(expiry=expiry)

    async def scenario():
        followed = await open_stream(alice, f"/api/v1/tables/{table_id}/stream/")
        await followed.frames_until(version)
        mine = await open_stream(alice, "/api/v1/me/stream/")
        ends = await asyncio.gather(rest_of(followed), rest_of(mine))
        return ends, timezone.now()

    (table_frames, my_frames), ended_at = run(scenario())
    assert_ended_with(table_frames, "token_expired")
    assert [f["event"] for f in my_frames[:-1]] == ["your_turn"] * (len(my_frames) - 1)
    assert_ended_with(my_frames[-1:], "token_expired")
    assert ended_at >= expiry
    assert alice.get("/api/v1/auth/tokens/").status_code == 401


def test_a_session_logout_ends_the_streams_the_session_opened(alice, bob, quiet):
    """The web client follows a table with its session cookie (EventSource withCredentials):
    DELETE auth/session/ ends that stream with ``session_ended``."""
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
    csrf = login.json()["csrf_token"]
    cookie = browser.cookies["sessionid"].value
    table_id = started_pair(alice, bob)
    version = table(alice, table_id)["version"]

    async def scenario():
        client = AsyncClient()
        client.cookies["sessionid"] = cookie
        followed = Stream(await client.get(f"/api/v1/tables/{table_id}/stream/"))
        await followed.frames_until(version)
        started = time.monotonic()
        logout = await elsewhere(lambda: browser.delete("/api/v1/auth/session/", HTTP_X_CSRFTOKEN=csrf))()
        assert logout.status_code == 204
        return await rest_of(followed), time.monotonic() - started

    frames, took = run(scenario())
    assert_ended_with(frames, "session_ended")
    assert took < PROMPTLY


def test_a_finished_tables_stream_ends_after_its_last_event_and_frees_its_slot(counter_game, task_queue, settings):
    """A finished table's stream sends every event after its position, then ``table_finished``,
    and closes: the slot it held is free again (with one slot allowed, the next stream opens), and
    a reconnect from its last event is answered 204, on which an EventSource stops. Opened with no
    position, it sends the final view (its ``id`` the last version) and ends the same way."""
    from tests.api.test_payouts import finished_table

    settings.STREAMS_MAX_PER_USER = 1
    alice, sam = person("alice"), person("sam", staff=True)
    table_id = finished_table(task_queue, alice, sam)
    version = Table.objects.get(pk=table_id).version

    async def scenario(query):
        stream = await open_stream(alice, f"/api/v1/tables/{table_id}/stream/{query}")
        return await rest_of(stream)

    frames = run(scenario("?after=0"))
    assert [int(f["id"]) for f in frames[:-1]] == list(range(1, version + 1))
    assert_ended_with(frames[-1:], "table_finished")
    wait_for_free_slots(alice.user)

    viewed = run(scenario(""))
    assert [(f.get("event"), f.get("id")) for f in viewed[:-1]] == [("table", str(version))]
    assert viewed[0]["data"]["status"] == "finished"
    assert_ended_with(viewed[-1:], "table_finished")
    wait_for_free_slots(alice.user)

    async def again():
        resumed = await AsyncClient().get(
            f"/api/v1/tables/{table_id}/stream/", headers={"Authorization": token_of(alice), "Last-Event-ID": "3"}
        )
        tail = await rest_of(Stream(resumed))
        done = await AsyncClient().get(
            f"/api/v1/tables/{table_id}/stream/",
            headers={"Authorization": token_of(alice), "Last-Event-ID": str(version)},
        )
        return tail, done

    tail, done = run(again())
    assert [int(f["id"]) for f in tail[:-1]] == list(range(4, version + 1))
    assert tail[-1]["data"]["code"] == "table_finished"
    assert done.status_code == 204


def test_no_event_committed_after_a_revocation_is_sent_not_even_a_deal_of_her_cards(alice, bob, quiet):
    """The token is revoked with no notice at all (behind the API's back), then the table moves on
    into a new hand, whose deal carries alice's hidden card: the table's own notice wakes her
    stream, which reads those events, finds its token gone and sends ``stream_end`` alone."""
    from games.models import Event

    table_id = started_pair(alice, bob, options={"hands": 2, "target": 5})
    version = table(alice, table_id)["version"]
    phone = second_token(alice)

    def play_into_the_next_hand():
        for _ in range(40):
            view = table(bob, table_id)
            if Event.objects.filter(table_id=table_id, seq__gt=version, type="HandStarted").exists():
                return
            assert view["status"] == "running" and view["to_act"], view
            play_one(phone if view["to_act"][0] == 0 else bob, table_id)
        raise AssertionError("no new hand was dealt")

    async def scenario():
        followed = await open_stream(alice, f"/api/v1/tables/{table_id}/stream/")
        await followed.frames_until(version)
        await elsewhere(lambda: AuthToken.objects.filter(digest=alice_digest).delete())()
        await elsewhere(play_into_the_next_hand)()
        return await rest_of(followed)

    alice_digest = AuthToken.objects.filter(user=alice.user).earliest("created").digest
    assert_ended_with(run(scenario()), "token_revoked")
    dealt = Event.objects.get(table_id=table_id, seq__gt=version, type="HandStarted")
    assert dealt.secret["cards"][0]


def test_an_idle_stream_checks_its_rights_only_when_it_wakes_not_at_each_heartbeat(alice, bob, settings, monkeypatch):
    """Heartbeats compare the expiry held in memory: an idle stream's rights are read from the
    database once as it opens, then not again for ten heartbeats."""
    from api.stream_rights import Rights

    settings.STREAM_HEARTBEAT_SECONDS = 0.02
    table_id = started_pair(alice, bob)
    version = table(alice, table_id)["version"]
    checks = []
    exact = Rights.check

    def counted(self):
        checks.append(self.token)
        return exact(self)

    monkeypatch.setattr(Rights, "check", counted)

    async def scenario():
        stream = await open_stream(alice, f"/api/v1/tables/{table_id}/stream/")
        await stream.frames_until(version)
        beats = 0
        while beats < 10:
            while ": keep-alive\n\n" not in stream.buffer:
                chunk = await asyncio.wait_for(anext(stream.chunks), TIMEOUT)
                stream.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            stream.buffer = stream.buffer.split(": keep-alive\n\n", 1)[1]
            beats += 1
        await stream.close()

    run(scenario())
    assert len(checks) == 1


@pytest.mark.parametrize("language", ["es-mx", "fa"])
def test_a_streams_last_words_are_in_the_readers_language_and_its_code_is_not(language):
    """The ``detail`` of every ``stream_end`` is translated (the catalogues hold each reason);
    the ``code`` stays the machine word in every language."""
    for code, english in stream_rights.ENDS.items():
        said = stream_rights.end_data(code, language)
        assert said["code"] == code
        assert said["detail"] and said["detail"] != english, (language, code)
