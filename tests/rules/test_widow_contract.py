"""Both widow games honour the shared Decider contract and list their options (WX-7, LV-10, WP-5)."""

from __future__ import annotations

import pytest

from games.engine.decider import Decider, event_types_by_name
from games.engine.errors import IllegalAction
from games.rules.la_viuda import game as la_viuda
from games.rules.whiskey_poker import game as whiskey_poker
from tests.rules.widow_helpers import ctx

GAMES = (la_viuda.DECIDER, whiskey_poker.DECIDER)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
def test_wx_7_every_widow_game_is_a_decider_with_a_turn_timer_option(game):
    """WX-7: ``turn_seconds`` (default 60, 5-3600) and ``max_orbits`` (default 6, 1-50) are options."""
    assert isinstance(game, Decider)
    options = {option.name: option for option in game.options}
    assert (options["turn_seconds"].default, options["turn_seconds"].minimum, options["turn_seconds"].maximum) == (
        60,
        5,
        3600,
    )
    assert (options["max_orbits"].default, options["max_orbits"].minimum, options["max_orbits"].maximum) == (6, 1, 50)
    assert "HandStarted" in event_types_by_name(game) and "HandEnded" in event_types_by_name(game)
    assert game.refused_combinations


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
def test_wx_2_commands_before_the_start_or_unknown_are_refused_with_a_sentence(game):
    """WX-2: nothing is played before the start command; unknown commands are refused."""
    config = game.configure(4, {})
    state = game.initial_state(config)
    with pytest.raises(IllegalAction, match="not started"):
        game.decide(state, {"type": "knock", "seat": 0}, ctx(1, 4))
    assert game.legal_actions(state, 0) == [] and game.to_act(state) == () and game.deadline(state, config) is None
    started = game.decide(state, {"type": "start"}, ctx(1, 4))
    for event in started:
        state = game.evolve(state, event)
    with pytest.raises(IllegalAction, match="already started"):
        game.decide(state, {"type": "start"}, ctx(1, 4))
    with pytest.raises(IllegalAction, match="Unknown action"):
        game.decide(state, {"type": "fold", "seat": game.to_act(state)[0]}, ctx(2, 4))


def test_lv_10_widow_offer_seconds_is_an_option():
    """LV-10: the offer deadline is the option ``widow_offer_seconds``, default 60."""
    options = {option.name: option for option in la_viuda.DECIDER.options}
    assert options["widow_offer_seconds"].default == 60


def test_wp_5_scoring_choices_and_defaults():
    """WP-5: scoring is pot (default), loser_pays or points; chips_per_player defaults to 10."""
    config = whiskey_poker.DECIDER.configure(4, {})
    assert config["scoring"] == "pot" and config["chips_per_player"] == 10 and config["chip_value"] == 0
    options = {option.name: option for option in whiskey_poker.DECIDER.options}
    assert options["scoring"].choices == ("pot", "loser_pays", "points")
