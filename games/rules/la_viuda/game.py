"""La Viuda as a game value: its options and configuration, and the functions of the modules of
this package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.decider import Game
from games.engine.errors import InvalidOptions
from games.engine.options import Option, seats_said, validate_options
from games.engine.words import T
from games.rules.la_viuda import bot, contract, decide, legal, sentences, settlements, view
from games.rules.la_viuda.audit import LaViudaAudit
from games.rules.la_viuda.events import EVENT_TYPES
from games.rules.la_viuda.state import Rules as TableRules
from games.rules.la_viuda.state import State, evolve
from games.rules.widow.options import EXCHANGE_OPTIONS, bad_seats, stake
from games.rules.widow.state import chip_counts

MIN_PLAYERS, MAX_PLAYERS = 4, 7

OPTIONS = (
    Option(
        "chips_per_player",
        "int",
        3,
        1,
        10,
        help=T("Chips each player buys."),
        rules=("LV-2",),
        label=T("Chips per player"),
    ),
    Option(
        "widow_offer_seconds",
        "int",
        60,
        5,
        3600,
        help=T("Time to answer the offer of La Viuda."),
        rules=("LV-10",),
        label=T("Time to answer the widow's offer (seconds)"),
    ),
    *EXCHANGE_OPTIONS,
)


def configure(seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validated config: the options, ``seats``, and the stake (``chip_value`` in minor units,
    ``currency``) which the service may pass among the options or add afterwards."""
    given = dict(options or {})
    if bad_seats(seats, MIN_PLAYERS, MAX_PLAYERS):
        raise InvalidOptions(
            T(
                "La Viuda is for {minimum} to {maximum} players, not {seats}.",
                minimum=MIN_PLAYERS,
                maximum=MAX_PLAYERS,
                seats=seats_said(seats),
            )
        )
    chip_value, currency = stake(given)
    config = validate_options(OPTIONS, given)
    config.update(seats=seats, chip_value=chip_value, currency=currency if chip_value else None)
    return config


def initial_state(config: Mapping[str, Any]) -> State:
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


DECIDER = Game(
    slug=view.GAME,
    name=T("La Viuda"),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=OPTIONS,
    event_types=EVENT_TYPES,
    state_type=State,
    configure=configure,
    initial_state=initial_state,
    decide=decide.decide,
    fold=evolve,
    view=view.view,
    view_event=view.view_event,
    legal_actions=legal.legal_actions,
    # The one judge of a seat's command: the refusal ``decide`` raises, returned.
    refusal=legal.refusal,
    # The seat whose answer or move the game waits for.
    to_act=decide.to_act,
    # The offer deadline (LV-10) or the turn timer (WX-7).
    deadline=decide.deadline,
    settlements=settlements.settlements,
    # The chips each seat and the pot hold (``manage.py reconcile``).
    chip_counts=chip_counts,
    bot=bot.choose,
    audit=LaViudaAudit(),
    sentences=sentences.SENTENCES,
    refused_combinations=(T("A value per chip without a currency"),),
    action_types=contract.ACTIONS,
    view_type=contract.VIEW,
    event_extras=contract.EVENT_EXTRAS,
)
