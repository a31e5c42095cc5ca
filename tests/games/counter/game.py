"""The Counter Decider: its options and configuration, and thin methods wiring the modules beside it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.engine.decider import Context, Movement, Rules
from games.engine.errors import InvalidOptions
from games.engine.options import Option, validate_options
from tests.games.counter import bot
from tests.games.counter.audit import CounterAudit
from tests.games.counter.decide import decide, legal_actions, to_act
from tests.games.counter.events import EVENT_TYPES
from tests.games.counter.settlements import settlements
from tests.games.counter.state import CounterState, evolve
from tests.games.counter.view import view, view_event

OPTIONS = (
    Option("turn_seconds", "int", 60, 5, 3600, help="Seconds a seat has to act.", label="Turn time (seconds)"),
    Option("target", "int", 21, 5, 50, help="The total that ends a hand.", label="Target total"),
    Option("hands", "int", 1, 1, 5, help="Hands in a game.", label="Hands"),
    Option("start_chips", "int", 100, 1, 10_000, help="Chips each seat starts with.", label="Starting chips"),
)


class Counter(Rules):
    """Counter: seats take turns adding chips to the pot; who reaches the target wins it."""

    slug: ClassVar[str] = "counter"
    name: ClassVar[str] = "Counter (test game)"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES
    state_type: ClassVar[type] = CounterState
    audit = CounterAudit()

    def configure(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated options plus ``seats`` and the money terms (``chip_value``, ``currency``);
        enough chips that no seat runs dry."""
        if not self.min_players <= seats <= self.max_players:
            raise InvalidOptions(f"Counter needs {self.min_players} to {self.max_players} seats, not {seats}.")
        given = dict(options or {})
        money: dict[str, Any] = {key: given.pop(key) for key in ("chip_value", "currency") if key in given}
        config: dict[str, Any] = {**validate_options(OPTIONS, given), **money}
        if config["start_chips"] < config["hands"] * config["target"]:
            raise InvalidOptions("Option 'start_chips' must be at least hands times target, so no seat runs dry.")
        return {**config, "seats": seats}

    def buy_in(self, config: Mapping[str, Any]) -> int:
        """Money a seat needs to sit down: its stake and its chips' worth."""
        # Both terms are whole minor units (``games.settlement.Stake``).
        return int((config.get("stake") or 0) + config["start_chips"] * (config.get("chip_value") or 0))

    def initial_state(self, config: Mapping[str, Any]) -> CounterState:
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

    def decide(self, state: CounterState, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        """The events ``command`` causes (``decide.py``)."""
        return decide(state, command, ctx)

    def evolve(self, state: CounterState, event: Any) -> CounterState:
        """The state after one recorded event (``state.py``)."""
        return evolve(event, state)

    def view(self, state: CounterState, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees (``view.py``)."""
        return view(state, seat)

    def view_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees of one event (``view.py``)."""
        return view_event(event, seat)

    def legal_actions(self, state: CounterState, seat: int) -> list[dict[str, Any]]:
        """The amounts ``seat`` may add now."""
        return legal_actions(state, seat)

    def to_act(self, state: CounterState) -> tuple[int, ...]:
        """The seat whose turn it is."""
        return to_act(state)

    def pending_system(self, state: CounterState) -> dict[str, Any] | None:
        """Nothing: ``decide`` deals the next hand itself."""
        return None

    def deadline(self, state: CounterState, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
        """The turn timer of the seat awaited."""
        if state.turn is None or state.finished:
            return None
        return float(config["turn_seconds"]), {"type": "timeout", "seat": state.turn}

    def is_finished(self, state: CounterState) -> bool:
        """True after the last hand."""
        return state.finished

    def settlements(self, state: CounterState, event: Any) -> list[Movement]:
        """The chips and money ``event`` moves (``settlements.py``)."""
        return settlements(state, event)

    def bot(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The counter bot (``bot.choose``)."""
        return bot.choose(view, legal, rng)


DECIDER = Counter()
