"""Whiskey Poker (WP-1..WP-9): the North American widow game.

2 to 9 players, 52 cards, no wild cards, play and deal clockwise. The widow exchange is
``games.rules.widow``; this module adds the three ways of scoring (WP-5..WP-8): ``pot`` (antes,
the best hand takes the pot, cash-out at ``chip_value``), ``loser_pays`` (lives without money value)
and ``points`` (the reduced pack's race to ``target_points``).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.engine.cards import deck, reduced_pack, reduced_pack_ranks
from games.engine.decider import Context, Movement
from games.engine.errors import IllegalAction, InvalidOptions
from games.engine.options import Option, validate_options
from games.rules.whiskey_poker import bot
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
    shared_evolvers,
    show_hands,
    stake,
)

STEP = 1  # clockwise (WP-3, WP-4)
POT, LOSER_PAYS, POINTS = "pot", "loser_pays", "points"
NO_WILD: frozenset[str] = frozenset()


def pack_for(seats: int, reduced: bool) -> tuple[str, ...]:
    """The 52-card pack, or the reduced pack for ``seats`` players (WP-1, WP-8), canonical order."""
    return reduced_pack(seats) if reduced else deck()


def split_pot(pot: int, best: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """WP-5: tied best hands split the pot equally; odd chips go one at a time to the tied players
    in order from the dealer's left (``best`` is already in that order)."""
    share, odd = divmod(pot, len(best))
    return tuple((seat, share + (1 if index < odd else 0)) for index, seat in enumerate(best))


# --- events ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class GameStarted:
    """Each player got ``chips`` chips: bought at ``chip_value`` in ``pot`` scoring (WP-6), lives
    without money value in ``loser_pays`` (WP-7), none in ``points`` (WP-8)."""

    players: tuple[int, ...]
    scoring: str
    chips: int
    chip_value: int
    currency: str | None


@dataclasses.dataclass(frozen=True, slots=True)
class AntesPaid:
    """Before the deal every player put one chip in the pot (WP-5); ``pot`` after the antes."""

    seats: tuple[int, ...]
    pot: int


@dataclasses.dataclass(frozen=True, slots=True)
class ShowdownHeld:
    """Every hand shown with its value and category; ``best`` and ``worst`` list the tied seats in
    order from the dealer's left."""

    hands: tuple[ShownHand, ...]
    best: tuple[int, ...]
    worst: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class PotAwarded:
    """The best hand took the pot, or the tied best hands split it (WP-5): ``(seat, chips)``."""

    shares: tuple[tuple[int, int], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class LosersPaid:
    """Every hand tied for worst paid one chip to the pool (WP-7); ``pool`` after paying."""

    seats: tuple[int, ...]
    pool: int


@dataclasses.dataclass(frozen=True, slots=True)
class PointsScored:
    """The best hand (every tied one) scored a point (WP-8); ``points`` of every seat after."""

    seats: tuple[int, ...]
    points: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class MatchEndRequested:
    """The table's owner ended the match: it ends when this hand is over (WP-6)."""


@dataclasses.dataclass(frozen=True, slots=True)
class GameEnded:
    """The match is over. ``winners`` and ``losers`` as the scoring says (WP-6..WP-8);
    ``cash_out`` the chips each seat cashes at ``chip_value`` (``pot`` scoring)."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    cash_out: tuple[int, ...]
    chip_value: int


EVENT_TYPES: tuple[type, ...] = (
    GameStarted,
    AntesPaid,
    *SHARED_EVENT_TYPES,
    *widow.EVENT_TYPES,
    ShowdownHeld,
    PotAwarded,
    LosersPaid,
    PointsScored,
    MatchEndRequested,
    GameEnded,
)


# --- state -------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """The table's options the rules need, fixed when the table is created (``decide`` sees no config)."""

    seats: int
    scoring: str
    chips_per_player: int
    lives: int
    target_points: int
    reduced_pack: bool
    chip_value: int
    flush_by_suit: bool
    max_orbits: int
    currency: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class State(TableState):
    """A Whiskey Poker table. Options it needs are copied in, since ``decide`` sees no config."""

    rules: Rules
    started: bool = False
    chips: tuple[int, ...] = ()
    pot: int = 0
    points: tuple[int, ...] = ()
    out: tuple[bool, ...] = ()
    hand_no: int = 0
    dealer: int = NOBODY
    exchange: widow.Exchange | None = None
    secret: HandSecret = NO_SECRET
    end_requested: bool = False
    finished: bool = False
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    last_showdown: ShowdownHeld | None = None

    @property
    def scoring(self) -> str:
        """The table option ``scoring``."""
        return self.rules.scoring

    @property
    def lives(self) -> int:
        """The table option ``lives``."""
        return self.rules.lives

    @property
    def target_points(self) -> int:
        """The table option ``target_points``."""
        return self.rules.target_points

    @property
    def reduced_pack(self) -> bool:
        """The table option ``reduced_pack``."""
        return self.rules.reduced_pack


_replace_state = widow.replacer(State)


def _replace(state: State, **changes: Any) -> State:
    return _replace_state(state, changes)


def _evolve_game_started(state: State, event: GameStarted) -> State:
    chips = tuple(event.chips if seat in event.players else 0 for seat in range(state.seats))
    out = tuple(seat not in event.players for seat in range(state.seats))
    return _replace(state, started=True, chips=chips, out=out, points=(0,) * state.seats)


def _each_paid_one(state: State, seats: tuple[int, ...], pot: int) -> State:
    chips = list(state.chips)
    for seat in seats:
        chips[seat] -= 1
    return _replace(state, chips=tuple(chips), pot=pot)


def _evolve_antes(state: State, event: AntesPaid) -> State:
    return _each_paid_one(state, event.seats, event.pot)


def _evolve_hand_started(state: State, event: HandStarted) -> State:
    return dataclasses.replace(
        state,
        hand_no=event.hand_no,
        dealer=event.dealer,
        exchange=widow.start(event.order, event.hands, event.widow_cards),
        secret=HandSecret(event.server_seed, event.client_seed),
        last_showdown=None,
    )


def _evolve_pot_awarded(state: State, event: PotAwarded) -> State:
    chips = list(state.chips)
    for seat, amount in event.shares:
        chips[seat] += amount
    return _replace(state, chips=tuple(chips), pot=state.pot - sum(amount for _, amount in event.shares))


def _evolve_losers_paid(state: State, event: LosersPaid) -> State:
    return _each_paid_one(state, event.seats, event.pool)


def _evolve_points(state: State, event: PointsScored) -> State:
    return _replace(state, points=event.points)


def _evolve_end_requested(state: State, event: MatchEndRequested) -> State:
    return _replace(state, end_requested=True)


def _evolve_game_ended(state: State, event: GameEnded) -> State:
    chips = tuple(held - cashed for held, cashed in zip(state.chips, event.cash_out))
    return dataclasses.replace(
        state, finished=True, winners=event.winners, losers=event.losers, chips=chips, exchange=None
    )


EVOLVERS: dict[type, Any] = {
    GameStarted: _evolve_game_started,
    AntesPaid: _evolve_antes,
    HandStarted: _evolve_hand_started,
    PotAwarded: _evolve_pot_awarded,
    LosersPaid: _evolve_losers_paid,
    PointsScored: _evolve_points,
    MatchEndRequested: _evolve_end_requested,
    GameEnded: _evolve_game_ended,
    **shared_evolvers(_replace_state, ShowdownHeld),
}


# --- the game ----------------------------------------------------------------------------------


class WhiskeyPoker(WidowGame):
    """Whiskey Poker as a Decider."""

    slug: ClassVar[str] = "whiskey-poker"
    name: ClassVar[str] = "Whiskey Poker"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 9
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "scoring", "choice", POT, choices=(POT, LOSER_PAYS, POINTS), help="How hands are scored (WP-5, WP-7, WP-8)."
        ),
        Option("chips_per_player", "int", 10, 1, 100, help="Chips each player buys, pot scoring (WP-6)."),
        Option("lives", "int", 5, 1, 20, help="Chips without money value, loser_pays scoring (WP-7)."),
        Option(
            "reduced_pack",
            "bool",
            False,
            help="Ten up for 2 players, one rank lower per extra player; 2-7 players; implies points (WP-8).",
        ),
        Option("target_points", "int", 5, 1, 50, help="Points that win, points scoring (WP-8)."),
        *EXCHANGE_OPTIONS,
    )
    # Sent by the table's owner, seated or not, rather than by a seat (WP-6).
    owner_commands: ClassVar[frozenset[str]] = frozenset({"end_match"})
    refused_combinations: ClassVar[tuple[str, ...]] = (
        "reduced_pack with more than 7 seats (WP-8)",
        "reduced_pack with scoring other than points (WP-8: it implies points)",
        "chip_value above 0 with scoring other than pot (only pot chips have money value)",
        "chips_per_player with scoring other than pot; lives with scoring other than loser_pays; "
        "target_points with scoring other than points",
        "chip_value above 0 without a currency",
    )
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES
    state_type: ClassVar[type] = State
    audit = WidowAudit()
    evolvers: ClassVar[dict[type, Any]] = EVOLVERS

    # -- configuration

    def configure(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated config: the options, ``seats`` and the stake (``chip_value`` in minor units,
        ``currency``), which the service may pass among the options or add afterwards. Options that
        belong to another scoring are refused rather than silently ignored."""
        given = dict(options or {})
        if bad_seats(seats, self.min_players, self.max_players):
            raise InvalidOptions(f"Whiskey Poker needs 'seats' between 2 and 9, not {seats!r} (WP-1).")
        chip_value, currency = stake(given)
        if given.get("reduced_pack"):
            if seats > 7:
                raise InvalidOptions(f"Option 'reduced_pack' is for 2 to 7 players, not {seats} (WP-8).")
            if given.setdefault("scoring", POINTS) != POINTS:
                raise InvalidOptions(
                    f"Option 'reduced_pack' implies scoring 'points', not {given['scoring']!r} (WP-8)."
                )
        config = validate_options(self.options, given)
        scoring = config["scoring"]
        for option, mode in (("chips_per_player", POT), ("lives", LOSER_PAYS), ("target_points", POINTS)):
            if option in given and scoring != mode:
                raise InvalidOptions(f"Option '{option}' applies only to scoring '{mode}', not {scoring!r}.")
        if chip_value and scoring != POT:
            raise InvalidOptions(
                f"A 'chip_value' (money) applies only to scoring 'pot'; {scoring!r} chips have no money value."
            )
        config.update(seats=seats, chip_value=chip_value, currency=currency)
        return config

    def initial_state(self, config: Mapping[str, Any]) -> State:
        """A table waiting for its start command."""
        return State(
            Rules(
                seats=config["seats"],
                scoring=config["scoring"],
                chips_per_player=config["chips_per_player"],
                lives=config["lives"],
                target_points=config["target_points"],
                reduced_pack=config["reduced_pack"],
                chip_value=config.get("chip_value", 0),
                flush_by_suit=config["flush_by_suit"],
                max_orbits=config["max_orbits"],
                currency=config.get("currency"),
            )
        )

    # -- decide

    def _play(self, state: State, kind: Any, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        """The events of a command once the game is under way, with every automatic consequence
        (showdown, scoring, eliminations, the next deal, the end)."""
        if kind == "end_match":
            if state.scoring != POT:
                raise IllegalAction("Only a pot-scoring match can be ended by the table's owner (WP-6).")
            if state.end_requested:
                raise IllegalAction("The match already ends after this hand.")
            return [MatchEndRequested()]
        if kind in TURN_COMMANDS:
            return self.play_turn(state, command, ctx)
        raise IllegalAction(f"Unknown action {kind!r}.", legal=self.legal_actions(state, command.get("seat", NOBODY)))

    def _pack(self, state: State) -> tuple[str, ...]:
        return pack_for(state.seats, state.reduced_pack)

    def _lowest_rank(self, state: State) -> str:
        return reduced_pack_ranks(state.seats)[0] if state.reduced_pack else "2"

    def _start(self, state: State, ctx: Context) -> list[Any]:
        chips = {POT: state.chips_per_player, LOSER_PAYS: state.lives, POINTS: 0}[state.scoring]
        events: list[Any] = [
            GameStarted(tuple(range(state.seats)), state.scoring, chips, state.chip_value, state.currency),
            draw_first_dealer(self._pack(state), ctx, state.seats),
        ]
        after = self.fold(state, events)
        return events + self._deal(after, ctx, after.dealer)

    def _deal(self, state: State, ctx: Context, dealer: int) -> list[Any]:
        events: list[Any] = []
        order = widow.turn_order(dealer, state.seats, state.out, STEP)
        if state.scoring == POT:
            events.append(AntesPaid(order, state.pot + len(order)))
        pot = state.pot + len(order) if state.scoring == POT else state.pot
        events.append(deal_hand(self._pack(state), ctx, dealer, order, state.seats, pot, ""))
        return events

    def _showdown(self, state: State, ctx: Context) -> list[Any]:
        ex = state.exchange
        assert ex is not None
        shown = show_hands(ex, NO_WILD, flush_by_suit=state.flush_by_suit, lowest_rank=self._lowest_rank(state))
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
        after = self.fold(state, events)
        return events + self._next_hand_or_end(after, ctx)

    def _next_hand_or_end(self, state: State, ctx: Context) -> list[Any]:
        players = [seat for seat in range(state.seats) if not state.out[seat]]
        if state.scoring == POT:
            broke = [seat for seat in players if state.chips[seat] == 0]
            events: list[Any] = [PlayerEliminated(seat, "cannot ante") for seat in broke]
            left = [seat for seat in players if seat not in broke]
            if len(left) == 1 or state.end_requested:
                most = max(state.chips[seat] for seat in left)
                winners = tuple(seat for seat in left if state.chips[seat] == most)
                losers = tuple(seat for seat in range(state.seats) if seat not in winners)
                return [*events, GameEnded(winners, losers, state.chips, state.chip_value)]
            after = self.fold(state, events)
            return events + self._deal(after, ctx, widow.next_dealer(state.dealer, state.seats, after.out, STEP))
        if state.scoring == LOSER_PAYS:
            losers = tuple(seat for seat in players if state.chips[seat] == 0)
            if losers:
                winners = tuple(seat for seat in players if seat not in losers)
                return [GameEnded(winners, losers, (0,) * state.seats, 0)]
        else:
            winners = tuple(seat for seat in players if state.points[seat] >= state.target_points)
            if winners:
                return [GameEnded(winners, tuple(s for s in players if s not in winners), (0,) * state.seats, 0)]
        return self._deal(state, ctx, widow.next_dealer(state.dealer, state.seats, state.out, STEP))

    # -- questions

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The exchange moves ``seat`` may make on its turn."""
        if state.finished or not state.started:
            return []
        return widow.legal(state.exchange, seat, state.max_orbits)

    def to_act(self, state: State) -> tuple[int, ...]:
        """The seat whose move the game waits for."""
        if not state.finished and state.exchange is not None and state.exchange.turn != widow.OVER:
            return (state.exchange.turn,)
        return ()

    def deadline(self, state: State, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
        """The turn timer (WX-7)."""
        seats = self.to_act(state)
        if not seats:
            return None
        return float(config["turn_seconds"]), {"type": "timeout", "seat": seats[0]}

    # -- views

    def _table_view(self, state: State) -> dict[str, Any]:
        return {
            "scoring": state.scoring,
            "reduced_pack": state.reduced_pack,
            "pack_lowest_rank": self._lowest_rank(state),
            "target_points": state.target_points if state.scoring == POINTS else None,
            "points": list(state.points),
            "end_requested": state.end_requested,
            "winners": list(state.winners),
            "losers": list(state.losers),
        }

    # -- ledger

    def settlements(self, state: State, event: Any) -> list[Movement]:
        """Chips and money that move with ``event`` (WP-5..WP-7)."""
        kind = type(event)
        money = state.chip_value > 0
        if kind is GameStarted:
            moves = []
            for seat in event.players:
                if money:
                    moves.append(
                        Movement(("wallet", seat), ("escrow",), event.chips * event.chip_value, "MONEY", "chips bought")
                    )
                if event.chips:
                    moves.append(Movement(("bank",), ("seat", seat), event.chips, "CHIP", "chips bought"))
            return moves
        if kind is AntesPaid:
            return [Movement(("seat", seat), ("pot",), 1, "CHIP", "ante") for seat in event.seats]
        if kind is PotAwarded:
            return [
                Movement(("pot",), ("seat", seat), amount, "CHIP", "pot won") for seat, amount in event.shares if amount
            ]
        if kind is LosersPaid:
            return [Movement(("seat", seat), ("pot",), 1, "CHIP", "worst hand pays") for seat in event.seats]
        if kind is GameEnded:
            moves = []
            for seat, chips in enumerate(event.cash_out):
                if chips:
                    moves.append(Movement(("seat", seat), ("bank",), chips, "CHIP", "cashed out"))
                    if money:
                        moves.append(
                            Movement(("escrow",), ("payout", seat), chips * event.chip_value, "MONEY", "cash-out")
                        )
            return moves
        return []

    def bot(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The game's bot (``bot.choose``), from its own seat's view only."""
        return bot.choose(view, legal, rng)


DECIDER = WhiskeyPoker()
