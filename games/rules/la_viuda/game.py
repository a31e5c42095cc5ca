"""La Viuda (LV-1..LV-13): the Mexican widow game. Do not hold the worst hand.

4 to 7 players, 52 cards and two jokers, play and deal counterclockwise. The widow exchange is
``games.rules.widow``; this module adds the wild rank set by the pot (LV-5), the worst hand paying
a chip (LV-6) with LV-7's tie-break from the card engine, the purchase of La Viuda (LV-8..LV-10),
eliminations and the prize (LV-11).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.engine import fairness, hands
from games.engine.cards import RANKS, deck
from games.engine.decider import Context, Movement
from games.engine.errors import IllegalAction, InvalidOptions
from games.engine.options import Option, validate_options
from games.rules.la_viuda import bot, tiebreak
from games.rules.widow import exchange as widow
from games.rules.widow.audit import WidowAudit
from games.rules.widow.table import (
    EXCHANGE_OPTIONS,
    NO_SECRET,
    NOBODY,
    SHARED_EVENT_TYPES,
    TURN_COMMANDS,
    HandEnded,
    HandSecret,
    HandStarted,
    PlayerEliminated,
    ShownHand,
    TableState,
    WidowGame,
    bad_seats,
    deal_hand,
    draw_first_dealer,
    seat_bool,
    shared_evolvers,
    show_hands,
    stake,
)

PACK = deck(jokers=True)
DRAW_PACK = deck()
STEP = -1  # counterclockwise (LV-3, CM-4)
OFFER_COMMANDS = frozenset({"buy_widow", "decline_widow", "offer_expired"})


def wild_rank(pot: int) -> str:
    """LV-5: the wild rank for a hand dealt with ``pot`` chips in the pot: ``pot mod 13`` of 1 is
    aces, 2 twos, ..., 12 queens, 0 kings."""
    rest = pot % 13
    if rest == 1:
        return "A"
    if rest == 0:
        return "K"
    return RANKS[rest - 2]


def wild_cards(rank: str) -> frozenset[str]:
    """Both jokers and the four cards of the wild rank (LV-5)."""
    return hands.wild_set(rank)


# --- events ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class GameStarted:
    """Each player bought ``chips_per_player`` chips at ``chip_value`` (minor units), and La Viuda's
    chip went into the pot (LV-2)."""

    players: tuple[int, ...]
    chips_per_player: int
    chip_value: int
    currency: str | None
    widow_chip: int = 1


@dataclasses.dataclass(frozen=True, slots=True)
class ShowdownHeld:
    """Every hand shown with its value, category and wild count; ``tied`` the hands tied for worst
    by value, ``steps`` LV-7's tie-break steps among them, ``loser`` the worst hand (LV-6, LV-7, LV-13)."""

    wild_rank: str
    hands: tuple[ShownHand, ...]
    tied: tuple[int, ...]
    steps: tuple[tiebreak.TieBreakStep, ...]
    loser: int


@dataclasses.dataclass(frozen=True, slots=True)
class WorstHandPaid:
    """The worst hand paid one chip into the pot (LV-6); ``chips_left`` and ``pot`` after paying."""

    seat: int
    chips_left: int
    pot: int


@dataclasses.dataclass(frozen=True, slots=True)
class WidowOffered:
    """The player who paid their last chip may buy La Viuda for ``price`` (LV-8..LV-10)."""

    seat: int
    price: int


@dataclasses.dataclass(frozen=True, slots=True)
class WidowBought:
    """The player bought La Viuda: its chip came out of the pot to them; ``price`` went to the prize (LV-8)."""

    seat: int
    price: int


@dataclasses.dataclass(frozen=True, slots=True)
class WidowDeclined:
    """The offer of La Viuda was declined: ``declined``, ``expired`` (LV-10) or ``cannot_afford`` (LV-8)."""

    seat: int
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class GameEnded:
    """One player still has chips and wins every chip bought, plus La Viuda's price if bought (LV-11)."""

    winner: int
    prize: int


EVENT_TYPES: tuple[type, ...] = (
    GameStarted,
    *SHARED_EVENT_TYPES,
    *widow.EVENT_TYPES,
    ShowdownHeld,
    WorstHandPaid,
    WidowOffered,
    WidowBought,
    WidowDeclined,
    GameEnded,
)


# --- state -------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """The table's options the rules need, fixed when the table is created (``decide`` sees no config)."""

    seats: int
    chips_per_player: int
    chip_value: int
    flush_by_suit: bool
    max_orbits: int
    currency: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class State(TableState):
    """A La Viuda table. Options it needs are copied in, since ``decide`` sees no config. The
    current hand's seed and stock are secret (``view`` never shows them)."""

    rules: Rules
    started: bool = False
    chips: tuple[int, ...] = ()
    pot: int = 0
    out: tuple[bool, ...] = ()
    hand_no: int = 0
    dealer: int = NOBODY
    wild_rank: str = ""
    exchange: widow.Exchange | None = None
    secret: HandSecret = NO_SECRET
    widow_bought_by: int = NOBODY
    offer: int = NOBODY
    finished: bool = False
    winner: int = NOBODY
    last_showdown: ShowdownHeld | None = None

    @property
    def stock(self) -> tuple[str, ...]:
        """The hand secret ``stock``."""
        return self.secret.stock


_replace_state = widow.replacer(State)


def _replace(state: State, **changes: Any) -> State:
    return _replace_state(state, changes)


def _evolve_game_started(state: State, event: GameStarted) -> State:
    chips = tuple(event.chips_per_player if seat in event.players else 0 for seat in range(state.seats))
    out = tuple(seat not in event.players for seat in range(state.seats))
    return _replace(state, started=True, chips=chips, out=out, pot=event.widow_chip)


def _evolve_hand_started(state: State, event: HandStarted) -> State:
    return dataclasses.replace(
        state,
        hand_no=event.hand_no,
        dealer=event.dealer,
        wild_rank=event.wild_rank,
        exchange=widow.start(event.order, event.hands, event.widow_cards),
        secret=HandSecret(event.server_seed, event.client_seed, event.stock),
        last_showdown=None,
    )


def _evolve_paid(state: State, event: WorstHandPaid) -> State:
    chips = list(state.chips)
    chips[event.seat] -= 1
    return _replace(state, chips=tuple(chips), pot=state.pot + 1)


def _evolve_offered(state: State, event: WidowOffered) -> State:
    return _replace(state, offer=event.seat)


def _evolve_bought(state: State, event: WidowBought) -> State:
    chips = list(state.chips)
    chips[event.seat] += 1
    return _replace(state, chips=tuple(chips), pot=state.pot - 1, widow_bought_by=event.seat, offer=NOBODY)


def _evolve_declined(state: State, event: WidowDeclined) -> State:
    return _replace(state, offer=NOBODY)


def _evolve_game_ended(state: State, event: GameEnded) -> State:
    return _replace(state, finished=True, winner=event.winner, exchange=None)


EVOLVERS: dict[type, Any] = {
    GameStarted: _evolve_game_started,
    HandStarted: _evolve_hand_started,
    WorstHandPaid: _evolve_paid,
    WidowOffered: _evolve_offered,
    WidowBought: _evolve_bought,
    WidowDeclined: _evolve_declined,
    GameEnded: _evolve_game_ended,
    **shared_evolvers(_replace_state, ShowdownHeld),
}


# --- the game ----------------------------------------------------------------------------------


class LaViuda(WidowGame):
    """La Viuda as a Decider."""

    slug: ClassVar[str] = "la-viuda"
    name: ClassVar[str] = "La Viuda"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 7
    options: ClassVar[tuple[Option, ...]] = (
        Option("chips_per_player", "int", 3, 1, 10, help="Chips each player buys (LV-2)."),
        Option("widow_offer_seconds", "int", 60, 5, 3600, help="Time to answer the offer of La Viuda (LV-10)."),
        *EXCHANGE_OPTIONS,
    )
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES
    state_type: ClassVar[type] = State
    audit = WidowAudit()
    evolvers: ClassVar[dict[type, Any]] = EVOLVERS
    refused_combinations: ClassVar[tuple[str, ...]] = ("chip_value above 0 without a currency",)

    # -- configuration

    def configure(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated config: the options, ``seats``, and the stake (``chip_value`` in minor units,
        ``currency``) which the service may pass among the options or add afterwards."""
        given = dict(options or {})
        if bad_seats(seats, self.min_players, self.max_players):
            raise InvalidOptions(
                f"La Viuda needs 'seats' between {self.min_players} and {self.max_players}, not {seats!r} (LV-1)."
            )
        chip_value, currency = stake(given)
        config = validate_options(self.options, given)
        config.update(seats=seats, chip_value=chip_value, currency=currency if chip_value else None)
        return config

    def initial_state(self, config: Mapping[str, Any]) -> State:
        """A table waiting for its start command."""
        return State(
            Rules(
                seats=config["seats"],
                chips_per_player=config["chips_per_player"],
                chip_value=config.get("chip_value", 0),
                flush_by_suit=config["flush_by_suit"],
                max_orbits=config["max_orbits"],
                currency=config.get("currency"),
            )
        )

    # -- decide

    def _play(self, state: State, kind: Any, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        """The events of a command once the game is under way, with every automatic consequence
        (showdown, payment, the offer or elimination, the next deal, the end)."""
        if kind in OFFER_COMMANDS:
            return self._answer_offer(state, command, ctx)
        if kind in TURN_COMMANDS:
            if state.offer != NOBODY:
                raise IllegalAction(
                    f"Seat {state.offer} must first answer the offer of La Viuda.",
                    legal=self.legal_actions(state, command.get("seat", NOBODY)),
                )
            return self.play_turn(state, command, ctx)
        raise IllegalAction(f"Unknown action {kind!r}.", legal=self.legal_actions(state, command.get("seat", NOBODY)))

    def _start(self, state: State, ctx: Context) -> list[Any]:
        players = tuple(range(state.seats))
        events: list[Any] = [GameStarted(players, state.chips_per_player, state.chip_value, state.currency)]
        events.append(draw_first_dealer(DRAW_PACK, ctx, state.seats))
        after = self.fold(state, events)
        events.append(self._deal(after, ctx, after.dealer))
        return events

    def _deal(self, state: State, ctx: Context, dealer: int) -> HandStarted:
        order = widow.turn_order(dealer, state.seats, state.out, STEP)
        return deal_hand(PACK, ctx, dealer, order, state.seats, state.pot, wild_rank(state.pot))

    def _showdown(self, state: State, ctx: Context) -> list[Any]:
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
                streams=fairness.streams(
                    bytes.fromhex(state.server_seed), ctx.table_id, state.hand_no, state.client_seed
                ),
            )
            steps = outcome.steps
            loser = outcome.losers[0]
        events: list[Any] = [ShowdownHeld(state.wild_rank, shown, tied, steps, loser)]
        events.append(WorstHandPaid(loser, state.chips[loser] - 1, state.pot + 1))
        events.append(HandEnded(state.hand_no, state.server_seed))
        after = self.fold(state, events)
        if after.chips[loser] == 0:
            consequences: list[Any] = []
            if after.widow_bought_by == NOBODY:
                if seat_bool(ctx.extra, "can_afford_widow", loser):
                    return [*events, WidowOffered(loser, 2 * state.chip_value)]
                consequences.append(WidowDeclined(loser, "cannot_afford"))
            consequences.append(PlayerEliminated(loser, "broke"))
            events += consequences
            after = self.fold(after, consequences)
        return events + self._next_hand_or_end(after, ctx)

    def _next_hand_or_end(self, state: State, ctx: Context) -> list[Any]:
        left = [seat for seat in range(state.seats) if not state.out[seat]]
        if len(left) == 1:
            prize = state.seats * state.chips_per_player * state.chip_value
            if state.widow_bought_by != NOBODY:
                prize += 2 * state.chip_value
            return [GameEnded(left[0], prize)]
        return [self._deal(state, ctx, widow.next_dealer(state.dealer, state.seats, state.out, STEP))]

    def _answer_offer(self, state: State, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        seat = command.get("seat")
        kind = command.get("type")
        if state.offer == NOBODY:
            raise IllegalAction("Nobody has been offered La Viuda.", legal=self.legal_actions(state, seat))
        if seat != state.offer:
            raise IllegalAction(f"The offer of La Viuda is for seat {state.offer}, not you.", legal=[])
        events: list[Any]
        if kind == "buy_widow":
            events = [WidowBought(seat, 2 * state.chip_value)]
        else:
            reason = "expired" if kind == "offer_expired" else "declined"
            events = [WidowDeclined(seat, reason), PlayerEliminated(seat, "broke")]
        return events + self._next_hand_or_end(self.fold(state, events), ctx)

    # -- questions

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` may do now: answer the offer, or an exchange move on its turn."""
        if state.finished or not state.started:
            return []
        if state.offer != NOBODY:
            return [{"type": "buy_widow"}, {"type": "decline_widow"}] if seat == state.offer else []
        return widow.legal(state.exchange, seat, state.max_orbits)

    def to_act(self, state: State) -> tuple[int, ...]:
        """The seat whose answer or move the game waits for."""
        if state.finished:
            return ()
        if state.offer != NOBODY:
            return (state.offer,)
        if state.exchange is not None and state.exchange.turn != widow.OVER:
            return (state.exchange.turn,)
        return ()

    def deadline(self, state: State, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
        """The offer deadline (LV-10) or the turn timer (WX-7)."""
        if state.finished:
            return None
        if state.offer != NOBODY:
            return float(config["widow_offer_seconds"]), {"type": "offer_expired", "seat": state.offer}
        if state.exchange is not None and state.exchange.turn != widow.OVER:
            return float(config["turn_seconds"]), {"type": "timeout", "seat": state.exchange.turn}
        return None

    # -- views

    def _table_view(self, state: State) -> dict[str, Any]:
        return {
            "wild_rank": state.wild_rank or None,
            "chips_per_player": state.chips_per_player,
            "widow_price": 2 * state.chip_value,
            "widow_bought_by": None if state.widow_bought_by == NOBODY else state.widow_bought_by,
            "offer": None if state.offer == NOBODY else state.offer,
            "winner": None if state.winner == NOBODY else state.winner,
        }

    # -- ledger

    def settlements(self, state: State, event: Any) -> list[Movement]:
        """Chips and money that move with ``event`` (LV-2, LV-6, LV-8, LV-11)."""
        kind = type(event)
        money = state.chip_value > 0
        if kind is GameStarted:
            moves = []
            for seat in event.players:
                if money:
                    amount = event.chips_per_player * event.chip_value
                    moves.append(Movement(("wallet", seat), ("escrow",), amount, "MONEY", "chips bought"))
                moves.append(Movement(("bank",), ("seat", seat), event.chips_per_player, "CHIP", "chips bought"))
            moves.append(Movement(("bank",), ("pot",), event.widow_chip, "CHIP", "La Viuda's chip"))
            return moves
        if kind is WorstHandPaid:
            return [Movement(("seat", event.seat), ("pot",), 1, "CHIP", "worst hand pays")]
        if kind is WidowBought:
            moves = [Movement(("pot",), ("seat", event.seat), 1, "CHIP", "La Viuda bought")]
            if money and event.price:
                moves.insert(0, Movement(("wallet", event.seat), ("escrow",), event.price, "MONEY", "La Viuda bought"))
            return moves
        if kind is GameEnded and money and event.prize:
            return [Movement(("escrow",), ("payout", event.winner), event.prize, "MONEY", "prize")]
        return []

    def bot(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The game's bot (``bot.choose``), from its own seat's view only."""
        return bot.choose(view, legal, rng)


DECIDER = LaViuda()
