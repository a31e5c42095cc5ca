from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def alice(db):
    """A player with a wallet."""
    return get_user_model().objects.create_user("alice")


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob")


@pytest.fixture
def carol(db):
    """Staff: records deposits."""
    return get_user_model().objects.create_user("carol", is_staff=True)
