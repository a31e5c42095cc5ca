"""Abuse limits (issue 12, item 6): throttles count in the shared cache by the address the trusted
proxies report, logins are limited per account and per address, and one person holds at most
``LONG_POLL_MAX_PER_USER`` waiting requests.

Each failed before: X-Forwarded-For was trusted (a new value, a new count), logins had only the
anonymous rate of 60 a minute per (spoofable) address, and waits were not limited."""

from __future__ import annotations

import pytest
from django.core.cache import cache, caches
from rest_framework.settings import api_settings
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle

from api import limits
from api.limits import AnonThrottle
from tests.api.play import person

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _inside_one_window(monkeypatch):
    """The throttles' clock held 10 s into a minute: requests that straddled a window's start would
    see the ended window weigh a little under its count, and one more would get through."""
    monkeypatch.setattr(limits.CountingThrottle, "timer", staticmethod(lambda: 6_000_010.0))


def test_trusted_proxies_default_to_zero_so_x_forwarded_for_is_ignored():
    assert api_settings.NUM_PROXIES == 0


def test_throttles_count_in_the_default_cache(monkeypatch):
    """The default cache is Redis when CACHE_URL is set: the counts of every web process add up."""
    monkeypatch.setattr(AnonThrottle, "timer", staticmethod(lambda: 6_000_030.0))
    assert AnonThrottle.cache is cache
    APIClient().get("/api/v1/games/")
    window = 100_000
    assert caches["default"].get(f"throttle_anon_127.0.0.1:{window}") == 1


def test_a_spoofed_x_forwarded_for_does_not_reset_the_count(monkeypatch):
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", {**api_settings.DEFAULT_THROTTLE_RATES, "anon": "3/minute"})
    client = APIClient()
    answers = [client.get("/api/v1/games/", headers={"X-Forwarded-For": f"10.0.0.{n}"}).status_code for n in range(5)]
    assert answers == [200, 200, 200, 429, 429]


def _login(client: APIClient, username: str, address: str):
    return client.post(
        "/api/v1/auth/token/",
        {"username": username, "password": "wrong password"},
        format="json",
        REMOTE_ADDR=address,
    )


def test_logins_are_limited_per_account_from_any_address(settings, monkeypatch):
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "login_account": "3/minute", "login_address": "100/minute"}
    monkeypatch.setattr(limits.LoginAccountThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(limits.LoginAddressThrottle, "THROTTLE_RATES", rates)
    client = APIClient()
    codes = [_login(client, "Alice", f"10.0.0.{n}").status_code for n in range(4)]
    assert codes[:3] == [400, 400, 400]
    assert codes[3] == 429
    assert _login(client, "alice", "10.0.1.1").json()["code"] == "throttled"  # the same account, any case
    assert _login(client, "bob", "10.0.1.2").status_code == 400  # another account is not held up


def test_logins_and_registrations_are_limited_per_address(monkeypatch):
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "login_account": "100/minute", "login_address": "3/minute"}
    monkeypatch.setattr(limits.LoginAccountThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(limits.LoginAddressThrottle, "THROTTLE_RATES", rates)
    client = APIClient()
    codes = [_login(client, f"user{n}", "10.9.9.9").status_code for n in range(3)]
    register = client.post(
        "/api/v1/auth/register/",
        {"username": "newbie", "password": "a long passphrase"},
        format="json",
        REMOTE_ADDR="10.9.9.9",
    )
    assert codes == [400, 400, 400]
    assert register.status_code == 429
    assert register.json()["code"] == "throttled"


def test_one_person_holds_at_most_two_waiting_requests(counter_table, settings):
    """A third wait is refused at once (429 ``too_many_waiting_requests``) instead of holding a
    web thread; another person still waits."""
    settings.LONG_POLL_MAX_SECONDS = 2
    alice, bob = person("alice"), person("bob")
    url = f"/api/v1/tables/{counter_table.pk}/events/?after=0&wait=2"
    # Two slots taken as two waiting requests would hold them.
    with limits.waiting_slot(alice.user.pk), limits.waiting_slot(alice.user.pk):
        third = alice.get(url)
        assert third.status_code == 429
        assert third.json()["code"] == "too_many_waiting_requests"
        assert bob.get(f"/api/v1/tables/{counter_table.pk}/events/?after=0&wait=0.1").status_code == 200
        # Asking without waiting is always answered.
        assert alice.get(f"/api/v1/tables/{counter_table.pk}/events/?after=0").status_code == 200
    # Freed once the waits end.
    assert alice.get(f"/api/v1/tables/{counter_table.pk}/events/?after=0&wait=0.1").status_code == 200
    assert cache.get(f"longpoll:{alice.user.pk}:0") is None
