"""Whiskey Poker's commands turned into events, with every automatic consequence (showdown,
scoring, eliminations, the next deal, the end), once its judge (``legal``) let them through; and
who may act.

CM-20: in ``pot`` scoring each hand stands alone, so a player who leaves has their turns passed
at once for the rest of the hand (a pass while the widow is face down, a knock once it is up, as
the turn timer would; a later knock is a pass, WX-6), is cashed out when the hand ends and is
dealt no later hand; when every person has left, the match ends after the hand, as if the owner
had ended it (WP-6). In ``loser_pays`` and ``points`` scoring the match plays on with the table's
bot in the leaver's seat and the result stays theirs. A player already out may still leave.

CM-21: in ``pot`` scoring a hand is dealt only while a person is dealt in (a person's seat still in
the match, neither sitting out nor gone); otherwise the match waits (``DealPostponed``) until a
command leaves one dealt in (a person sitting in), the owner ends it (at once: no hand is in
play), or ``idle_minutes`` pass and the system's ``idle_end`` ends it as the owner would."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import between_hands, presence
from games.engine.decider import Context
from games.rules.whiskey_poker.cards import NO_WILD, lowest_rank, pack_for
from games.rules.whiskey_poker.events import (
    AntesPaid,
    GameEnded,
    GameStarted,
    LosersPaid,
    MatchEndRequested,
    PlayerCashedOut,
    PointsScored,
    PotAwarded,
    ShowdownHeld,
)
from games.rules.whiskey_poker.legal import refusal
from games.rules.whiskey_poker.state import LOSER_PAYS, POINTS, POT, State, fold
from games.rules.widow import exchange
from games.rules.widow import presence as seating
from games.rules.widow.events import HandEnded, PlayerEliminated
from games.rules.widow.hand import deal_hand, draw_first_dealer, show_hands
from games.rules.widow.state import exchange_turn, showdown_due

STEP = 1  # clockwise (WP-3, WP-4)


def decide(state: State, command: Mapping[str, Any], ctx: Context) -> list[Any]:
    """The events of one command: the start, the owner ending the match, an exchange move or a
    change of presence; ``IllegalAction`` with the judge's (``legal.refusal``) words if refused."""
    seat: Any = command.get("seat")  # as sent: the service adds it, the owner's command has none
    refused = refusal(state, seat, command)
    if refused is not None:
        raise refused
    kind = command.get("type")
    if kind == "start":
        return _start(state, ctx)
    if kind == "end_match":
        # WP-6: the table's owner ends a pot-scoring match after the hand in play; while the match
        # waits (CM-21) no hand is in play, so it ends now.
        return _end_while_waiting(state, [MatchEndRequested()], ctx)
    if kind == between_hands.IDLE_END:
        # CM-21: nobody sat in for ``idle_minutes``; as if the owner had ended the match.
        return _end_while_waiting(state, [between_hands.IdleEnded()], ctx)
    if kind in presence.COMMANDS:
        return _play_on(state, seating.events(state, seat, kind), ctx)
    return _turn(state, command, ctx)


def _end_while_waiting(state: State, events: list[Any], ctx: Context) -> list[Any]:
    """``events`` (an end asked for), and the end itself at once if the match waits (CM-21)."""
    if not state.waiting:
        return events
    return events + _next_pot_hand_or_end(fold(state, events), ctx)


def to_act(state: State) -> tuple[int, ...]:
    """The seat whose move the game waits for."""
    return () if state.finished else exchange_turn(state)


def deadline(state: State, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
    """The turn timer (WX-7); while the match waits for a person, the end of the wait (CM-21)."""
    if state.waiting and not state.finished:
        return between_hands.idle_deadline(config)
    seats = to_act(state)
    if not seats:
        return None
    return float(config["turn_seconds"]), {"type": "timeout", "seat": seats[0]}


def split_pot(pot: int, best: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """WP-5: tied best hands split the pot equally; odd chips go one at a time to the tied players
    in order from the dealer's left (``best`` is already in that order)."""
    share, odd = divmod(pot, len(best))
    return tuple((seat, share + (1 if index < odd else 0)) for index, seat in enumerate(best))


def _start(state: State, ctx: Context) -> list[Any]:
    chips = {POT: state.chips_per_player, LOSER_PAYS: state.lives, POINTS: 0}[state.scoring]
    events: list[Any] = [
        GameStarted(tuple(range(state.seats)), state.scoring, chips, state.chip_value, state.currency),
        draw_first_dealer(pack_for(state.seats, state.reduced_pack), ctx, state.seats),
    ]
    after = fold(state, events)
    return events + _deal(after, ctx, after.dealer)


def _deal(state: State, ctx: Context, dealer: int) -> list[Any]:
    events: list[Any] = []
    order = exchange.turn_order(dealer, state.seats, state.out, STEP)
    if state.scoring == POT:
        events.append(AntesPaid(order, state.pot + len(order)))
    pot = state.pot + len(order) if state.scoring == POT else state.pot
    events.append(deal_hand(pack_for(state.seats, state.reduced_pack), ctx, dealer, order, state.seats, pot, ""))
    return events


def _turn(state: State, command: Mapping[str, Any], ctx: Context) -> list[Any]:
    """An exchange move (WX-2..WX-7) and, once the exchange is over, the showdown."""
    return _play_on(state, exchange.turn_events(state.exchange, command, state.max_orbits), ctx)


def _play_on(state: State, events: list[Any], ctx: Context) -> list[Any]:
    """After ``events``: in ``pot`` scoring the turns of players who left passed at once (CM-20),
    then the showdown once the exchange is over."""
    after = fold(state, events)
    while state.scoring == POT and (turn := exchange_turn(after)) and turn[0] in after.presence.gone:
        assert after.exchange is not None
        move = {"type": "knock" if after.exchange.face_up else "pass", "seat": turn[0]}
        passed = exchange.turn_events(after.exchange, move, after.max_orbits)
        events = events + passed
        after = fold(after, passed)
    if showdown_due(after):
        events = events + _showdown(after, ctx)
    elif after.waiting:
        # CM-21: a command at a waiting match (a person sitting in) may let the next hand be dealt;
        # one who leaves meanwhile is cashed out at once, no hand being in play (CM-20).
        cashed = _cash_out_leavers(after)
        events = events + cashed + _next_pot_hand_or_end(fold(after, cashed), ctx)
    return events


def _showdown(state: State, ctx: Context) -> list[Any]:
    """The hands shown and scored as the table's scoring says (WP-5, WP-7, WP-8)."""
    ex = state.exchange
    assert ex is not None
    lowest = lowest_rank(state.seats, state.reduced_pack)
    shown = show_hands(ex, NO_WILD, flush_by_suit=state.flush_by_suit, lowest_rank=lowest)
    top = max(hand.value for hand in shown)
    bottom = min(hand.value for hand in shown)
    best = tuple(hand.seat for hand in shown if hand.value == top)
    worst = tuple(hand.seat for hand in shown if hand.value == bottom)
    events: list[Any] = [ShowdownHeld(shown, best, worst)]
    if state.scoring == POT:
        events.append(PotAwarded(split_pot(state.pot, best)))
    elif state.scoring == LOSER_PAYS:
        events.append(LosersPaid(worst, state.pot + len(worst)))
    else:
        points = tuple(state.points[seat] + (1 if seat in best else 0) for seat in range(state.seats))
        events.append(PointsScored(best, points))
    events.append(HandEnded(state.hand_no, state.server_seed))
    after = fold(state, events)
    if after.scoring == POT:
        cashed = _cash_out_leavers(after)
        return events + cashed + _next_pot_hand_or_end(fold(after, cashed), ctx)
    return events + _next_hand_or_end(after, ctx)


def _cash_out_leavers(state: State) -> list[Any]:
    """CM-20: each player who left during the hand has their chips cashed out now it is over (one
    left with none is out as any player who cannot ante)."""
    gone = sorted(seat for seat in state.presence.gone if not state.out[seat] and state.chips[seat])
    return [PlayerCashedOut(seat, state.chips[seat], state.chip_value) for seat in gone]


def _people_gone(state: State, ctx: Context) -> bool:
    """True when every person at the table has left (``ctx.extra["people"]``: the seats people
    hold), so the match ends rather than bots playing on for nobody (CM-20); or is out of the
    match, which none of them can then be dealt into again: waiting for one to sit in (CM-21)
    would wait for nobody, so it ends at once, as a Five-Card Draw cash table does."""
    people = ctx.extra.get("people") or ()
    return bool(people) and all(int(seat) in state.presence.gone or state.out[int(seat)] for seat in people)


def _people_dealt_in(state: State, ctx: Context) -> list[int]:
    """The seats of people still in the match who neither sit out nor left (CM-21)."""
    people = between_hands.people_of(ctx.extra)
    return [seat for seat in people if not state.out[seat] and seat not in state.presence.away]


def _next_pot_hand_or_end(state: State, ctx: Context) -> list[Any]:
    """WP-6: a player who cannot ante is out; the match ends with one player left or when the
    owner asked, the most chips winning; and when every person has left or is out (CM-20,
    CM-21). Otherwise the
    next hand is dealt, or, with no person dealt in, the match waits (CM-21)."""
    players = [seat for seat in range(state.seats) if not state.out[seat]]
    broke = [seat for seat in players if state.chips[seat] == 0]
    events: list[Any] = [PlayerEliminated(seat, "cannot_ante") for seat in broke]
    left = [seat for seat in players if seat not in broke]
    after = fold(state, events)
    if len(left) <= 1 or state.end_requested or _people_gone(after, ctx):
        most = max((state.chips[seat] for seat in left), default=0)
        winners = tuple(seat for seat in left if state.chips[seat] == most)
        losers = tuple(seat for seat in range(state.seats) if seat not in winners)
        return [*events, GameEnded(winners, losers, state.chips, state.chip_value)]
    if between_hands.waits(between_hands.people_of(ctx.extra), _people_dealt_in(after, ctx)):
        return events if after.waiting else [*events, between_hands.DealPostponed()]
    return events + _deal(after, ctx, exchange.next_dealer(state.dealer, state.seats, after.out, STEP))


def _next_hand_or_end(state: State, ctx: Context) -> list[Any]:
    """WP-7: the match ends when a player has lost every life; WP-8: when a player reaches the
    target points."""
    players = [seat for seat in range(state.seats) if not state.out[seat]]
    if state.scoring == LOSER_PAYS:
        losers = tuple(seat for seat in players if state.chips[seat] == 0)
        if losers:
            winners = tuple(seat for seat in players if seat not in losers)
            return [GameEnded(winners, losers, (0,) * state.seats, 0)]
    else:
        winners = tuple(seat for seat in players if state.points[seat] >= state.target_points)
        if winners:
            return [GameEnded(winners, tuple(s for s in players if s not in winners), (0,) * state.seats, 0)]
    return _deal(state, ctx, exchange.next_dealer(state.dealer, state.seats, state.out, STEP))
