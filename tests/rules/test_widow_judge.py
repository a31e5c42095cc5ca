"""One judge per widow game: ``refusal(state, seat, command)`` says what ``decide`` refuses, with
the same words and code, and ``legal_actions`` is what it lets through (WX-2..WX-7, LV-8, WP-6,
CM-20). Checked on the reachable states of seeded random playouts, for every candidate command and
many illegal ones, and on a few hands dealt on purpose."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import presence
from games.engine.errors import IllegalAction
from games.rules.la_viuda import legal as lv_legal
from games.rules.la_viuda.game import DECIDER as LV
from games.rules.whiskey_poker import legal as wp_legal
from games.rules.whiskey_poker.game import DECIDER as WP
from tests.rules.playout_widow import context, play
from tests.rules.test_la_viuda import broke_table, showdown
from tests.rules.test_whiskey_poker import pot_table
from tests.rules.test_whiskey_poker import table as wp_table
from tests.rules.widow_helpers import act, seeded_tables

# Every type a seat might send, the system's too (``timeout``, ``offer_expired``, ``start``).
TYPES = (
    "pass",
    "knock",
    "exchange_all",
    "timeout",
    "sit_out",
    "sit_in",
    "leave",
    "buy_widow",
    "decline_widow",
    "offer_expired",
    "end_match",
    "start",
    "move_the_pot",
)
# Three hands around the test tables' widow (2c 2d 2h 3c 3d), dealer seat 2.
HANDS = {0: "4c 5c 6c 7c 9d", 1: "4d 5d 6d 7d 9h", 2: "4h 5h 6h 7h 9s"}
SYSTEM = frozenset({"timeout", "offer_expired", "start"})
WP_SETUPS = (
    (4, {"chips_per_player": 2}),
    (3, {"scoring": "loser_pays", "lives": 2}),
    (5, {"reduced_pack": True, "target_points": 2}),
    (9, {"chips_per_player": 1, "max_orbits": 1}),
)


def probes(state: Any) -> list[dict[str, Any]]:
    """Every command shape worth judging in ``state``, without a seat: each type, and exchanging
    one card for every pair of a card held and a card of the widow, plus cards nobody has."""
    ex = state.exchange
    held = [card for hand in ex.hands for card in hand] if ex is not None else []
    widow = list(ex.widow) if ex is not None else []
    shapes: list[dict[str, Any]] = [{"type": kind} for kind in TYPES]
    for give in [*held, "zz"]:
        for take in [*widow, held[0] if held else "2c", "zz"]:
            shapes.append({"type": "exchange_one", "give": give, "take": take})
    return shapes


def judged_as_decided(game: Any, state: Any, seat: Any, command: dict[str, Any], ctx: Any) -> IllegalAction | None:
    """The judge's answer, asserted to be ``decide``'s: refused exactly when ``decide`` raises,
    with the same words (message id and values), code and legal actions."""
    refused = game.refusal(state, seat, command)
    try:
        game.decide(state, command, ctx)
    except IllegalAction as raised:
        assert refused is not None, (command, raised.message)
        assert (raised.message, raised.message.msgid, raised.message.values) == (
            refused.message,
            refused.message.msgid,
            refused.message.values,
        )
        assert (raised.code, raised.legal) == (refused.code, refused.legal)
        return refused
    assert refused is None, (command, refused.message)
    return None


def check_state(game: Any, state: Any, ctx: Any) -> int:
    """For every seat (and a few that are none) and every probe: the judge agrees with ``decide``,
    and ``legal_actions`` is exactly the seat's non-system probes it lets through. The number of
    refusals seen."""
    seats = state.seats
    shapes = probes(state)
    refusals = 0
    for seat in [None, -1, seats, *range(seats)]:
        let_through = []
        for shape in shapes:
            command = {**shape, "seat": seat}
            if judged_as_decided(game, state, seat, command, ctx) is None:
                if shape["type"] not in SYSTEM and shape["type"] != "end_match":
                    let_through.append(shape)
            else:
                refusals += 1
        legal = game.legal_actions(state, seat) if seat is not None else []
        assert len(legal) == len({repr(action) for action in legal}), "an action listed twice"
        assert sorted(map(repr, legal)) == sorted(map(repr, let_through)), (seat, legal, let_through)
    owner = {"type": "end_match"}
    owner_ok = judged_as_decided(game, state, None, owner, ctx) is None
    assert game.owner_actions(state) == ([owner] if owner_ok and owner["type"] in game.owner_commands else [])
    return refusals


def judged_playout(game: Any, config: dict[str, Any], table: str, extra: dict[str, Any]) -> tuple[int, int, int]:
    """A seeded random playout (a seat sometimes sits out and sits in again, CM-20), every state
    before a move checked by ``check_state``. The states and refusals checked, and the states
    waiting for an answer to the offer of La Viuda."""
    rng = random.Random(table)
    counted = [0, 0, 0]

    def choose(state: Any, seat: int) -> dict[str, Any]:
        ctx = context(table, state.hand_no + 1, config["seats"], extra)
        counted[0] += 1
        counted[1] += check_state(game, state, ctx)
        counted[2] += getattr(state, "offer", -1) != -1
        legal = game.legal_actions(state, seat)
        moves = [action for action in legal if not presence.is_presence_action(action)]
        if rng.random() < 0.03 and [action for action in legal if action["type"] == "sit_out"]:
            return {"type": "sit_out"}
        return rng.choice(moves)

    state, _ = play(game, config, choose, table, extra=lambda _: extra)
    counted[1] += check_state(game, state, context(table, state.hand_no + 1, config["seats"], extra))
    return counted[0], counted[1], counted[2]


@pytest.mark.parametrize("index", range(6))
def test_wx_2_to_wx_7_lv_8_cm_20_la_viudas_judge_agrees_with_decide_in_random_games(index):
    """WX-2..WX-7, LV-8, LV-10, CM-20: in every reachable state of seeded La Viuda games (some
    waiting for the answer to an offer of La Viuda) ``refusal`` is ``None`` exactly when
    ``decide`` accepts, with its words and code otherwise; ``legal_actions`` is what it lets
    through."""
    table = seeded_tables(6, "la-viuda-judge")[index]
    config = LV.configure(4 + index % 4, {"chips_per_player": 1 + index % 2, "max_orbits": 1 + index % 2})
    extra = {"can_afford_widow": {0: False}} if index % 3 == 0 else {}
    states, refusals, offers = judged_playout(LV, config, table, extra)
    assert states > 10 and refusals > states and offers > 0


@pytest.mark.parametrize("index", range(8))
def test_wx_2_to_wx_7_wp_6_cm_20_whiskey_pokers_judge_agrees_with_decide_in_random_games(index):
    """WX-2..WX-7, WP-6, CM-20: the same of Whiskey Poker in every scoring, the owner's
    ``end_match`` (sent from no seat) included, and ``owner_actions`` is what the judge lets through."""
    table = seeded_tables(8, "whiskey-poker-judge")[index]
    seats, options = WP_SETUPS[index % len(WP_SETUPS)]
    states, refusals, _ = judged_playout(WP, WP.configure(seats, options), table, {})
    assert states > 10 and refusals > states


def test_both_games_name_their_judge():
    """The service asks ``Game.refusal`` rather than running ``decide`` (games.play.gate)."""
    assert LV.refusal is lv_legal.refusal and LV.legal_actions is lv_legal.legal_actions
    assert WP.refusal is wp_legal.refusal and WP.owner_actions is wp_legal.owner_actions


def test_wx_2_the_judge_refuses_another_seats_turn_without_a_list():
    """WX-2: only the seat to act moves; the refusal names whose turn it is and lists nothing."""
    _config, state = wp_table(HANDS)
    refused = WP.refusal(state, 1, {"type": "knock", "seat": 1})
    assert refused is not None and refused.message == "It is seat 0's turn, not yours."
    assert refused.legal == [] and refused.code == "illegal_action"
    assert WP.refusal(state, 0, {"type": "knock", "seat": 0}) is None


def test_wx_5_phase_one_allows_no_single_card_and_lists_the_phase_one_moves():
    """WX-2, WX-5: while the widow is face down one card cannot be exchanged; the refusal lists
    pass, exchange_all and knock, as ``legal_actions`` does."""
    _config, state = wp_table(HANDS)
    refused = WP.refusal(state, 0, {"type": "exchange_one", "give": "4c", "take": "2c", "seat": 0})
    assert refused is not None and refused.message.msgid.startswith("The widow is face down")
    assert refused.legal == [{"type": "pass"}, {"type": "exchange_all"}, {"type": "knock"}]


def test_lv_8_only_the_offered_seat_answers_and_nobody_moves_meanwhile():
    """LV-8: while seat 1 is offered La Viuda, another seat's answer and everybody's exchange move
    are refused by the judge with decide's words; the offered seat's answers are let through."""
    _config, state = broke_table()
    _events, state = showdown(state)
    assert lv_legal.refusal(state, 1, {"type": "buy_widow", "seat": 1}) is None
    other = lv_legal.refusal(state, 2, {"type": "decline_widow", "seat": 2})
    assert other is not None and other.message == "The offer of La Viuda is for seat 1, not you."
    waiting = lv_legal.refusal(state, 2, {"type": "knock", "seat": 2})
    assert waiting is not None and waiting.message == "Seat 1 must first answer the offer of La Viuda."
    assert waiting.legal == LV.legal_actions(state, 2)
    with pytest.raises(IllegalAction) as raised:
        act(LV, state, 2, "knock")
    assert raised.value.message == waiting.message and raised.value.legal == waiting.legal


def test_wp_6_the_owners_end_match_is_judged_from_no_seat():
    """WP-6: the owner's ``end_match`` has no seat; the judge lets it through once in a running
    pot-scoring match, and refuses it in other scoring, as ``decide`` does."""
    _config, state = pot_table(HANDS)
    end = {"type": "end_match"}
    assert WP.refusal(state, None, end) is None and WP.owner_actions(state) == [end]
    ended = WP.evolve(state, WP.decide(state, end, context("t", 2, 3))[0])
    again = WP.refusal(ended, None, end)
    assert again is not None and again.message == "The match already ends after this hand."
    assert WP.owner_actions(ended) == []
    _config, points = wp_table(HANDS)
    refused = WP.refusal(points, None, end)
    assert refused is not None and refused.message == "Only a pot-scoring match can be ended by the table's owner."


def test_cm_20_presence_refusals_keep_their_codes():
    """CM-20: sitting in while present, sitting out twice, and anything after leaving are refused
    by the judge with the codes ``decide`` raises (``not_sitting_out``, ``already_sitting_out``,
    ``seat_left``); no seat is ``illegal_action``."""
    _config, state = wp_table(HANDS)
    assert WP.refusal(state, 1, {"type": "sit_in", "seat": 1}).code == "not_sitting_out"
    _events, away = act(WP, state, 1, "sit_out")
    assert WP.refusal(away, 1, {"type": "sit_out", "seat": 1}).code == "already_sitting_out"
    _events, gone = act(WP, away, 1, "leave")
    assert WP.refusal(gone, 1, {"type": "leave", "seat": 1}).code == "seat_left"
    assert WP.refusal(gone, 1, {"type": "sit_in", "seat": 1}).code == "seat_left"
    nobody = WP.refusal(state, 7, {"type": "sit_out", "seat": 7})
    assert nobody is not None and nobody.message == "There is no seat 7 at this table."
