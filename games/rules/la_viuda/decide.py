"""La Viuda's commands turned into events, with every automatic consequence (showdown, payment,
the offer of La Viuda or elimination, the next deal, the end), once its judge (``legal``) let them
through; and who may act.

CM-20: La Viuda is a match, so a player who leaves hands the seat to the table's bot for the rest
of the game (it plays the seat's turns and answers its offer of La Viuda), and the result and its
money stay the player's. A player already out may still leave (``games.rules.widow.presence``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import fairness, presence
from games.engine.decider import Context
from games.rules.la_viuda import tiebreak
from games.rules.la_viuda.cards import DRAW_PACK, PACK, wild_cards, wild_rank
from games.rules.la_viuda.events import (
    GameEnded,
    GameStarted,
    ShowdownHeld,
    WidowBought,
    WidowDeclined,
    WidowOffered,
    WorstHandPaid,
)
from games.rules.la_viuda.legal import OFFER_COMMANDS, refusal
from games.rules.la_viuda.state import State, fold
from games.rules.widow import exchange
from games.rules.widow import presence as seating
from games.rules.widow.events import HandEnded, HandStarted, PlayerEliminated
from games.rules.widow.hand import deal_hand, draw_first_dealer, show_hands
from games.rules.widow.state import NOBODY, exchange_turn, showdown_due

STEP = -1  # counterclockwise (LV-3, CM-4)


def decide(state: State, command: Mapping[str, Any], ctx: Context) -> list[Any]:
    """The events of one command: the start, an answer to the offer of La Viuda, an exchange move
    or a change of presence; ``IllegalAction`` with the judge's (``legal.refusal``) words if refused."""
    seat: Any = command.get("seat")  # as sent: the service adds it, a system command has none
    refused = refusal(state, seat, command)
    if refused is not None:
        raise refused
    kind = command.get("type")
    if kind == "start":
        return _start(state, ctx)
    if kind in presence.COMMANDS:
        return seating.events(state, seat, kind)
    if kind in OFFER_COMMANDS:
        return _answer_offer(state, seat, kind, ctx)
    return _turn(state, command, ctx)


def to_act(state: State) -> tuple[int, ...]:
    """The seat whose answer or move the game waits for."""
    if state.finished:
        return ()
    if state.offer != NOBODY:
        return (state.offer,)
    return exchange_turn(state)


def deadline(state: State, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
    """The offer deadline (LV-10) or the turn timer (WX-7)."""
    if state.finished:
        return None
    if state.offer != NOBODY:
        return float(config["widow_offer_seconds"]), {"type": "offer_expired", "seat": state.offer}
    turn = exchange_turn(state)
    if turn:
        return float(config["turn_seconds"]), {"type": "timeout", "seat": turn[0]}
    return None


def seat_bool(extra: Mapping[str, Any], key: str, seat: int, default: bool = True) -> bool:
    """``extra[key][seat]`` from the service, whose keys may be ints or strings (JSON)."""
    table = extra.get(key) or {}
    if seat in table:
        return bool(table[seat])
    if str(seat) in table:
        return bool(table[str(seat)])
    return default


def _start(state: State, ctx: Context) -> list[Any]:
    players = tuple(range(state.seats))
    events: list[Any] = [GameStarted(players, state.chips_per_player, state.chip_value, state.currency)]
    events.append(draw_first_dealer(DRAW_PACK, ctx, state.seats))
    after = fold(state, events)
    events.append(_deal(after, ctx, after.dealer))
    return events


def _deal(state: State, ctx: Context, dealer: int) -> HandStarted:
    order = exchange.turn_order(dealer, state.seats, state.out, STEP)
    return deal_hand(PACK, ctx, dealer, order, state.seats, state.pot, wild_rank(state.pot))


def _turn(state: State, command: Mapping[str, Any], ctx: Context) -> list[Any]:
    """An exchange move (WX-2..WX-7) and, once the exchange is over, the showdown."""
    events = exchange.turn_events(state.exchange, command, state.max_orbits)
    after = fold(state, events)
    if showdown_due(after):
        events += _showdown(after, ctx)
    return events


def _showdown(state: State, ctx: Context) -> list[Any]:
    """LV-6: the worst hand, found by LV-7's tie-break among tied hands, pays a chip; with its last
    chip it is offered La Viuda (LV-8) or is out."""
    ex = state.exchange
    assert ex is not None
    wild = wild_cards(state.wild_rank)
    shown = show_hands(ex, wild, flush_by_suit=state.flush_by_suit)
    lowest = min(hand.value for hand in shown)
    tied = tuple(hand.seat for hand in shown if hand.value == lowest)
    steps: tuple[tiebreak.TieBreakStep, ...] = ()
    loser = tied[0]
    if len(tied) > 1:
        outcome = tiebreak.la_viuda_tie_break(
            [(seat, ex.hands[seat]) for seat in tied],
            wild,
            ex.order,
            stock=state.stock,
            streams=fairness.streams(bytes.fromhex(state.server_seed), ctx.table_id, state.hand_no, state.client_seed),
        )
        steps = outcome.steps
        loser = outcome.losers[0]
    events: list[Any] = [ShowdownHeld(state.wild_rank, shown, tied, steps, loser)]
    events.append(WorstHandPaid(loser, state.chips[loser] - 1, state.pot + 1))
    events.append(HandEnded(state.hand_no, state.server_seed))
    after = fold(state, events)
    if after.chips[loser] == 0:
        if after.widow_bought_by == NOBODY and seat_bool(ctx.extra, "can_afford_widow", loser):
            if loser not in state.presence.away:
                return [*events, WidowOffered(loser, 2 * state.chip_value)]
            # CM-20: La Viuda is bought with the player's own money, a choice the table's bot never
            # makes for a player who sat out or left.
            events += [WidowDeclined(loser, "away"), PlayerEliminated(loser, "broke")]
            return events + _next_hand_or_end(fold(state, events), ctx)
        broke = _out_of_chips(after, loser)
        events += broke
        after = fold(after, broke)
    return events + _next_hand_or_end(after, ctx)


def _out_of_chips(state: State, loser: int) -> list[Any]:
    """The loser paid its last chip and is not offered La Viuda: bought already, or it cannot
    afford it (LV-8), so it is out (LV-9)."""
    if state.widow_bought_by == NOBODY:
        return [WidowDeclined(loser, "cannot_afford"), PlayerEliminated(loser, "broke")]
    return [PlayerEliminated(loser, "broke")]


def _next_hand_or_end(state: State, ctx: Context) -> list[Any]:
    left = [seat for seat in range(state.seats) if not state.out[seat]]
    if len(left) == 1:
        prize = state.seats * state.chips_per_player * state.chip_value
        if state.widow_bought_by != NOBODY:
            prize += 2 * state.chip_value
        return [GameEnded(left[0], prize)]
    return [_deal(state, ctx, exchange.next_dealer(state.dealer, state.seats, state.out, STEP))]


def _answer_offer(state: State, seat: int, kind: Any, ctx: Context) -> list[Any]:
    """The offered seat bought La Viuda or declined it, or its time ran out (LV-8, LV-10)."""
    events: list[Any]
    if kind == "buy_widow":
        events = [WidowBought(seat, 2 * state.chip_value)]
    else:
        reason = "expired" if kind == "offer_expired" else "declined"
        events = [WidowDeclined(seat, reason), PlayerEliminated(seat, "broke")]
    return events + _next_hand_or_end(fold(state, events), ctx)
