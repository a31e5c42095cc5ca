"""An insider with write access to the database redirects a prize or skips the two-person rule by
raw SQL on ``ledger_payout`` (a mutable row); ``reconcile`` names the payout it changed."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from ledger import payouts
from ledger import services as ledger
from ledger.models import Payout
from tests.api.play import person
from tests.api.test_payouts import finished_table

pytestmark = pytest.mark.django_db(transaction=True)


def insider(sql: str, params: list) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.fixture
def pending(counter_game, task_queue, settings):
    """A finished counter table of alice and bob whose payouts (5,000 minor units each) are above a
    two-person limit of 1,000, so each needs two approvers."""
    settings.PAYOUT_TWO_PERSON_LIMIT = 1000
    table_id = finished_table(task_queue, person("alice"), person("sam", staff=True))
    found = {p.seat: p for p in Payout.objects.filter(table_id=table_id)}
    assert {p.approvals_needed for p in found.values()} == {2}
    assert ledger.reconcile().ok
    return found


def codes() -> set[tuple[str, str]]:
    return {(p.code, p.subject) for p in ledger.reconcile().problems}


def test_a_payout_redirected_to_another_user_is_named(pending):
    """Fails on the code before: reconcile proved the money but not whose it is, so the UPDATE
    passed unseen."""
    mallory = get_user_model().objects.create_user(username="mallory")
    payout = pending[0]
    insider("UPDATE ledger_payout SET user_id = %s WHERE id = %s", [mallory.pk, payout.pk])
    assert ("payout_user_mismatch", f"payout:{payout.pk}") in codes()


def test_a_payout_approved_by_one_person_after_its_approvals_were_lowered_is_named(pending):
    """Fails on the code before: with ``approvals_needed`` set to 1, one approval paid it and the
    under-approval check compared with the lowered number."""
    payout = pending[1]
    insider("UPDATE ledger_payout SET approvals_needed = 1 WHERE id = %s", [payout.pk])
    assert ("payout_approvals_mismatch", f"payout:{payout.pk}") in codes()
    payouts.approve(payout_id=payout.pk, by=person("tina", staff=True).user)
    assert Payout.objects.get(pk=payout.pk).status == Payout.Status.APPROVED
    assert ("payout_approvals_mismatch", f"payout:{payout.pk}") in codes()


def test_a_redirected_payout_once_paid_is_named_with_the_wallet_it_paid(pending):
    """Fails on the code before: the two approvals paid mallory's wallet and the books balanced."""
    mallory = get_user_model().objects.create_user(username="mallory")
    payout = pending[0]
    insider("UPDATE ledger_payout SET user_id = %s WHERE id = %s", [mallory.pk, payout.pk])
    payouts.approve(payout_id=payout.pk, by=person("tina", staff=True).user)
    payouts.approve(payout_id=payout.pk, by=person("uma", staff=True).user)
    found = codes()
    assert ("payout_user_mismatch", f"payout:{payout.pk}") in found
    assert ("payout_paid_elsewhere", f"payout:{payout.pk}") in found
