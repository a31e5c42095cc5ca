"""Five-Card Draw's one judge of a command (``legal.refusal``): over seeded random playouts, for
every seat and every candidate command plus illegal ones (wrong amounts, cards not held, out of
turn, a draw with a bad ``show``, top-ups beyond the stack's room or the wallet, presence after
leaving), the judge refuses exactly what ``decide`` refuses, with the same words, code and legal
list; and ``legal_actions`` is the candidates it lets through, their ranges' bounds accepted by
``decide`` and one chip or card beyond refused. Pure: no database."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from games.engine.errors import IllegalAction
from games.rules.betting.actions import KINDS
from games.rules.five_card_draw import DECIDER, legal
from games.rules.five_card_draw.state import State
from tests.rules.playout_draw import context, new_table, random_action

SEAT_COMMANDS = (*KINDS, "draw", "top_up", "sit_out", "sit_in", "leave")
TABLES: list[tuple[int, dict[str, Any]]] = [
    (3, {}),
    (2, {"ace_rule": "four_with_ace", "betting": "pot_limit"}),
    (4, {"ace_rule": "five_with_ace", "betting": "fixed_limit", "wild": "jokers"}),
    (3, {"variant": "triple_draw_27"}),
    (3, {"format": "tournament", "starting_stack": 30}),
    (2, {"forced_bets": "blinds", "min_buy_in": 5, "max_buy_in": 40}),
]


def _verdict(state: State, command: Mapping[str, Any], extra: Mapping[str, Any]) -> IllegalAction | None:
    """What ``decide`` says of ``command``: its refusal, or ``None`` when it accepts it."""
    try:
        DECIDER.decide(state, dict(command), context(state, "judge", wallet_chips=extra.get("wallet_chips")))
    except IllegalAction as exc:
        return exc
    return None


def _same(judged: IllegalAction | None, decided: IllegalAction | None, command: Mapping[str, Any]) -> None:
    if decided is None:
        assert judged is None, (command, judged and judged.message)
        return
    assert judged is not None, (command, decided.message)
    assert (judged.message, judged.code, judged.legal) == (decided.message, decided.code, decided.legal), command
    assert getattr(judged.message, "msgid", None) == getattr(decided.message, "msgid", None), command


def _probes(state: State, seat: Any, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Every kind of command a seat may send, with legal and illegal amounts and cards."""
    held = (
        list(state.hand.cards[seat])
        if state.hand and isinstance(seat, int) and 0 <= seat < len(state.hand.cards)
        else []
    )
    for kind in KINDS:
        yield {"type": kind}
    for kind in ("bet", "raise"):
        for amount in (0, 1, 2, 4, 7, 10, 25, 60, 200, 10_000, -3, True, "5", None):
            yield {"type": kind, "amount": amount}
    yield {"type": "draw"}
    yield {"type": "draw", "discard": "7c"}
    yield {"type": "draw", "discard": ["Zz"]}
    if held:
        yield {"type": "draw", "discard": held[:1] * 2}
        for count in range(len(held) + 1):
            discard = rng.sample(held, count)
            yield {"type": "draw", "discard": discard}
            for show in [*{card for card in held if card[0] == "A"}, held[0], "As", 3]:
                yield {"type": "draw", "discard": discard, "show": show}
    for chips in (1, 2, 3, 40, 150, 199, 200, 1000, 0, -1, True, "3", None):
        yield {"type": "top_up", "chips": chips}
    for kind in ("sit_out", "sit_in", "leave", "timeout", "start", "dance"):
        yield {"type": kind}


def _judge_everything(state: State, rng: random.Random) -> set[str]:
    """FD-4, FD-6, FD-7, FD-13, FD-21, CM-20: the judge and ``decide`` agree on every probe of
    every seat (and of no seat, the owner's ``end_table``), with and without a wallet limit; the
    codes of the refusals seen."""
    seats = state.settings.seats
    codes: set[str] = set()
    for extra in ({}, {"wallet_chips": {seat: rng.choice((0, 2, 3, 50)) for seat in range(seats)}}):
        owner = {"type": "end_table"}
        ended = legal.refusal(state, None, owner, extra)
        _same(ended, _verdict(state, owner, extra), owner)
        codes |= {ended.code} if ended else set()
        for seat in [*range(seats), seats, -1, True, "1", None]:
            for probe in _probes(state, seat, rng):
                command = {**probe, "seat": seat}
                judged = legal.refusal(state, seat, command, extra)
                _same(judged, _verdict(state, command, extra), command)
                codes |= {judged.code} if judged else set()
    return codes


def _bounds(option: Mapping[str, Any], held: list[str]) -> Iterator[tuple[dict[str, Any], bool]]:
    """A listed option's commands at its bounds (accepted) and one beyond (refused)."""
    kind = option["type"]
    field = {"bet": "amount", "raise": "amount", "top_up": "chips"}.get(kind)
    if field is not None:
        yield {"type": kind, field: option["min"]}, True
        yield {"type": kind, field: option["max"]}, True
        yield {"type": kind, field: option["min"] - 1}, False
        yield {"type": kind, field: option["max"] + 1}, False
    elif kind == "draw":
        yield {"type": "draw", "discard": []}, True
        yield {"type": "draw", "discard": held[: min(option["max"], 3)]}, True
    else:
        yield {"type": kind}, True


def _legal_is_what_the_judge_lets_through(state: State) -> None:
    """CM-20, FD-4, FD-7, FD-13: ``legal_actions`` is the candidates the judge lets through, in
    their order; a listed range's bounds are accepted and one beyond refused; a seat command of a
    type not listed is refused whatever it carries."""
    rng = random.Random(state.hand_no)
    for seat in range(state.settings.seats):
        listed = DECIDER.legal_actions(state, seat)
        through = [c for c in legal.candidates(state, seat) if legal.refusal(state, seat, legal.command_of(c)) is None]
        assert listed == through
        held = list(state.hand.cards[seat]) if state.hand else []
        for option in listed:
            for command, accepted in _bounds(option, held):
                verdict = _verdict(state, {**command, "seat": seat}, {})
                assert (verdict is None) == accepted, (command, verdict and verdict.message)
        kinds = {option["type"] for option in listed}
        for probe in _probes(state, seat, rng):
            if probe["type"] in SEAT_COMMANDS and probe["type"] not in kinds:
                assert _verdict(state, {**probe, "seat": seat}, {}) is not None, probe


def _playout(seats: int, options: dict[str, Any], seed: int, steps: int) -> Iterator[State]:
    """The states of a seeded random playout, before the start, during play (with a seat leaving,
    one sitting out, the owner ending a cash table) and once it is over."""
    rng = random.Random(seed)
    config, state = new_table(seats, options)
    yield state
    chips = {seat: config["max_buy_in"] if seat else config["min_buy_in"] for seat in range(seats)}
    command: dict[str, Any] = {"type": "start"}
    for step in range(steps):
        for event in DECIDER.decide(state, command, context(state, f"judge-{seed}", chips)):
            state = DECIDER.evolve(state, event)
        yield state
        if state.finished:
            return
        if step == steps // 3 and seats > 2:
            command = {"type": "leave", "seat": seats - 1}
        elif step == steps // 2:
            command = {"type": "sit_out", "seat": 0}
        elif step == 2 * steps // 3 and state.settings.format == "cash":
            command = {"type": "end_table"}
        else:
            command = random_action(state, DECIDER.to_act(state)[0], rng)


@pytest.mark.parametrize(("seats", "options"), TABLES, ids=[str(o) or "standard" for _, o in TABLES])
@pytest.mark.parametrize("seed", [1, 2])
def test_fd_4_fd_7_cm_20_the_judge_refuses_exactly_what_decide_refuses(
    seats: int, options: dict[str, Any], seed: int
) -> None:
    """FD-4, FD-6, FD-7, FD-13, FD-14, FD-21, CM-20: one judge; see the module docstring."""
    rng = random.Random(seed)
    codes: set[str] = set()
    for state in _playout(seats, options, seed, steps=90):
        codes |= _judge_everything(state, rng)
        _legal_is_what_the_judge_lets_through(state)
    assert {"not_started", "not_your_turn", "illegal_action", "game_over"} <= codes


def test_fd_6_fd_13_cm_20_a_playout_meets_every_refusal_code() -> None:
    """The probes reach every code the game refuses with: the openers (FD-6), the top-up's (FD-13),
    presence (CM-20) and the owner's end of a tournament."""
    codes: set[str] = set()
    for seats, options in (TABLES[2], TABLES[4]):
        rng = random.Random(1)
        for state in _playout(seats, options, 1, steps=90):
            codes |= _judge_everything(state, rng)
    expected = {"no_openers", "no_top_up", "above_max_buy_in", "insufficient_funds", "seat_left", "cannot_end"}
    assert expected | {"already_sitting_out", "not_sitting_out", "not_your_turn", "not_started"} <= codes, codes


def test_fd_13_the_judge_without_a_wallet_lets_any_top_up_within_the_room_through() -> None:
    """FD-13: the service's own ask (no ``extra``) knows no wallet; with the wallet the same top-up
    is refused with ``insufficient_funds`` and the legal list narrowed to it."""
    for state in _playout(3, {}, 3, steps=200):
        for seat in range(3):
            offered = {o["type"]: o for o in DECIDER.legal_actions(state, seat)}
            if "top_up" not in offered or offered["top_up"]["max"] < 2:
                continue
            command = {"type": "top_up", "chips": 2, "seat": seat}
            assert legal.refusal(state, seat, command) is None
            short = legal.refusal(state, seat, command, {"wallet_chips": {seat: 1}})
            assert short is not None and short.code == "insufficient_funds"
            assert {"type": "top_up", "min": 1, "max": 1} in short.legal
            return
    pytest.fail("no playout state offered a top-up of two chips")


def test_cm_20_the_game_names_its_judge() -> None:
    """CM-20: the service asks ``Game.refusal``, the judge itself."""
    assert DECIDER.refusal is legal.refusal
