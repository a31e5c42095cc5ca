"""One slug style: every game's public slug is kebab-case; Five-Card Draw's former
``five_card_draw`` still finds the game, and stored tables are renamed by a migration that can be
reversed."""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from django.apps import apps

from games.engine import registry
from games.models import Table
from tests.games.play import make_table

pytestmark = pytest.mark.django_db

MIGRATION = "games.migrations.0009_kebab_case_slugs"


def test_every_game_s_slug_is_kebab_case():
    slugs = [decider.slug for decider in registry.all_games()]
    assert "five-card-draw" in slugs
    assert [slug for slug in slugs if not re.fullmatch(r"[a-z]+(-[a-z]+)*", slug)] == []


def test_the_former_slug_finds_the_game_and_says_its_slug():
    draw = registry.get("five-card-draw")
    assert registry.get("five_card_draw") is draw
    assert registry.slug_of("five_card_draw") == "five-card-draw"
    assert registry.slug_of("euchre") == "euchre" and registry.slug_of("no-such-game") == "no-such-game"
    with pytest.raises(KeyError):
        registry.get("no-such-game")


def test_the_migration_renames_stored_tables_and_back():
    old = make_table("five_card_draw", 2, owner_name="dealer")
    other = make_table("euchre", 4, owner_name="euchre-owner")
    migration = import_module(MIGRATION)
    migration.kebab_case(apps, None)
    assert Table.objects.get(pk=old.pk).game == "five-card-draw"
    assert Table.objects.get(pk=other.pk).game == "euchre"
    migration.back(apps, None)
    assert Table.objects.get(pk=old.pk).game == "five_card_draw"
    assert Table.objects.get(pk=other.pk).game == "euchre"
