"""Throttle counts in windows (api/limits.py): far from the limit a process counts locally and adds
its requests to the shared count in batches; near it, every request is counted in the shared cache
before it is let through; the last window's count weighs by how much of it still overlaps."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from api import limits

START = 6_000_000.0  # a window boundary for a rate per minute


class _Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class _Calls:
    """The shared cache's increments and additions, counted (each one a round trip to Redis)."""

    def __init__(self, monkeypatch) -> None:
        self.count = 0
        for name in ("incr", "add", "decr"):
            original = getattr(cache, name)

            def counted(*args, _original=original, **kwargs):
                self.count += 1
                return _original(*args, **kwargs)

            monkeypatch.setattr(cache, name, counted)


def _throttle(rate: str, clock: _Clock) -> limits.CountingThrottle:
    class Throttle(limits.CountingThrottle):
        scope = "test"
        timer = staticmethod(clock)

        def get_cache_key(self, request, view):
            return "throttle_test_one"

    Throttle.rate = rate
    return Throttle()


def _shared(window: int) -> int:
    return int(cache.get(f"throttle_test_one:{window}") or 0)


def test_far_from_the_limit_a_process_tells_the_shared_count_in_batches(monkeypatch):
    clock = _Clock(START + 1)
    calls = _Calls(monkeypatch)
    throttle = _throttle("1200/minute", clock)
    allowed = [throttle.allow_request(None, None) for _ in range(43)]
    assert all(allowed)
    # The first request (an increment refused, then the window's key added), then one request in
    # every LOCAL_REQUESTS + 1, which tells the ones before it: four round trips, not 43.
    assert calls.count == 4
    assert _shared(100_000) == 43


def test_past_the_local_share_every_request_is_counted_in_the_shared_cache():
    clock = _Clock(START + 1)
    cache.set("throttle_test_one:100000", 600, 120)  # other processes told half of the limit
    throttle = _throttle("1200/minute", clock)
    for told in range(601, 611):
        assert throttle.allow_request(None, None) is True
        assert _shared(100_000) == told


def test_paced_requests_cost_no_round_trip_and_are_told_when_the_window_ends(monkeypatch):
    clock = _Clock(START + 1)
    calls = _Calls(monkeypatch)
    throttle = _throttle("1200/minute", clock)
    throttle.allow_request(None, None)  # the window's first: told
    assert _shared(100_000) == 1
    told = calls.count
    # A person's pace, seconds apart: counted here, no round trip.
    for _ in range(5):
        clock.now += 9
        assert throttle.allow_request(None, None) is True
    assert calls.count == told and _shared(100_000) == 1
    # The next window's first request adds the five to the ended window's count, which then weighs
    # in that window's estimate, and tells itself.
    clock.now = START + 60 + 1
    assert throttle.allow_request(None, None) is True
    assert _shared(100_000) == 6 and _shared(100_001) == 1
    assert throttle.counts == (6, 0)


def test_a_low_limit_is_counted_in_the_shared_cache_at_every_request():
    clock = _Clock(START + 1)
    throttle = _throttle("10/minute", clock)
    answers, shared = [], []
    for _ in range(12):
        answers.append(throttle.allow_request(None, None))
        shared.append(_shared(100_000))
    assert answers == [True] * 10 + [False, False]
    assert shared == [*range(1, 11), 10, 10]  # a refused request is taken back out
    # This window alone is full: the next one has to begin and then weigh it down.
    assert throttle.wait() == pytest.approx(59.0)


def test_other_processes_counts_are_seen():
    clock = _Clock(START + 1)
    cache.set("throttle_test_one:100000", 9, 120)
    throttle = _throttle("10/minute", clock)
    assert throttle.allow_request(None, None) is True
    assert throttle.allow_request(None, None) is False


def test_the_last_window_weighs_by_how_much_of_it_still_overlaps():
    cache.set("throttle_test_one:99999", 10, 120)
    clock = _Clock(START + 30)  # half of the last window still overlaps: it weighs 5
    throttle = _throttle("10/minute", clock)
    answers = [throttle.allow_request(None, None) for _ in range(6)]
    assert answers == [True] * 5 + [False]
    # 5 + 10 x 0.5 = 10 is the limit: room opens the moment the last window weighs less.
    assert throttle.wait() == 1.0
    clock.now = START + 45  # the last window weighs 2.5
    # 5 + 2.5 = 7.5: three more fit (8 + 2.5 is past the limit).
    assert [throttle.allow_request(None, None) for _ in range(4)] == [True, True, True, False]
    # Room for one opens when the last window weighs under 10 - 8 = 2, at 48 s of this window.
    assert throttle.wait() == pytest.approx(48 - 45)


@pytest.mark.django_db
def test_an_answer_says_what_is_left_of_each_limit_that_counted_it():
    client = APIClient()
    body = {"username": "nobody", "password": "not the password"}
    first, second = (client.post("/api/v1/auth/token/", body, format="json") for _ in range(2))
    assert first.status_code == 400  # a wrong password still counts against the login limits
    policy = first["RateLimit-Policy"]
    assert '"login_account";q=10;w=60' in policy and '"login_address";q=30;w=60' in policy and '"anon";' in policy

    def left(answer) -> int:
        return int(re.search(r'"login_account";r=(\d+);t=(\d+)', answer["RateLimit"]).group(1))

    assert (left(first), left(second)) == (9, 8)
