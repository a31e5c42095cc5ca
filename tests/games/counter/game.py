"""Counter as a game value: its options and configuration, and the functions of the modules beside
it, built into one ``Game`` (``games.engine.decider``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.decider import Game
from games.engine.errors import InvalidOptions
from games.engine.options import Option, validate_options
from tests.games.counter import bot
from tests.games.counter.audit import CounterAudit
from tests.games.counter.decide import decide, legal_actions, to_act
from tests.games.counter.events import EVENT_TYPES
from tests.games.counter.settlements import settlements
from tests.games.counter.state import CounterState, evolve
from tests.games.counter.view import view, view_event

MIN_PLAYERS, MAX_PLAYERS = 2, 6

OPTIONS = (
    Option("turn_seconds", "int", 60, 5, 3600, help="Seconds a seat has to act.", label="Turn time (seconds)"),
    Option("target", "int", 21, 5, 50, help="The total that ends a hand.", label="Target total"),
    Option("hands", "int", 1, 1, 5, help="Hands in a game.", label="Hands"),
    Option("start_chips", "int", 100, 1, 10_000, help="Chips each seat starts with.", label="Starting chips"),
)


def configure(seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validated options plus ``seats`` and the money terms (``chip_value``, ``currency``);
    enough chips that no seat runs dry."""
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise InvalidOptions(f"Counter needs {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {seats}.")
    given = dict(options or {})
    money: dict[str, Any] = {key: given.pop(key) for key in ("chip_value", "currency") if key in given}
    config: dict[str, Any] = {**validate_options(OPTIONS, given), **money}
    if config["start_chips"] < config["hands"] * config["target"]:
        raise InvalidOptions("Option 'start_chips' must be at least hands times target, so no seat runs dry.")
    return {**config, "seats": seats}


def buy_in(config: Mapping[str, Any]) -> int:
    """Money a seat needs to sit down: its stake and its chips' worth."""
    # Both terms are whole minor units (``games.settlement.Stake``).
    return int((config.get("stake") or 0) + config["start_chips"] * (config.get("chip_value") or 0))


def initial_state(config: Mapping[str, Any]) -> CounterState:
    """The table before ``start``."""
    return CounterState(
        seats=config["seats"],
        target=config["target"],
        hands=config["hands"],
        start_chips=config["start_chips"],
        chip_value=config.get("chip_value", 0) or 0,
        stake=config.get("stake", 0) or 0,
        chips=(0,) * config["seats"],
    )


def deadline(state: CounterState, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
    """The turn timer of the seat awaited."""
    if state.turn is None or state.finished:
        return None
    return float(config["turn_seconds"]), {"type": "timeout", "seat": state.turn}


# Counter: seats take turns adding chips to the pot; who reaches the target wins it. The game is
# its facts and its modules' functions; what it leaves out (``hand_no``, ``is_finished``,
# ``pending_system``, ``chip_counts``, presence) takes the defaults every game shares.
DECIDER = Game(
    slug="counter",
    name="Counter (test game)",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=OPTIONS,
    event_types=EVENT_TYPES,
    state_type=CounterState,
    configure=configure,
    initial_state=initial_state,
    decide=decide,
    fold=evolve,
    view=view,
    view_event=view_event,
    legal_actions=legal_actions,
    to_act=to_act,
    deadline=deadline,
    settlements=settlements,
    buy_in=buy_in,
    bot=bot.choose,
    audit=CounterAudit(),
)
