"""Counter: the small game the store, service, API and task tests play.

Seats take turns adding 1 to 5 chips to the pot (never past the target); the seat whose chips bring
the hand's total to the target wins the pot. Each hand deals every seat one secret card from the
hand's fair stream (so there is hidden information to keep out of views) and reveals the server
seed and the cards when it ends. After ``hands`` hands the game ends: chips go back to the bank,
each seat is paid its chips' worth (``chip_value``) and the seats with most chips share the stakes.

Commands: ``{"type": "start"}`` (system, deals hand 1), ``{"type": "add", "seat": n, "amount": k}``,
``{"type": "timeout", "seat": n}`` (system: the absent seat adds 1).
Events: ``GameStarted``, ``HandStarted``, ``Added``, ``HandEnded``, ``GameEnded``.
Pure: no Django, no clock, no randomness of its own.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.cards import deck
from games.engine.codec import encode_event, secret_field
from games.engine.decider import Context, Movement, Rules
from games.engine.errors import IllegalAction, InvalidOptions
from games.engine.fairness import commitment, shuffled
from games.engine.options import Option, validate_options

MAX_ADD = 5


# --- events ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class GameStarted:
    seats: int
    start_chips: int


@dataclasses.dataclass(frozen=True, slots=True)
class HandStarted:
    hand_no: int
    first: int
    commitment: str
    next_commitment: str
    client_seed: str
    server_seed: str = secret_field()
    cards: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class Added:
    seat: int
    amount: int
    total: int
    by_timeout: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class HandEnded:
    hand_no: int
    winner: int
    pot: int
    server_seed: str
    cards: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class GameEnded:
    chips: tuple[int, ...]
    winners: tuple[int, ...]


# --- state ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class CounterState:
    seats: int
    target: int
    hands: int
    start_chips: int
    chip_value: int = 0
    stake: int = 0
    chips: tuple[int, ...] = ()
    hand_no: int = 0
    total: int = 0
    pot: int = 0
    turn: int | None = None
    cards: tuple[str, ...] = ()  # secret: this hand's card of each seat
    server_seed: str = ""  # secret until the hand ends
    revealed: tuple[str, ...] = ()  # the cards of the last hand that ended
    finished: bool = False
    winners: tuple[int, ...] = ()


# --- the rules ------------------------------------------------------------------------------


def _refusal(state: CounterState, seat: int) -> str | None:
    """Why ``seat`` may not add now, or ``None`` when it may."""
    if state.finished:
        return "The game is over."
    if state.turn is None:
        return "No hand is in progress."
    if seat != state.turn:
        return f"It is seat {state.turn}'s turn, not yours."
    return None


def _max_add(state: CounterState) -> int:
    return min(MAX_ADD, state.target - state.total)


def _hand_started(state: CounterState, ctx: Context) -> HandStarted:
    if ctx.server_seed is None:
        raise ValueError("the service must pass the next hand's server seed in the context")
    cards = shuffled(deck(), ctx.server_seed, ctx.table_id, ctx.hand_no, ctx.client_seed, "deck")[: state.seats]
    return HandStarted(
        hand_no=ctx.hand_no,
        first=(ctx.hand_no - 1) % state.seats,
        commitment=commitment(ctx.server_seed),
        next_commitment=ctx.next_commitment or "",
        client_seed=ctx.client_seed,
        server_seed=ctx.server_seed.hex(),
        cards=tuple(cards),
    )


def _add(state: CounterState, seat: int, amount: int, ctx: Context, by_timeout: bool = False) -> list[Any]:
    added = Added(seat=seat, amount=amount, total=state.total + amount, by_timeout=by_timeout)
    if added.total < state.target:
        return [added]
    ended = HandEnded(
        hand_no=state.hand_no, winner=seat, pot=state.pot + amount, server_seed=state.server_seed, cards=state.cards
    )
    after = evolve(evolve(state, added), ended)
    if state.hand_no < state.hands:
        return [added, ended, _hand_started(after, ctx)]
    best = max(after.chips)
    return [
        added,
        ended,
        GameEnded(chips=after.chips, winners=tuple(s for s, c in enumerate(after.chips) if c == best)),
    ]


class CounterAudit:
    """The audit hooks (``games.engine.audit.AuditHooks``)."""

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """Every hand shuffles the 52 English cards."""
        return "english_52" if any(isinstance(event, HandStarted) for event in hand) else None

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """Seat ``i`` gets card ``i`` of the deck."""
        started = next((event for event in hand if isinstance(event, HandStarted)), None)
        if started is None:
            return ["no HandStarted event in the hand"]
        return [
            f"HandStarted: seat {seat} holds {card}, the deck deals {deck[seat]} (deck position {seat})"
            for seat, card in enumerate(started.cards)
            if card != deck[seat]
        ]

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Any) -> list[str]:
        """Re-add the hand: turns go round from ``first``, totals add up, the seat that reached the
        target wins the pot, and the cards shown at the end are the cards dealt."""
        started = next((event for event in hand if isinstance(event, HandStarted)), None)
        ended = next((event for event in hand if isinstance(event, HandEnded)), None)
        if started is None or ended is None:
            return ["the hand has no HandStarted or no HandEnded"]
        differences = []
        seats, turn, total, last = len(started.cards), started.first, 0, None
        for event in hand:
            if not isinstance(event, Added):
                continue
            if event.seat != turn:
                differences.append(f"Added: seat {event.seat} added on seat {turn}'s turn")
            total += event.amount
            if event.total != total:
                differences.append(f"Added: total {event.total}, the amounts add up to {total}")
            turn, last = (event.seat + 1) % seats, event.seat
        if ended.winner != last or ended.pot != total:
            differences.append(f"HandEnded: seat {ended.winner} won {ended.pot}; re-added, seat {last} wins {total}")
        if ended.cards != started.cards:
            differences.append("HandEnded: the cards shown are not the cards dealt")
        return differences

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """Every seat's card is shown when the hand ends; the seat that reached the target wins."""
        ended = next((event for event in hand if isinstance(event, HandEnded)), None)
        if ended is None:
            return []
        return [
            {
                "seat": seat,
                "cards": [card],
                "category": None,
                "description": "reached the target" if seat == ended.winner else "did not reach the target",
                "outcome": "wins" if seat == ended.winner else "loses",
                "tie_break": [],
            }
            for seat, card in enumerate(ended.cards)
        ]

    def history_line(self, event: Any, actor: str) -> str | None:
        if isinstance(event, Added):
            timed = " (timeout)" if event.by_timeout else ""
            return f"Seat {event.seat} ({actor}) adds {event.amount}{timed}, total {event.total}"
        return None

    def phh(self, config: Mapping[str, Any], hand: Sequence[Any], players: Sequence[str]) -> str | None:
        return None


class Counter(Rules):
    slug = "counter"
    name = "Counter (test game)"
    min_players = 2
    max_players = 6
    options = (
        Option("turn_seconds", "int", 60, 5, 3600, help="Seconds a seat has to act."),
        Option("target", "int", 21, 5, 50, help="The total that ends a hand."),
        Option("hands", "int", 1, 1, 5, help="Hands in a game."),
        Option("start_chips", "int", 100, 1, 10_000, help="Chips each seat starts with."),
    )
    event_types = (GameStarted, HandStarted, Added, HandEnded, GameEnded)
    state_type = CounterState
    audit = CounterAudit()

    def configure(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        if not self.min_players <= seats <= self.max_players:
            raise InvalidOptions(f"Counter needs {self.min_players} to {self.max_players} seats, not {seats}.")
        given = dict(options or {})
        money = {key: given.pop(key) for key in ("chip_value", "currency") if key in given}
        config = {**validate_options(self.options, given), **money}
        if config["start_chips"] < config["hands"] * config["target"]:
            raise InvalidOptions("Option 'start_chips' must be at least hands times target, so no seat runs dry.")
        return {**config, "seats": seats}

    def buy_in(self, config: Mapping[str, Any]) -> int:
        """Money a seat needs to sit down: its stake and its chips' worth."""
        return (config.get("stake") or 0) + config["start_chips"] * (config.get("chip_value") or 0)

    def initial_state(self, config: Mapping[str, Any]) -> CounterState:
        return CounterState(
            seats=config["seats"],
            target=config["target"],
            hands=config["hands"],
            start_chips=config["start_chips"],
            chip_value=config.get("chip_value", 0) or 0,
            stake=config.get("stake", 0) or 0,
            chips=(0,) * config["seats"],
        )

    def decide(self, state: CounterState, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        kind = command.get("type")
        if kind == "start":
            if state.hand_no:
                raise IllegalAction("The game has already started.")
            started = GameStarted(seats=state.seats, start_chips=state.start_chips)
            return [started, _hand_started(evolve(state, started), ctx)]
        seat = command.get("seat")
        if kind == "timeout":
            if seat != state.turn or state.finished:
                raise IllegalAction(f"Seat {seat} is not the seat the table waits for.", code="stale_timeout")
            return _add(state, seat, 1, ctx, by_timeout=True)
        if kind != "add":
            raise IllegalAction(f"Unknown action {kind!r}; send 'add'.", legal=self.legal_actions(state, seat))
        reason = _refusal(state, seat)
        if reason:
            raise IllegalAction(reason, legal=self.legal_actions(state, seat))
        amount = command.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= _max_add(state):
            raise IllegalAction(
                f"Add a whole number from 1 to {_max_add(state)}, not {amount!r}.",
                legal=self.legal_actions(state, seat),
            )
        return _add(state, seat, amount, ctx)

    def evolve(self, state: CounterState, event: Any) -> CounterState:
        return evolve(state, event)

    def view(self, state: CounterState, seat: int | None) -> dict[str, Any]:
        in_hand = state.turn is not None
        return {
            "hand_no": state.hand_no,
            "target": state.target,
            "total": state.total,
            "pot": state.pot,
            "chips": list(state.chips),
            "turn": state.turn,
            "your_card": state.cards[seat] if in_hand and seat is not None and seat < len(state.cards) else None,
            "revealed": list(state.revealed),
            "finished": state.finished,
            "winners": list(state.winners),
        }

    def view_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        type_name, data, _ = encode_event(event)
        shown = {"type": type_name, **data}
        if isinstance(event, HandStarted) and seat is not None and seat < len(event.cards):
            shown["your_card"] = event.cards[seat]
        return shown

    def legal_actions(self, state: CounterState, seat: int) -> list[dict[str, Any]]:
        if _refusal(state, seat):
            return []
        return [{"type": "add", "amount": amount} for amount in range(1, _max_add(state) + 1)]

    def to_act(self, state: CounterState) -> tuple[int, ...]:
        return () if state.turn is None else (state.turn,)

    def pending_system(self, state: CounterState) -> dict[str, Any] | None:
        return None

    def deadline(self, state: CounterState, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
        if state.turn is None or state.finished:
            return None
        return float(config["turn_seconds"]), {"type": "timeout", "seat": state.turn}

    def is_finished(self, state: CounterState) -> bool:
        return state.finished

    def settlements(self, state: CounterState, event: Any) -> list[Movement]:
        return [movement for movement in _settlements(event, state) if movement.amount]

    def bot(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
        return choose(view, legal, rng)


def evolve(state: CounterState, event: Any) -> CounterState:
    """The state after one recorded event; never re-checks the rules."""
    return _apply(event, state)


@functools.singledispatch
def _apply(event: Any, state: CounterState) -> CounterState:
    raise TypeError(f"Counter has no event {type(event).__name__}")


@_apply.register
def _(event: GameStarted, state: CounterState) -> CounterState:
    return dataclasses.replace(state, chips=(event.start_chips,) * event.seats)


@_apply.register
def _(event: HandStarted, state: CounterState) -> CounterState:
    return dataclasses.replace(
        state, hand_no=event.hand_no, total=0, pot=0, turn=event.first, cards=event.cards, server_seed=event.server_seed
    )


@_apply.register
def _(event: Added, state: CounterState) -> CounterState:
    chips = list(state.chips)
    chips[event.seat] -= event.amount
    return dataclasses.replace(
        state, chips=tuple(chips), total=event.total, pot=state.pot + event.amount, turn=(event.seat + 1) % state.seats
    )


@_apply.register
def _(event: HandEnded, state: CounterState) -> CounterState:
    chips = list(state.chips)
    chips[event.winner] += event.pot
    return dataclasses.replace(
        state, chips=tuple(chips), pot=0, turn=None, cards=(), server_seed="", revealed=event.cards
    )


@_apply.register
def _(event: GameEnded, state: CounterState) -> CounterState:
    return dataclasses.replace(state, chips=(0,) * state.seats, finished=True, winners=event.winners)


@functools.singledispatch
def _settlements(event: Any, state: CounterState) -> list[Movement]:
    return []


@_settlements.register
def _(event: GameStarted, state: CounterState) -> list[Movement]:
    moves = []
    for seat in range(event.seats):
        moves.append(Movement(("bank",), ("seat", seat), event.start_chips, "CHIP", "buy-in"))
        moves.append(
            Movement(
                ("wallet", seat), ("escrow",), state.stake + event.start_chips * state.chip_value, "MONEY", "buy-in"
            )
        )
    return moves


@_settlements.register
def _(event: Added, state: CounterState) -> list[Movement]:
    return [Movement(("seat", event.seat), ("pot",), event.amount, "CHIP", "add")]


@_settlements.register
def _(event: HandEnded, state: CounterState) -> list[Movement]:
    return [Movement(("pot",), ("seat", event.winner), event.pot, "CHIP", f"hand {event.hand_no}")]


@_settlements.register
def _(event: GameEnded, state: CounterState) -> list[Movement]:
    moves = [Movement(("seat", seat), ("bank",), chips, "CHIP", "cash-out") for seat, chips in enumerate(event.chips)]
    prize = state.stake * state.seats
    share, rest = divmod(prize, len(event.winners))
    for seat, chips in enumerate(event.chips):
        won = (share + (rest if seat == event.winners[0] else 0)) if seat in event.winners else 0
        moves.append(Movement(("escrow",), ("payout", seat), chips * state.chip_value + won, "MONEY", "payout"))
    return moves


DECIDER = Counter()


def choose(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The counter bot: add 1 whenever it may (no randomness needed)."""
    return dict(min(legal, key=lambda action: action["amount"]))
