"""Adding a game is one folder plus one line: the counter test game is built like every registered
game (the same modules, wired into one ``Game`` value the same way) and one ``registry.register``
call makes it playable through HTTP, hand audit included (CM-5..CM-10)."""

from __future__ import annotations

import random
import typing
from importlib import import_module
from pathlib import Path
from types import ModuleType

import pytest

import games.rules
from games import store
from games.engine import decider as engine
from games.engine import registry
from tests.api.play import Game, check_finished_table, person, play_to_the_end, set_up
from tests.games import counter

# The issue "One shape for every game": game-specific modules (``cards.py``) may sit beside these.
SHAPE = ("__init__", "events", "state", "decide", "view", "settlements", "audit", "bot", "game")
PACKAGES = [*(f"games.rules.{game}" for game in games.rules.GAMES), counter.__name__]


def _modules(package: ModuleType) -> set[str]:
    return {path.stem for path in Path(package.__file__ or "").parent.glob("*.py")}


@pytest.mark.parametrize("name", PACKAGES)
def test_every_game_package_has_the_same_modules(name):
    """Every registered game (``games.rules.GAMES``) and the counter example hold the nine modules."""
    missing = set(SHAPE) - _modules(import_module(name))
    assert not missing, f"{name} lacks {sorted(missing)}"


@pytest.mark.parametrize("name", PACKAGES)
def test_every_game_package_is_wired_the_same_way(name):
    """``DECIDER`` in ``__init__`` is the one ``Game`` value that ``game.py`` builds, no class of
    its own: its ``fold`` the one singledispatch ``evolve`` over ``EVENT_TYPES``, its audit the
    class in ``audit.py``, its bot ``bot.choose`` and its view, events' views and settlements the
    functions of ``view.py`` and ``settlements.py``."""
    package = import_module(name)
    decider = package.DECIDER
    assert type(decider) is engine.Game
    assert import_module(f"{name}.game").DECIDER is decider
    events = import_module(f"{name}.events")
    assert tuple(decider.event_types) == tuple(events.EVENT_TYPES)
    evolve = import_module(f"{name}.state").evolve
    assert decider.fold is evolve
    assert set(events.EVENT_TYPES) <= set(evolve.registry), "evolve is one singledispatch over the events"
    assert type(decider.audit).__module__ == f"{name}.audit"
    assert decider.bot is import_module(f"{name}.bot").choose
    assert decider.settlements is import_module(f"{name}.settlements").settlements
    view = import_module(f"{name}.view")
    assert (decider.view, decider.view_event) == (view.view, view.view_event)


@pytest.mark.parametrize("name", PACKAGES)
def test_every_game_spells_its_slug_one_way(name):
    """The slug ``game.py`` gives the registry is the one its views name and its wire contract types
    (the view's ``game`` key), so a game's name in the house cannot drift."""
    decider = import_module(name).DECIDER
    hints = typing.get_type_hints(decider.view_type) if decider.view_type else {}
    if "game" in hints:
        assert typing.get_args(hints["game"]) == (decider.slug,)
    config = decider.configure(decider.max_players, {})
    assert decider.view(decider.initial_state(config), None).get("game", decider.slug) == decider.slug


@pytest.fixture
def counter_registered():
    """The counter game, registered the way a new game is: one call."""
    assert counter.DECIDER.slug not in {game.slug for game in registry.all_games()}
    registry.register(counter.DECIDER)
    yield counter.DECIDER
    registry.unregister(counter.DECIDER.slug)
    store.forget()


@pytest.mark.django_db(transaction=True)
def test_one_registration_line_makes_the_game_playable_and_auditable(counter_registered, task_queue):
    """Create a table over HTTP, join, add a bot, start, play to the end; every hand audit verifies."""
    owner, staff = person("alice"), person("sam", staff=True)
    assert "counter" in {game["slug"] for game in owner.get("/api/v1/games/").json()}
    table_id, clients = set_up(Game("counter", 2, people=(0,), options={"hands": 2, "target": 9}), owner, staff)
    final = play_to_the_end(table_id, clients, task_queue, random.Random(7))
    assert final["status"] == "finished"
    check_finished_table(table_id)
    hands = owner.get(f"/api/v1/tables/{table_id}/hands/").json()["results"]
    assert [hand["hand_no"] for hand in hands] == [2, 1]
    for summary in hands:
        verified = owner.get(summary["verify"]).json()
        assert verified["ok"] is True, verified
