"""Where reads go (ledger/replica.py). Without ``DATABASE_REPLICA_URL`` (the suite's own settings)
nothing changes; the router's choices are checked on their own here, and with a real streaming
standby in tests/production/test_replica.py."""

from __future__ import annotations

import pytest
from django.db import OperationalError, transaction

from games.models import Event
from ledger import replica


@pytest.mark.django_db
def test_without_a_replica_every_read_is_the_primarys():
    assert not replica.configured()
    with replica.reads() as alias:
        assert alias == "default"
    with replica.checking() as alias:
        assert alias == "default"


def test_the_router_reads_where_reads_chose_and_writes_the_primary(monkeypatch):
    router = replica.Router()
    assert router.db_for_read(Event) == "default"
    monkeypatch.setattr(replica, "configured", lambda: True)
    monkeypatch.setattr(replica, "_alias_for", lambda user_id: replica.ALIAS)
    with replica.reads() as alias:
        assert alias == replica.ALIAS
        assert router.db_for_read(Event) == replica.ALIAS
        assert router.db_for_write(Event) == "default"
    assert router.db_for_read(Event) == "default"
    with replica.reads(primary=True) as alias:
        assert alias == "default"
        assert router.db_for_read(Event) == "default"


@pytest.mark.django_db
def test_inside_a_write_transaction_reads_go_to_the_primary(monkeypatch):
    monkeypatch.setattr(replica, "configured", lambda: True)
    monkeypatch.setattr(replica, "_alias_for", lambda user_id: replica.ALIAS)
    router = replica.Router()
    with replica.reads(), transaction.atomic():
        assert router.db_for_read(Event) == "default"


def test_a_standby_is_never_migrated():
    router = replica.Router()
    assert router.allow_migrate(replica.ALIAS, "games") is False
    assert router.allow_migrate("default", "games") is True


class _Refusing:
    """A replica connection that cannot be reached."""

    def __init__(self) -> None:
        self.asked = 0

    def cursor(self):
        self.asked += 1
        raise OperationalError("connection refused")


def test_a_replica_that_does_not_answer_is_left_alone_for_a_while(monkeypatch, settings):
    settings.REPLICA_RETRY_SECONDS = 60
    refusing = _Refusing()
    monkeypatch.setattr(replica, "connections", {replica.ALIAS: refusing})
    monkeypatch.setattr(replica, "_down_until", 0.0)
    assert replica._alias_for(None) == "default"
    assert replica._alias_for(None) == "default"
    assert refusing.asked == 1
    monkeypatch.setattr(replica, "_down_until", 0.0)
    assert replica._alias_for(None) == "default"
    assert refusing.asked == 2
