"""What La Viuda and Whiskey Poker share around the widow exchange: the first dealer (CM-19), the
fair deal of a hand from the context's seed (CM-5..CM-10, WP-3, LV-4), the shown hands of a
showdown valued by the card engine, and the events for these.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from games.engine import fairness, hands
from games.engine.codec import encode_event, event_type, secret_field
from games.engine.decider import Context, Rules
from games.engine.errors import IllegalAction
from games.engine.options import Option
from games.rules.widow import exchange as widow


@dataclasses.dataclass(frozen=True, slots=True)
class FirstDealerDrawn:
    """CM-19: one card to each seat from seat 0 on, again for the seats tied for lowest, until one
    is lowest; ``draws`` is every card taken, in order, as ``(seat, card)``. They come from their
    own shuffle (purpose ``first-dealer``), not the deck of the hand, so they are public."""

    draws: tuple[tuple[int, str], ...]
    dealer: int


@dataclasses.dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand was dealt (WX-1, WP-3, LV-4). Public: the commitments, the client seed, the dealer,
    the turn order (dealer last), the wild rank (La Viuda) and the pot. Secret: the server seed, the
    hands by seat, the face-down widow and the undealt stock."""

    hand_no: int
    dealer: int
    order: tuple[int, ...]
    commitment: str
    next_commitment: str | None
    client_seed: str
    pot: int
    wild_rank: str
    server_seed: str = secret_field()
    hands: tuple[tuple[str, ...], ...] = secret_field()
    widow_cards: tuple[str, ...] = secret_field()
    stock: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class ShownHand:
    """One hand at the showdown: its cards, value (larger is better), category, a description and
    how many wild cards it holds (LV-13)."""

    seat: int
    cards: tuple[str, ...]
    value: int
    category: str
    description: str
    wild_count: int


@dataclasses.dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over; its server seed is revealed so anyone can check the deal (CM-10)."""

    hand_no: int
    server_seed: str


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerEliminated:
    """A player is out of the game (LV-8, LV-9, WP-6). ``reason`` in the game's own words."""

    seat: int
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class HandSecret:
    """What the state keeps of a hand's deal that nobody may see until the hand ends: the server
    seed (hex), the hand's client seed and the undealt stock (LV-7 draws from both)."""

    server_seed: str = ""
    client_seed: str = ""
    stock: tuple[str, ...] = ()


NO_SECRET = HandSecret()
NOBODY = -1


class TableState:
    """The table options and hand secrets both widow games' states read, forwarded to the state's
    ``rules`` and ``secret``. No slots of its own, so a slotted frozen dataclass can inherit it."""

    __slots__ = ()
    rules: Any
    secret: HandSecret

    @property
    def seats(self) -> int:
        """The table option ``seats``."""
        return self.rules.seats

    @property
    def chips_per_player(self) -> int:
        """The table option ``chips_per_player``."""
        return self.rules.chips_per_player

    @property
    def chip_value(self) -> int:
        """The table option ``chip_value``."""
        return self.rules.chip_value

    @property
    def flush_by_suit(self) -> bool:
        """The table option ``flush_by_suit``."""
        return self.rules.flush_by_suit

    @property
    def max_orbits(self) -> int:
        """The table option ``max_orbits``."""
        return self.rules.max_orbits

    @property
    def currency(self) -> str | None:
        """The table option ``currency``."""
        return self.rules.currency

    @property
    def server_seed(self) -> str:
        """The hand secret ``server_seed``."""
        return self.secret.server_seed

    @property
    def client_seed(self) -> str:
        """The hand secret ``client_seed``."""
        return self.secret.client_seed


SHARED_EVENT_TYPES: tuple[type, ...] = (FirstDealerDrawn, HandStarted, HandEnded, PlayerEliminated)
TURN_COMMANDS = frozenset({"pass", "knock", "exchange_all", "exchange_one", "timeout"})


# The options of the widow exchange and the showdown, last in both games' option lists.
EXCHANGE_OPTIONS: tuple[Option, ...] = (
    Option("max_orbits", "int", 6, 1, 50, help="Orbits of phase 2 without a knock before one is forced (WX-7)."),
    Option("turn_seconds", "int", 60, 5, 3600, help="Turn time; a timeout passes or knocks (WX-7)."),
    Option(
        "flush_by_suit",
        "bool",
        False,
        help="Flushes compare by suit first: spades, hearts, diamonds, clubs (LV-12).",
    ),
)


def shared_evolvers(replace: Callable[[Any, dict[str, Any]], Any], showdown_type: type) -> dict[type, Callable]:
    """The evolvers both widow games apply alike: the first dealer, the exchange's events, the
    showdown kept for the view, the end of a hand and an elimination. ``replace`` is the state's
    ``widow.replacer``; ``showdown_type`` the game's own showdown event."""

    def first_dealer(state: Any, event: FirstDealerDrawn) -> Any:
        return replace(state, {"dealer": event.dealer})

    def exchange(state: Any, event: Any) -> Any:
        return replace(state, {"exchange": widow.evolve(state.exchange, event)})

    def showdown(state: Any, event: Any) -> Any:
        return replace(state, {"last_showdown": event})

    def hand_ended(state: Any, event: HandEnded) -> Any:
        return replace(state, {"exchange": None, "secret": NO_SECRET})

    def eliminated(state: Any, event: PlayerEliminated) -> Any:
        out = list(state.out)
        out[event.seat] = True
        return replace(state, {"out": tuple(out)})

    return {
        FirstDealerDrawn: first_dealer,
        showdown_type: showdown,
        HandEnded: hand_ended,
        PlayerEliminated: eliminated,
        **{kind: exchange for kind in widow.EVENT_TYPES},
    }


def draw_first_dealer(pack: Sequence[str], ctx: Context, seats: int) -> FirstDealerDrawn:
    """CM-19 by the card engine, from hand 1's stream, over ``pack`` in canonical order."""
    drawn = fairness.first_dealer(pack, range(seats), require_seed(ctx), ctx.table_id, ctx.client_seed)
    return FirstDealerDrawn(drawn.draws, drawn.dealer)


def require_seed(ctx: Context) -> bytes:
    """The seed of the hand to deal; the service must always pass it (decider conventions)."""
    if ctx.server_seed is None:
        raise ValueError("dealing a hand needs ctx.server_seed (the seed of the next hand)")
    return ctx.server_seed


def deal_hand(
    pack: Sequence[str], ctx: Context, dealer: int, order: tuple[int, ...], seats: int, pot: int, wild_rank: str
) -> HandStarted:
    """Shuffle ``pack`` (canonical order) with the context's seed, purpose ``deck``, and deal it."""
    seed = require_seed(ctx)
    deck = fairness.shuffled(pack, seed, ctx.table_id, ctx.hand_no, ctx.client_seed, "deck")
    hands, widow_cards, stock = widow.deal(deck, order, seats)
    return HandStarted(
        hand_no=ctx.hand_no,
        dealer=dealer,
        order=order,
        commitment=fairness.commitment(seed),
        next_commitment=ctx.next_commitment,
        client_seed=ctx.client_seed,
        pot=pot,
        wild_rank=wild_rank,
        server_seed=seed.hex(),
        hands=hands,
        widow_cards=widow_cards,
        stock=stock,
    )


def show_hands(
    ex: widow.Exchange, wild: frozenset[str], *, flush_by_suit: bool, lowest_rank: str = "2"
) -> tuple[ShownHand, ...]:
    """Every hand of the exchange, in turn order, valued by the card engine (CM-11..CM-14, LV-12;
    ``lowest_rank`` is the pack's lowest rank, WP-8)."""
    shown = []
    for seat in ex.order:
        cards = ex.hands[seat]
        value = hands.high_value(cards, wild, flush_by_suit=flush_by_suit, lowest_rank=lowest_rank)
        shown.append(
            ShownHand(
                seat=seat,
                cards=cards,
                value=int(value),
                category=hands.category(value),
                description=hands.describe(value),
                wild_count=sum(1 for card in cards if card in wild),
            )
        )
    return tuple(shown)


def public_event(event: Any) -> dict[str, Any]:
    """The public part of an event, with its type, as a JSON-able dict."""
    name, public, _secret = encode_event(event)
    return {"type": name, **public}


def hand_started_private(event: HandStarted, seat: int | None) -> dict[str, Any]:
    """A seat sees its own dealt hand and nothing else of the deal (WX-1)."""
    if seat is not None and 0 <= seat < len(event.hands) and event.hands[seat]:
        return {"hand": list(event.hands[seat])}
    return {}


def seat_bool(extra: Mapping[str, Any], key: str, seat: int, default: bool = True) -> bool:
    """``extra[key][seat]`` from the service, whose keys may be ints or strings (JSON)."""
    table = extra.get(key) or {}
    if seat in table:
        return bool(table[seat])
    if str(seat) in table:
        return bool(table[str(seat)])
    return default


def name_of(event: Any) -> str:
    """The stored type name of an event."""
    return event_type(event)


class WidowGame(Rules):
    """What both widow games' Deciders do the same way. A subclass sets ``evolvers`` and gives
    the events of its start (``_start(state, ctx)``), of a command once started (``_play(state,
    kind, command, ctx)``) and of its showdown with what follows (``_showdown(state, ctx)``), and
    what its view adds to the public table (``_table_view(state)``)."""

    def chip_counts(self, state: Any) -> dict[tuple[Any, ...], int]:
        """The chips each seat and the pot hold in ``state``: what the table's chip accounts in
        the ledger must hold too (``manage.py reconcile`` compares them)."""
        counts: dict[tuple[Any, ...], int] = {("seat", seat): chips for seat, chips in enumerate(state.chips)}
        counts[("pot",)] = state.pot
        return counts

    evolvers: ClassVar[dict[type, Callable[[Any, Any], Any]]] = {}

    def evolve(self, state: Any, event: Any) -> Any:
        """The state after one recorded event; never re-checks the rules."""
        return self.evolvers[type(event)](state, event)

    def fold(self, state: Any, events: Sequence[Any]) -> Any:
        """The state after several events (``decide`` looks ahead with it)."""
        evolvers = self.evolvers
        for event in events:
            state = evolvers[type(event)](state, event)
        return state

    def view_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it: its public fields, plus its own dealt hand or the
        cards it took unseen (WX-1, WP-9). A seed appears only in ``HandEnded`` (CM-10)."""
        data = public_event(event)
        if type(event) is HandStarted:
            data.update(hand_started_private(event, seat))
        else:
            data.update(widow.private_fields(event, seat))
        return data

    def decide(self, state: Any, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        """The events of one command, with every automatic consequence: the start, or a command
        of the game under way (the subclass's ``_play``)."""
        kind = command.get("type")
        if state.finished:
            raise IllegalAction("The game is over.", code="game_over")
        if kind == "start":
            if state.started:
                raise IllegalAction("The game has already started.")
            return self._start(state, ctx)
        if not state.started:
            raise IllegalAction("The game has not started yet.", code="not_started")
        return self._play(state, kind, command, ctx)

    def play_turn(self, state: Any, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        """An exchange move (WX-2..WX-7) and, once the exchange is over, the game's showdown
        (``self._showdown``) with every consequence."""
        events = widow.turn_events(state.exchange, command, state.max_orbits)
        after = self.fold(state, events)
        if after.exchange is not None and after.exchange.turn == widow.OVER:
            events += self._showdown(after, ctx)
        return events

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see: its own cards, the widow while face up, the public table (WP-9)."""
        data: dict[str, Any] = {
            "game": self.slug,
            "seats": state.seats,
            "you": seat,
            "started": state.started,
            "hand_no": state.hand_no,
            "chips": list(state.chips),
            "pot": state.pot,
            "out": list(state.out),
            "dealer": None if state.dealer == NOBODY else state.dealer,
            "flush_by_suit": state.flush_by_suit,
            "chip_value": state.chip_value,
            "currency": state.currency,
            "finished": state.finished,
            "last_showdown": public_event(state.last_showdown) if state.last_showdown is not None else None,
            **self._table_view(state),
        }
        data.update(widow.view(state.exchange, seat, state.max_orbits))
        return data

    def pending_system(self, state: Any) -> dict[str, Any] | None:
        """Nothing: ``decide`` chains every automatic consequence."""
        return None

    def is_finished(self, state: Any) -> bool:
        """True once the game has ended."""
        return bool(state.finished)


def bad_seats(seats: Any, low: int, high: int) -> bool:
    """True unless ``seats`` is a whole number in ``[low, high]``."""
    return isinstance(seats, bool) or not isinstance(seats, int) or not low <= seats <= high


def stake(given: dict[str, Any]) -> tuple[int, str | None]:
    """Pop the stake (``chip_value`` in minor units, ``currency``) from the given options, checked."""
    from games.engine.errors import InvalidOptions

    chip_value = given.pop("chip_value", 0) or 0
    currency = given.pop("currency", None)
    if isinstance(chip_value, bool) or not isinstance(chip_value, int) or chip_value < 0:
        raise InvalidOptions(f"'chip_value' must be a whole number of minor units, 0 or more, not {chip_value!r}.")
    if chip_value and not currency:
        raise InvalidOptions("A 'chip_value' above 0 needs a 'currency'.")
    return chip_value, currency if chip_value else None
