"""Seeded random playouts of both widow games, 200 each, every invariant checked at every event:
hidden information (WP-9, CM-10), chips by the ledger, cards conserved, replay, JSON round-trip,
and that every game ends."""

from __future__ import annotations

import pytest

from games.engine.cards import deck, reduced_pack
from games.rules.la_viuda import game as la_viuda
from games.rules.whiskey_poker import game as whiskey_poker
from tests.rules.widow_helpers import assert_replay_and_round_trip, random_playout, seeded_tables

GAMES = 200
# The games are dealt out to this many tests each, a few seconds apiece, so that the suite's
# workers share them (a La Viuda game of seven seats plays many hands).
LV_CHUNKS = 40
WP_CHUNKS = 10
# The first quarter of each game's playouts is in the fast suite; the rest are long (CI, make test-all).
LV_FAST = 10
WP_FAST = 3


def shares(count: int, fast: int) -> list:
    """The chunk numbers to parametrize with, those from ``fast`` on marked long."""
    return [chunk if chunk < fast else pytest.param(chunk, marks=pytest.mark.long) for chunk in range(count)]


LV_TABLES = seeded_tables(GAMES, "la-viuda")
WP_TABLES = seeded_tables(GAMES, "whiskey-poker")

WP_SETUPS = (
    (4, {"chips_per_player": 2}),
    (3, {"scoring": "loser_pays", "lives": 2}),
    (5, {"reduced_pack": True, "target_points": 2}),
    (2, {"scoring": "points", "target_points": 2, "flush_by_suit": True}),
    (9, {"chips_per_player": 1, "max_orbits": 1}),
)


@pytest.mark.parametrize("chunk", shares(LV_CHUNKS, LV_FAST))
def test_wp_9_lv_hidden_information_chips_and_replay_in_200_random_la_viuda_games(chunk):
    """WP-9 (LV-4 plays the exchange the same way): across 200 seeded random games no view or event
    served to a seat holds a card it may not see then, nor the seed before the hand ends (CM-10);
    the ledger's chips equal the state's; replay and JSON round-trip are exact; every game ends
    with one player holding chips (LV-11)."""
    game = la_viuda.DECIDER
    for index in range(chunk, GAMES, LV_CHUNKS):
        table = LV_TABLES[index]
        seats = 4 + (index % 4)
        config = game.configure(seats, {"chips_per_player": 1 + index % 3, "flush_by_suit": index % 2 == 0})
        state, events, watcher = random_playout(
            game, config, table, deck(jokers=True), extra=lambda s: {"can_afford_widow": {0: False}}
        )
        assert state.finished and sum(1 for seat in range(seats) if not state.out[seat]) == 1
        assert state.chips[state.winner] > 0 and watcher.checked > 0
        assert_replay_and_round_trip(game, config, state, events)


@pytest.mark.parametrize("chunk", shares(WP_CHUNKS, WP_FAST))
def test_wp_9_hidden_information_chips_and_replay_in_200_random_whiskey_poker_games(chunk):
    """WP-9: across 200 seeded random Whiskey Poker games (every scoring, the reduced pack) nothing
    served leaks a card; chips by the ledger equal the state's; replay and round-trip are exact."""
    game = whiskey_poker.DECIDER
    for index in range(chunk, GAMES, WP_CHUNKS):
        table = WP_TABLES[index]
        seats, options = WP_SETUPS[index % len(WP_SETUPS)]
        config = game.configure(seats, options)
        pack = reduced_pack(seats) if options.get("reduced_pack") else deck()
        state, events, _ = random_playout(game, config, table, pack)
        assert state.finished and state.winners
        assert_replay_and_round_trip(game, config, state, events)
