"""The owner's commands as the engine offers them (``owner_actions``) and what the caller of a seat
is offered (``offered_actions``), pure engine: the owner is offered ``end_match`` (WP-6) and
``end_table`` (FD-13) exactly while ``decide`` accepts them, and a seat the table's bot plays
(CM-20) is offered only sitting in and leaving, never the game's moves the bot plays for it."""

from __future__ import annotations

import pytest

from games.engine.decider import offered_actions
from games.engine.errors import IllegalAction
from games.rules.five_card_draw import DECIDER as FCD
from games.rules.whiskey_poker.game import DECIDER as WP
from tests.rules.draw_decks import table as draw_table
from tests.rules.playout_draw import new_table
from tests.rules.test_whiskey_poker import pot_table, table
from tests.rules.widow_helpers import ctx, fold

HANDS = {0: "4c 5d 7h 9s Jc", 1: "Ah Kh Qh Jh 9h", 2: "8s 8h 8d Ks Kd"}
NOTHING = {0: "2c 5d 8h Ts Qc", 1: "3c 6d 9h Js Kd", 2: "4c 7d 9c Th Kh"}
OPEN = {"opening": "anything_opens"}


def _accepted(decider, state, command, context) -> bool:
    try:
        decider.decide(state, command, context)
    except IllegalAction:
        return False
    return True


def test_wp_6_end_match_is_offered_exactly_while_the_owner_may_send_it():
    """WP-6: a running pot match offers its owner ``end_match`` until the end is asked for; a
    points match, and a match not started, never do; ``decide`` agrees each time."""
    _, state = pot_table(HANDS)
    assert WP.owner_actions(state) == [{"type": "end_match"}]
    assert _accepted(WP, state, {"type": "end_match"}, ctx(2, 3))
    state = fold(WP, state, WP.decide(state, {"type": "end_match"}, ctx(2, 3)))
    assert WP.owner_actions(state) == []
    assert not _accepted(WP, state, {"type": "end_match"}, ctx(2, 3))

    _, points = table(HANDS, scoring="points")
    assert WP.owner_actions(points) == [] and not _accepted(WP, points, {"type": "end_match"}, ctx(2, 3))
    fresh = WP.initial_state(WP.configure(3, {"scoring": "pot"}))
    assert WP.owner_actions(fresh) == [] and not _accepted(WP, fresh, {"type": "end_match"}, ctx(2, 3))


def test_fd_13_end_table_is_offered_exactly_while_the_owner_may_send_it():
    """FD-13: a running cash table offers its owner ``end_table`` until the end is asked for; a
    tournament never does, nor a table not started."""
    cash = draw_table(3, OPEN, button=2, hands=NOTHING)
    assert FCD.owner_actions(cash.state) == [{"type": "end_table"}]
    cash.command({"type": "end_table"})
    assert FCD.owner_actions(cash.state) == []
    with pytest.raises(IllegalAction):
        cash.command({"type": "end_table"})

    tournament = draw_table(3, {**OPEN, "format": "tournament", "starting_stack": 20}, button=2, hands=NOTHING)
    assert FCD.owner_actions(tournament.state) == []
    with pytest.raises(IllegalAction):
        tournament.command({"type": "end_table"})
    _, fresh = new_table(3)
    assert FCD.owner_actions(fresh) == []


def test_cm_20_a_seat_the_bot_plays_is_offered_only_sitting_in_and_leaving():
    """CM-20: on its turn, a seat that sat out is offered ``sit_in`` and ``leave``, not the bets
    the bot makes for it; once its player left, nothing; the owner's command comes on top for
    the owner, seated or not."""
    cash = draw_table(3, OPEN, button=2, hands=NOTHING)
    seat = cash.to_act()
    assert any(option["type"] == "bet" for option in offered_actions(FCD, cash.state, seat))
    cash.act(seat, "sit_out")
    assert FCD.to_act(cash.state) == (seat,)
    assert offered_actions(FCD, cash.state, seat) == [{"type": "sit_in"}, {"type": "leave"}]
    assert offered_actions(FCD, cash.state, seat, owner=True) == [
        {"type": "sit_in"},
        {"type": "leave"},
        {"type": "end_table"},
    ]
    assert offered_actions(FCD, cash.state, None, owner=True) == [{"type": "end_table"}]
    assert offered_actions(FCD, cash.state, None) == []

    tournament = draw_table(3, {**OPEN, "format": "tournament", "starting_stack": 20}, button=2, hands=NOTHING)
    seat = tournament.to_act()
    tournament.act(seat, "leave")
    assert seat in FCD.played_by_bot(tournament.state) and FCD.to_act(tournament.state) == (seat,)
    assert FCD.legal_actions(tournament.state, seat)  # the bot's moves for the seat
    assert offered_actions(FCD, tournament.state, seat) == []
