"""Commands in, events out: ``start`` deals hand 1, ``add`` adds 1 to 5 chips (never past the
target), ``timeout`` adds 1 for the absent seat. Reaching the target ends the hand and deals the
next one, or ends the game after the last."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.cards import deck
from games.engine.decider import Context
from games.engine.errors import IllegalAction
from games.engine.fairness import commitment, shuffled
from tests.games.counter.events import Added, GameEnded, GameStarted, HandEnded, HandStarted
from tests.games.counter.state import CounterState, evolve

MAX_ADD = 5


def decide(state: CounterState, command: Mapping[str, Any], ctx: Context) -> list[Any]:
    """The events ``command`` causes; ``IllegalAction`` with the legal actions if refused."""
    kind = command.get("type")
    if kind == "start":
        if state.hand_no:
            raise IllegalAction("The game has already started.")
        started = GameStarted(seats=state.seats, start_chips=state.start_chips)
        return [started, _hand_started(evolve(started, state), ctx)]
    # A command is untyped JSON: a missing or odd seat is refused below, never trusted.
    seat: Any = command.get("seat")
    if kind == "timeout":
        if seat != state.turn or state.finished:
            raise IllegalAction(f"Seat {seat} is not the seat the table waits for.", code="stale_timeout")
        return _add(state, seat, 1, ctx, by_timeout=True)
    if kind != "add":
        raise IllegalAction(f"Unknown action {kind!r}; send 'add'.", legal=legal_actions(state, seat))
    reason = refusal(state, seat)
    if reason:
        raise IllegalAction(reason, legal=legal_actions(state, seat))
    amount = command.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= max_add(state):
        raise IllegalAction(
            f"Add a whole number from 1 to {max_add(state)}, not {amount!r}.", legal=legal_actions(state, seat)
        )
    return _add(state, seat, amount, ctx)


def refusal(state: CounterState, seat: int) -> str | None:
    """Why ``seat`` may not add now, or ``None`` when it may."""
    if state.finished:
        return "The game is over."
    if state.turn is None:
        return "No hand is in progress."
    if seat != state.turn:
        return f"It is seat {state.turn}'s turn, not yours."
    return None


def max_add(state: CounterState) -> int:
    """The most a seat may add: 5, or what is left to the target."""
    return min(MAX_ADD, state.target - state.total)


def legal_actions(state: CounterState, seat: int) -> list[dict[str, Any]]:
    """Every amount ``seat`` may add now."""
    if refusal(state, seat):
        return []
    return [{"type": "add", "amount": amount} for amount in range(1, max_add(state) + 1)]


def to_act(state: CounterState) -> tuple[int, ...]:
    """The seat whose turn it is, if a hand is in progress."""
    return () if state.turn is None else (state.turn,)


def _hand_started(state: CounterState, ctx: Context) -> HandStarted:
    """The hand the context's seed deals (CM-5..CM-9): seat ``i`` gets card ``i`` of the shuffle."""
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
    after = evolve(ended, evolve(added, state))
    if state.hand_no < state.hands:
        return [added, ended, _hand_started(after, ctx)]
    best = max(after.chips)
    winners = tuple(seat for seat, chips in enumerate(after.chips) if chips == best)
    return [added, ended, GameEnded(chips=after.chips, winners=winners)]
