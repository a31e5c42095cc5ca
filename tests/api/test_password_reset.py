"""A forgotten password, end to end through HTTP (issue 25, item 3): the link is mailed (Django's
test outbox catches it), opens the web client's reset page, sets a new password once, and ends
every token and session the account had. Nobody learns from the answers which addresses have
accounts."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from api import password_reset
from api.models import LanguagePreference
from games import outbox
from games.models import OutboxMessage

pytestmark = pytest.mark.django_db

LINK = re.compile(r"(http://testserver/)#/reset/([^/\s]+)/([^/\s]+)")


def register(username: str, email: str = "") -> APIClient:
    client = APIClient()
    answer = client.post(
        "/api/v1/auth/register/",
        {"username": username, "password": "first password 1", "email": email, "device": "phone"},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client


@pytest.fixture
def ask(task_queue, django_capture_on_commit_callbacks):
    """``ask(email, **headers)``: the answer to asking for a link, once the worker's task that the
    request stored has run (the mail is then in Django's test outbox, or not)."""

    def asking(email: str, **headers):
        with django_capture_on_commit_callbacks(execute=True):
            answer = APIClient().post("/api/v1/auth/password-reset/", {"email": email}, format="json", headers=headers)
        task_queue.run_until_idle()
        return answer

    return asking


def confirm(uid: str, token: str, password: str = "second password 2"):
    return APIClient().post(
        "/api/v1/auth/password-reset/confirm/",
        {"uid": uid, "token": token, "new_password": password},
        format="json",
    )


def login(username: str, password: str):
    return APIClient().post(
        "/api/v1/auth/token/", {"username": username, "password": password, "device": "laptop"}, format="json"
    )


def the_link() -> tuple[str, str, str]:
    assert len(mail.outbox) == 1
    found = LINK.search(mail.outbox[0].body)
    assert found, mail.outbox[0].body
    return found.group(1), found.group(2), found.group(3)


def test_a_mailed_link_sets_a_new_password_once_and_ends_every_token(ask):
    phone = register("alice", "alice@example.com")
    asked = ask("Alice@Example.com")
    assert asked.status_code == 202
    assert mail.outbox[0].to == ["alice@example.com"]
    assert "alice" in mail.outbox[0].body
    page, uid, token = the_link()
    assert page == "http://testserver/"
    assert confirm(uid, token).status_code == 204
    # The old token is revoked, the old password refused, the new one accepted.
    assert phone.get("/api/v1/wallets/me/").status_code == 401
    assert login("alice", "first password 1").status_code == 400
    assert login("alice", "second password 2").status_code == 200
    # The link worked once.
    again = confirm(uid, token, "third password 3")
    assert again.status_code == 400
    assert again.json()["code"] == "invalid_reset_link"


def test_an_unknown_address_gets_the_same_answer_and_no_mail(ask):
    register("alice", "alice@example.com")
    unknown, known = ask("nobody@example.com"), ask("alice@example.com")
    assert unknown.status_code == known.status_code == 202
    assert unknown.json() == known.json()
    assert len(mail.outbox) == 1


def test_a_weak_new_password_is_refused_and_the_link_still_works(ask):
    register("alice", "alice@example.com")
    ask("alice@example.com")
    _, uid, token = the_link()
    weak = confirm(uid, token, "alice123")
    assert weak.status_code == 400
    assert weak.json()["code"] == "invalid"
    assert list(weak.json()["fields"]) == ["new_password"]
    assert confirm(uid, token).status_code == 204


def test_a_forged_or_foreign_link_is_refused(ask):
    register("alice", "alice@example.com")
    register("bob", "bob@example.com")
    ask("alice@example.com")
    _, uid, token = the_link()
    mail.outbox.clear()
    ask("bob@example.com")
    _, bobs_uid, _ = the_link()
    for bad_uid, bad_token in [(bobs_uid, token), (uid, token[:-1] + "x"), ("not-base64!", token)]:
        refused = confirm(bad_uid, bad_token)
        assert refused.status_code == 400
        assert refused.json()["code"] == "invalid_reset_link"


def test_the_mail_is_in_the_persons_language_whatever_the_asker_reads(ask):
    register("alice", "alice@example.com")
    LanguagePreference.objects.create(user=get_user_model().objects.get(username="alice"), language="es-mx")
    ask("alice@example.com", **{"Accept-Language": "fa"})
    assert "contraseña" in mail.outbox[0].subject.lower()
    mail.outbox.clear()
    register("bob", "bob@example.com")
    ask("bob@example.com", **{"Accept-Language": "fa"})  # no choice of his own: the asker's language
    assert "reset" not in mail.outbox[0].subject.lower()


def test_the_link_is_for_the_public_address_when_one_is_set(settings, ask):
    settings.PUBLIC_URL = "https://cards.example/"
    register("alice", "alice@example.com")
    ask("alice@example.com")
    assert "https://cards.example/#/reset/" in mail.outbox[0].body


def test_a_session_ends_with_the_reset(ask):
    register("alice", "alice@example.com")
    session = APIClient(enforce_csrf_checks=False)
    assert (
        session.post(
            "/api/v1/auth/session/", {"username": "alice", "password": "first password 1"}, format="json"
        ).status_code
        == 200
    )
    assert session.get("/api/v1/auth/session/").json()["username"] == "alice"
    ask("alice@example.com")
    _, uid, token = the_link()
    assert confirm(uid, token).status_code == 204
    assert session.get("/api/v1/auth/session/").json()["username"] is None


def test_asking_stores_the_same_task_for_any_address_and_mails_nothing_itself(
    task_queue, django_capture_on_commit_callbacks
):
    """The request's work does not depend on whether the address has an account: one task for the
    worker either way, and no mail sent while the request runs (a slow mail server would hold it,
    and time it differently for an account)."""
    register("alice", "alice@example.com")
    for email in ("nobody@example.com", "alice@example.com"):
        with django_capture_on_commit_callbacks(execute=True):
            answer = APIClient().post("/api/v1/auth/password-reset/", {"email": email}, format="json")
        assert answer.status_code == 202
        assert mail.outbox == []
        assert task_queue.names() == [password_reset.SEND_LINK]
        assert task_queue.published[0][1][0] == email
        task_queue.run_until_idle()
    assert [sent.to for sent in mail.outbox] == [["alice@example.com"]]


def test_the_answer_comes_before_the_mail_server_is_tried(
    task_queue, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    """The person's answer is given before the mail server is tried; the worker logs a mail it
    could not send."""
    tried = []

    def refuse(subject, body, sender, to):
        tried.append(to)
        raise OSError("the mail server is down")

    register("alice", "alice@example.com")
    monkeypatch.setattr(password_reset, "send_mail", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        answer = APIClient().post("/api/v1/auth/password-reset/", {"email": "alice@example.com"}, format="json")
    assert answer.status_code == 202 and tried == []
    task_queue.run_until_idle()
    assert tried == [["alice@example.com"]] and mail.outbox == []
    assert "could not be sent" in caplog.text


def _mailing_fails(monkeypatch, refuse) -> list[str]:
    """Mails go through ``refuse(body)`` first: a true answer fails that mail (the server refused
    it). Returns the bodies tried, in order."""
    tried = []
    real = password_reset.send_mail

    def sending(subject, body, sender, to):
        tried.append(body)
        if refuse(body):
            raise OSError("the mail server refused the mail")
        return real(subject, body, sender, to)

    monkeypatch.setattr(password_reset, "send_mail", sending)
    return tried


def _retries(task_queue, django_capture_on_commit_callbacks) -> list[float]:
    """Run the queued mailing and every retry it stores, each as beat's relay publishes it once its
    time has come (brought forward here); the delays the retries were stored with, in seconds."""
    delays = []
    while True:
        with django_capture_on_commit_callbacks(execute=True):
            task_queue.run_until_idle()
        pending = list(OutboxMessage.objects.filter(published_at__isnull=True))
        if not pending:
            return delays
        assert outbox.relay() == 0, "a retry waits for its time"
        for row in pending:
            delays.append((row.due_at - row.created_at).total_seconds())
            past = timezone.now() - timedelta(seconds=60)
            OutboxMessage.objects.filter(pk=row.pk).update(created_at=past, due_at=past)
        assert outbox.relay() == len(pending)


def test_a_refused_mail_is_tried_again_later_until_it_is_sent(
    task_queue, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    """A mail the server refuses is stored again in the outbox, due after a growing delay, and sent
    once the server takes it; the person gets one mail, whose link works."""
    register("alice", "alice@example.com")
    tried = _mailing_fails(monkeypatch, lambda body: len(tried) <= 2)
    with django_capture_on_commit_callbacks(execute=True):
        APIClient().post("/api/v1/auth/password-reset/", {"email": "alice@example.com"}, format="json")
    delays = _retries(task_queue, django_capture_on_commit_callbacks)
    assert len(tried) == 3 and len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.com"]
    assert [round(delay) for delay in delays] == list(password_reset.RETRY_SECONDS[:2])
    assert "attempt 2" in caplog.text and "gave up" not in caplog.text
    _, uid, token = the_link()
    assert confirm(uid, token).status_code == 204


def test_a_mail_refused_every_time_is_given_up_after_the_last_retry(
    task_queue, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    register("alice", "alice@example.com")
    tried = _mailing_fails(monkeypatch, lambda body: True)
    with django_capture_on_commit_callbacks(execute=True):
        APIClient().post("/api/v1/auth/password-reset/", {"email": "alice@example.com"}, format="json")
    delays = _retries(task_queue, django_capture_on_commit_callbacks)
    assert [round(delay) for delay in delays] == list(password_reset.RETRY_SECONDS)
    assert len(tried) == len(password_reset.RETRY_SECONDS) + 1 and mail.outbox == []
    assert "gave up" in caplog.text


def test_a_retry_mails_only_the_accounts_whose_mail_failed(task_queue, django_capture_on_commit_callbacks, monkeypatch):
    """Two accounts share an address; only carol's first mail is refused. The retry mails carol
    alone: bob gets one mail, not two."""
    register("bob", "shared@example.com")
    register("carol", "shared@example.com")
    tried = _mailing_fails(monkeypatch, lambda body: "carol" in body and sum("carol" in t for t in tried) == 1)
    with django_capture_on_commit_callbacks(execute=True):
        APIClient().post("/api/v1/auth/password-reset/", {"email": "shared@example.com"}, format="json")
    assert len(_retries(task_queue, django_capture_on_commit_callbacks)) == 1
    sent = sorted("carol" if "carol" in m.body else "bob" for m in mail.outbox)
    assert sent == ["bob", "carol"] and len(tried) == 3


def test_reset_mails_are_limited_per_address_whatever_the_client_address(ask):
    """Three asks an hour for one mail address (``THROTTLE_RESET_ADDRESS``), from as many client
    addresses as there are asks: the fourth is refused and mails nothing. An address without an
    account is counted alike, so the refusal tells nobody which addresses have accounts."""
    register("alice", "alice@example.com")
    for email in ("Alice@Example.com", "nobody@example.com"):
        answers = [ask(email.lower() if n % 2 else email, REMOTE_ADDR=f"10.0.{n}.1") for n in range(4)]
        assert [answer.status_code for answer in answers] == [202, 202, 202, 429]
        assert answers[3].json()["code"] == "throttled"
        assert 60 < answers[3].json()["retry_after"] <= 3600
    assert [sent.to for sent in mail.outbox] == [["alice@example.com"]] * 3
    # Another address is not held up, and neither is the account's owner logging in.
    assert ask("carol@example.com", REMOTE_ADDR="10.1.0.1").status_code == 202
    assert login("alice", "first password 1").status_code == 200
