"""La Viuda as a Decider: its options and configuration, and thin methods wiring the modules of
this package."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.engine.decider import Context, Movement
from games.engine.errors import InvalidOptions
from games.engine.options import Option, validate_options
from games.engine.words import T
from games.rules.la_viuda import bot, contract, decide, settlements, view
from games.rules.la_viuda.audit import LaViudaAudit
from games.rules.la_viuda.events import EVENT_TYPES
from games.rules.la_viuda.state import Rules as TableRules
from games.rules.la_viuda.state import State, evolve
from games.rules.widow.options import EXCHANGE_OPTIONS, bad_seats, stake
from games.rules.widow.table import WidowTable


class LaViuda(WidowTable):
    """La Viuda as a Decider."""

    slug: ClassVar[str] = view.GAME
    action_types: ClassVar[tuple[type, ...]] = contract.ACTIONS
    view_type: ClassVar[type | None] = contract.VIEW
    name: ClassVar[str] = T("La Viuda")
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 7
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "chips_per_player", "int", 3, 1, 10, help=T("Chips each player buys (LV-2)."), label=T("Chips per player")
        ),
        Option(
            "widow_offer_seconds",
            "int",
            60,
            5,
            3600,
            help=T("Time to answer the offer of La Viuda (LV-10)."),
            label=T("Time to answer the widow's offer (seconds)"),
        ),
        *EXCHANGE_OPTIONS,
    )
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES
    state_type: ClassVar[type] = State
    audit = LaViudaAudit()
    refused_combinations: ClassVar[tuple[str, ...]] = (T("chip_value above 0 without a currency"),)

    def configure(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated config: the options, ``seats``, and the stake (``chip_value`` in minor units,
        ``currency``) which the service may pass among the options or add afterwards."""
        given = dict(options or {})
        if bad_seats(seats, self.min_players, self.max_players):
            raise InvalidOptions(
                T(
                    "La Viuda needs 'seats' between {minimum} and {maximum}, not {seats} (LV-1).",
                    minimum=self.min_players,
                    maximum=self.max_players,
                    seats=repr(seats),
                )
            )
        chip_value, currency = stake(given)
        config = validate_options(self.options, given)
        config.update(seats=seats, chip_value=chip_value, currency=currency if chip_value else None)
        return config

    def initial_state(self, config: Mapping[str, Any]) -> State:
        """A table waiting for its start command."""
        return State(
            TableRules(
                seats=config["seats"],
                chips_per_player=config["chips_per_player"],
                chip_value=config.get("chip_value", 0),
                flush_by_suit=config["flush_by_suit"],
                max_orbits=config["max_orbits"],
                currency=config.get("currency"),
            )
        )

    def decide(self, state: State, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        """The events of one command, with every automatic consequence (``decide.decide``)."""
        return decide.decide(state, command, ctx)

    def evolve(self, state: State, event: Any) -> State:
        """The state after one recorded event; never re-checks the rules."""
        return evolve(event, state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``view.view``)."""
        return view.view(state, seat)

    def view_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see of one event (``view.view_event``)."""
        return view.view_event(event, seat)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` may do now (``decide.legal_actions``)."""
        return decide.legal_actions(state, seat)

    def to_act(self, state: State) -> tuple[int, ...]:
        """The seat whose answer or move the game waits for."""
        return decide.to_act(state)

    def deadline(self, state: State, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
        """The offer deadline (LV-10) or the turn timer (WX-7)."""
        return decide.deadline(state, config)

    def settlements(self, state: State, event: Any) -> list[Movement]:
        """Chips and money that move with ``event`` (``settlements.settlements``)."""
        return settlements.settlements(state, event)

    def bot(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The game's bot (``bot.choose``), from its own seat's view only."""
        return bot.choose(view, legal, rng)


DECIDER = LaViuda()
