"""Five-Card Draw's state and ``evolve``, which folds one recorded event into it without
re-checking the rules. The betting machinery (``games.rules.betting``) keeps each betting round;
this module moves a hand from one phase to the next (betting, the draw, the showdown) as the
events say, so that ``decide`` and replay always agree."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from games.engine import presence
from games.engine.between_hands import DealPostponed, IdleEnded
from games.engine.presence import EVERYONE_HERE, LeftTable, Presence, SatIn, SatOut
from games.engine.replace import replace
from games.engine.seats import left_of, turn_order
from games.rules.betting.actions import apply_recorded
from games.rules.betting.state import Round, start_round
from games.rules.five_card_draw.events import (
    CardsDealt,
    CardsDrawn,
    ChipsToppedUp,
    FirstDealerDrawn,
    ForcedBetsPosted,
    HandEnded,
    HandPassed,
    HandStarted,
    LeaveRequested,
    PlayerActed,
    PlayerEliminated,
    PlayerLeft,
    PotsAwarded,
    PotShare,
    ShowdownHeld,
    ShownHand,
    StockReshuffled,
    TableEnded,
    TableEndRequested,
    TableStarted,
)

CASH, TOURNAMENT = "cash", "tournament"
STANDARD, TRIPLE_DRAW = "standard", "triple_draw_27"
# A hand's phases: betting, drawing, then "passed" (nobody opened, FD-6) or "showdown" (FD-9),
# which ``decide`` settles at once.
BETTING, DRAWING, PASSED, SHOWDOWN = "betting", "drawing", "passed", "showdown"


@dataclasses.dataclass(frozen=True, slots=True)
class Settings:
    """What the table's options fix for its whole life (FD-2, FD-4, FD-6, FD-7, FD-13..FD-17)."""

    seats: int
    variant: str = STANDARD
    betting: str = "no_limit"
    forced_bets: str = "ante"
    ante: int = 1
    small_blind: int = 1
    big_blind: int = 2
    min_bet: int = 1
    small_bet: int = 1
    big_bet: int = 2
    opening: str = "jacks_or_better"
    ace_rule: str = "none"
    wild: str = "none"
    shotgun: bool = False
    high_low: bool = False
    format: str = CASH
    chip_value: int = 0
    stake: int = 0
    currency: str | None = None
    starting_stack: int = 0
    # FD-13: the most chips a cash player may hold after a top-up (0: no top-up, as in a tournament).
    max_buy_in: int = 0

    @property
    def draws(self) -> int:
        """How many draws a hand has: one, or three in triple draw (FD-7, FD-14)."""
        return 3 if self.variant == TRIPLE_DRAW else 1

    @property
    def forced_bet(self) -> int:
        """The chips a cash player needs to be dealt in: the ante or the big blind (FD-2)."""
        return self.ante if self.forced_bets == "ante" else self.big_blind

    def bet_size(self, street: int) -> int:
        """The smallest opening bet (no-limit, pot-limit) or the fixed bet of betting round
        ``street`` (fixed limit: the small bet before the draw, or in triple draw's first two
        rounds, the big bet after, FD-4)."""
        if self.betting != "fixed_limit":
            return self.min_bet
        return self.small_bet if street < (2 if self.variant == TRIPLE_DRAW else 1) else self.big_bet


@dataclasses.dataclass(frozen=True, slots=True)
class Hand:
    """One hand. Per-seat tuples are indexed by seat. ``players`` are the seats dealt in, from the
    button's left; ``contributed`` each seat's chips in the pot for the betting rounds closed so
    far (the open round keeps its own); ``discards`` the discards and folded cards not yet
    reshuffled (FD-8); ``drawing`` the seats still to draw in the draw under way."""

    hand_no: int
    button: int
    players: tuple[int, ...]
    server_seed: str
    client_seed: str
    cards: tuple[tuple[str, ...], ...] = ()
    face_up: tuple[tuple[str, ...], ...] = ()
    stock: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()
    folded: tuple[bool, ...] = ()
    contributed: tuple[int, ...] = ()
    blinds: tuple[tuple[int, int], ...] = ()
    carried: int = 0
    phase: str = BETTING
    street: int = 0
    round: Round | None = None
    draw: int = 0
    drawing: tuple[int, ...] = ()
    drew: tuple[tuple[int, ...], ...] = ()
    reshuffles: int = 0
    opener: int | None = None
    showdown: tuple[ShownHand, ...] = ()
    pots: tuple[tuple[int, tuple[int, ...]], ...] = ()
    shares: tuple[PotShare, ...] = ()

    def in_hand(self) -> tuple[int, ...]:
        """The seats dealt in that have not folded, from the button's left."""
        return tuple(seat for seat in self.players if not self.folded[seat])


@dataclasses.dataclass(frozen=True, slots=True)
class State:
    """A table. ``stacks`` are each seat's chips behind (not in the pot); ``present`` the seats
    still at the table (not left, not eliminated); ``pot`` every chip in the pot, a passed hand's
    included; ``carried`` by seat the chips each put into the pot of deals nobody opened (FD-6),
    empty when there is none; ``in_play`` every chip bought and not cashed out (FD-12);
    ``presence`` who sat out or left (CM-20)."""

    settings: Settings
    hand_no: int = 0
    started: bool = False
    finished: bool = False
    stacks: tuple[int, ...] = ()
    present: tuple[bool, ...] = ()
    leaving: tuple[bool, ...] = ()
    in_play: int = 0
    pot: int = 0
    button: int = -1
    hand: Hand | None = None
    last_hand: Hand | None = None
    end_requested: bool = False
    eliminated: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    end_reason: str = ""
    presence: Presence = EVERYONE_HERE
    carried: tuple[int, ...] = ()
    # A cash table waits, dealing no hand, while no person is dealt in (CM-21).
    waiting: bool = False

    def stake_in_pot(self, seat: int) -> int:
        """The chips ``seat`` put into the pot of deals nobody opened (FD-6), still in it."""
        return self.carried[seat] if seat < len(self.carried) else 0


def initial_state(settings: Settings) -> State:
    """A table waiting for its start."""
    seats = settings.seats
    return State(settings, stacks=(0,) * seats, present=(False,) * seats, leaving=(False,) * seats)


def played_by_bot(state: State) -> frozenset[int]:
    """The seats the table's bot plays (CM-20): those whose player sat out, or left a tournament,
    while still at the table. A cash leaver's seat is the engine's to fold, then gone."""
    gone = state.presence.gone if state.settings.format == CASH else frozenset()
    return frozenset(seat for seat in state.presence.away - gone if state.present[seat])


def chip_counts(state: State) -> dict[tuple[Any, ...], int]:
    """The chips each seat and the pot hold: what the table's chip accounts must hold (FD-12)."""
    counts: dict[tuple[Any, ...], int] = {("seat", seat): chips for seat, chips in enumerate(state.stacks)}
    counts[("pot",)] = state.pot
    return counts


def first_to_act_after_draw(hand: Hand, seats: int) -> tuple[int, ...]:
    """The seats still in, from the first to the dealer's left (FD-5, FD-7)."""
    return turn_order(left_of(hand.button, seats), seats, hand.in_hand())


def round_contributions(hand: Hand) -> dict[int, int]:
    """Every seat's chips in the pot this hand, the open betting round included (FD-11)."""
    total = dict(enumerate(hand.contributed))
    if hand.round is not None:
        for i, seat in enumerate(hand.round.seats):
            total[seat] = hand.round.contributed[i]
    return total


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


# --- evolve ------------------------------------------------------------------------------------


@functools.singledispatch
def evolve(event: Any, state: State) -> State:
    """The state after one recorded event (never re-checks the rules)."""
    raise TypeError(f"Five-Card Draw has no event {type(event).__name__}")


@evolve.register
def _table_started(event: TableStarted, state: State) -> State:
    return replace(
        state,
        {
            "started": True,
            "stacks": event.stacks,
            "present": tuple(seat in event.players for seat in range(state.settings.seats)),
            "in_play": sum(event.stacks),
        },
    )


@evolve.register
def _first_dealer(event: FirstDealerDrawn, state: State) -> State:
    return replace(state, {"button": event.dealer})


@evolve.register
def _hand_started(event: HandStarted, state: State) -> State:
    seats = state.settings.seats
    hand = Hand(
        hand_no=event.hand_no,
        button=event.button,
        players=event.players,
        server_seed=event.server_seed,
        client_seed=event.client_seed,
        folded=(False,) * seats,
        contributed=(0,) * seats,
        drew=((),) * seats,
        carried=state.pot,
    )
    return replace(state, {"hand_no": event.hand_no, "button": event.button, "hand": hand, "waiting": False})


@evolve.register
def _forced_bets(event: ForcedBetsPosted, state: State) -> State:
    hand = _hand(state)
    stacks, contributed = list(state.stacks), list(hand.contributed)
    for seat, chips in event.posts:
        stacks[seat] -= chips
        contributed[seat] += chips
    hand = replace(hand, {"contributed": tuple(contributed), "blinds": event.posts if event.kind == "blinds" else ()})
    return replace(
        state, {"stacks": tuple(stacks), "pot": state.pot + sum(chips for _, chips in event.posts), "hand": hand}
    )


@evolve.register
def _cards_dealt(event: CardsDealt, state: State) -> State:
    hand = replace(_hand(state), {"cards": event.hands, "face_up": event.face_up, "stock": event.stock})
    return _open_street(state, hand)


@evolve.register
def _player_acted(event: PlayerActed, state: State) -> State:
    hand = _hand(state)
    assert hand.round is not None
    was_bet = hand.round.current_bet
    round_ = apply_recorded(hand.round, event.action, event.to)
    changes: dict[str, Any] = {"round": round_}
    if event.action == "fold":
        changes["folded"] = _set(hand.folded, event.seat, True)
        changes["discards"] = hand.discards + hand.cards[event.seat]
    if hand.street == 0 and hand.opener is None and was_bet == 0 and round_.current_bet > 0 and not hand.blinds:
        changes["opener"] = event.seat
    hand = replace(hand, changes)
    moved = {
        "stacks": _set(state.stacks, event.seat, state.stacks[event.seat] - event.chips),
        "pot": state.pot + event.chips,
    }
    if round_.over:
        return _close_street(replace(state, moved), hand)
    return replace(state, {**moved, "hand": hand})


@evolve.register
def _stock_reshuffled(event: StockReshuffled, state: State) -> State:
    hand = _hand(state)
    used = set(event.cards)
    hand = replace(
        hand,
        {
            "stock": hand.stock + event.stock,
            "discards": tuple(card for card in hand.discards if card not in used),
            "reshuffles": event.number,
        },
    )
    return replace(state, {"hand": hand})


@evolve.register
def _cards_drawn(event: CardsDrawn, state: State) -> State:
    hand = _hand(state)
    seat = event.seat
    gone = set(event.discarded)
    kept = tuple(card for card in hand.cards[seat] if card not in gone)
    face_up = tuple(card for card in hand.face_up[seat] if card not in gone)
    if event.shown_ace and event.shown_ace not in gone and event.shown_ace not in face_up:
        face_up += (event.shown_ace,)
    hand = replace(
        hand,
        {
            "cards": _set(hand.cards, seat, kept + event.received),
            "face_up": _set(hand.face_up, seat, face_up),
            "stock": hand.stock[len(event.received) :],
            "discards": hand.discards + event.discarded,
            "drew": _set(hand.drew, seat, hand.drew[seat] + (event.count,)),
            "drawing": hand.drawing[1:],
        },
    )
    if hand.drawing:
        return replace(state, {"hand": hand})
    return _open_street(state, replace(hand, {"street": hand.street + 1}))


@evolve.register
def _hand_passed(event: HandPassed, state: State) -> State:
    hand = _hand(state)
    carried = tuple(state.stake_in_pot(seat) + chips for seat, chips in enumerate(hand.contributed))
    return replace(state, {"carried": carried})


@evolve.register
def _showdown_held(event: ShowdownHeld, state: State) -> State:
    return replace(state, {"hand": replace(_hand(state), {"showdown": event.hands})})


@evolve.register
def _pots_awarded(event: PotsAwarded, state: State) -> State:
    stacks = list(state.stacks)
    for share in event.shares:
        stacks[share.seat] += share.chips
    won = sum(share.chips for share in event.shares)
    hand = state.hand and replace(state.hand, {"pots": event.pots, "shares": event.shares})
    pot = state.pot - won
    # Once the pot is paid, nobody has a stake in a passed deal's chips any more (FD-6).
    carried = state.carried if pot else ()
    return replace(state, {"stacks": tuple(stacks), "pot": pot, "hand": hand, "carried": carried})


@evolve.register
def _hand_ended(event: HandEnded, state: State) -> State:
    return replace(state, {"hand": None, "last_hand": state.hand})


@evolve.register
def _leave_requested(event: LeaveRequested, state: State) -> State:
    return replace(state, {"leaving": _set(state.leaving, event.seat, True)})


@evolve.register
def _player_left(event: PlayerLeft, state: State) -> State:
    return replace(
        state,
        {
            "stacks": _set(state.stacks, event.seat, state.stacks[event.seat] - event.chips),
            "present": _set(state.present, event.seat, False),
            "leaving": _set(state.leaving, event.seat, False),
            "in_play": state.in_play - event.chips,
        },
    )


@evolve.register
def _chips_topped_up(event: ChipsToppedUp, state: State) -> State:
    return replace(
        state,
        {
            "stacks": _set(state.stacks, event.seat, state.stacks[event.seat] + event.chips),
            "in_play": state.in_play + event.chips,
        },
    )


@evolve.register
def _player_eliminated(event: PlayerEliminated, state: State) -> State:
    return replace(
        state, {"present": _set(state.present, event.seat, False), "eliminated": (*state.eliminated, event.seat)}
    )


@evolve.register
def _presence(event: SatOut | SatIn | LeftTable, state: State) -> State:
    return replace(state, {"presence": presence.evolve(state.presence, event)})


@evolve.register
def _end_requested(event: TableEndRequested, state: State) -> State:
    return replace(state, {"end_requested": True})


@evolve.register
def _deal_postponed(event: DealPostponed, state: State) -> State:
    return replace(state, {"waiting": True})


@evolve.register
def _idle_ended(event: IdleEnded, state: State) -> State:
    # As if the owner had ended the table (FD-13), which ends at once: no hand is in play.
    return replace(state, {"end_requested": True})


@evolve.register
def _table_ended(event: TableEnded, state: State) -> State:
    cashed = sum(event.cash_out)
    stacks = tuple(chips - out for chips, out in zip(state.stacks, event.cash_out, strict=True))
    return replace(
        state,
        {
            "finished": True,
            "waiting": False,
            "winners": event.winners,
            "end_reason": event.reason,
            "stacks": stacks,
            "in_play": state.in_play - cashed,
        },
    )


# --- phases ------------------------------------------------------------------------------------


def _hand(state: State) -> Hand:
    if state.hand is None:
        raise ValueError("no hand is being played")
    return state.hand


def _open_street(state: State, hand: Hand) -> State:
    """Start betting round ``hand.street`` (FD-4, FD-5); a round nobody can bet in is skipped
    (FD-20) and the hand moves on at once."""
    seats = state.settings.seats
    in_hand = hand.in_hand()
    if hand.street == 0 and hand.blinds:
        big_blind = hand.blinds[-1][0]
        order = turn_order(left_of(big_blind, seats), seats, in_hand)
        posted = dict(hand.blinds)
    else:
        order = first_to_act_after_draw(hand, seats)
        posted = {}
    contributed = {seat: hand.contributed[seat] for seat in order}
    round_ = start_round(
        state.settings.betting,  # type: ignore[arg-type]
        order,
        {seat: state.stacks[seat] for seat in order},
        bet_size=state.settings.bet_size(hand.street),
        posted=posted,
        contributed=contributed,
        dead=state.pot - sum(contributed.values()),
    )
    hand = replace(hand, {"phase": BETTING, "round": round_})
    if round_.over:
        return _close_street(state, hand, skipped=True)
    return replace(state, {"hand": hand})


def _close_street(state: State, hand: Hand, *, skipped: bool = False) -> State:
    """The betting round is over: its chips join the hand's contributions and the hand goes on to
    the draw, the showdown, or is passed when nobody opened (FD-6, FD-7, FD-9)."""
    round_ = hand.round
    assert round_ is not None
    contributed = hand.contributed
    for i, seat in enumerate(round_.seats):
        contributed = _set(contributed, seat, round_.contributed[i])
    hand = replace(hand, {"contributed": contributed, "round": None})
    settings = state.settings
    in_hand = hand.in_hand()
    nobody_opened = (
        hand.street == 0
        and settings.opening == "jacks_or_better"
        and not hand.blinds
        and not skipped
        and round_.current_bet == 0
    )
    if len(in_hand) <= 1:
        phase = SHOWDOWN
    elif nobody_opened:
        phase = PASSED
    elif hand.draw < settings.draws:
        order = first_to_act_after_draw(hand, settings.seats)
        return replace(state, {"hand": replace(hand, {"phase": DRAWING, "draw": hand.draw + 1, "drawing": order})})
    else:
        phase = SHOWDOWN
    return replace(state, {"hand": replace(hand, {"phase": phase})})
