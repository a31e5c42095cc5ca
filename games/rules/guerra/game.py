"""Guerra Chevichona as a game value: its name, options and configuration, and the functions of
``decide``, ``legal``, ``state``, ``view``, ``settlements``, ``audit`` and ``bot``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.decider import Game
from games.engine.errors import InvalidOptions
from games.engine.options import Option, seats_said, validate_options
from games.engine.words import T
from games.rules.guerra import bot, contract, sentences
from games.rules.guerra.audit import GuerraAudit
from games.rules.guerra.cards import DECKS
from games.rules.guerra.decide import deadline, decide
from games.rules.guerra.events import EVENT_TYPES
from games.rules.guerra.legal import legal_actions, refusal
from games.rules.guerra.settlements import settlements
from games.rules.guerra.state import State, awaited, evolve, initial_state
from games.rules.guerra.view import GAME, view, view_event

MIN_PLAYERS, MAX_PLAYERS = 2, 8

OPTIONS = (
    Option(
        "deck",
        "choice",
        "english",
        choices=DECKS,
        help=T("52 English cards or a 40- or 48-card Spanish deck."),
        rules=("GC-1",),
        label=T("Deck"),
        choice_labels={
            "english": T("English deck (52 cards)"),
            "spanish_40": T("Spanish deck (40 cards)"),
            "spanish_48": T("Spanish deck (48 cards)"),
        },
    ),
    Option("jokers", "bool", False, help=T("Add two jokers, above every card."), rules=("GC-1",), label=T("Jokers")),
    Option(
        "ace_high",
        "bool",
        False,
        help=T("Spanish decks only: the 1 ranks above the 12."),
        rules=("GC-15",),
        label=T("Ace high"),
    ),
    Option(
        "max_rounds",
        "int",
        2000,
        minimum=10,
        maximum=100_000,
        help=T("Most cards win after this many rounds."),
        rules=("GC-12",),
        label=T("Most rounds"),
    ),
    Option(
        "turn_seconds",
        "int",
        60,
        minimum=5,
        maximum=3600,
        help=T("The server throws for absent players."),
        rules=("GC-12",),
        label=T("Turn time (seconds)"),
    ),
    Option(
        "auto_play",
        "bool",
        False,
        help=T("The server plays every round by itself, one every few seconds (the time between rounds)."),
        label=T("Automatic play"),
    ),
    Option(
        "round_seconds",
        "int",
        2,
        minimum=0,
        maximum=3600,
        help=T("Seconds between rounds when the server plays them."),
        label=T("Seconds between rounds"),
    ),
)


def configure(seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validated options with defaults, plus ``seats`` (GC-1: 2 to 8 players; GC-15: ``ace_high``
    only with a Spanish deck)."""
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise InvalidOptions(T("Guerra Chevichona is for 2 to 8 players, not {seats}.", seats=seats_said(seats)))
    config = validate_options(OPTIONS, options)
    if config["ace_high"] and config["deck"] == "english":
        raise InvalidOptions(
            T(
                "Option '{option}' is for the Spanish decks; the English deck's ace is always high.",
                option=T("Ace high"),
            )
        )
    config["seats"] = seats
    return config


# Guerra Chevichona (see the package docstring).
DECIDER = Game(
    slug=GAME,
    name=T("Guerra Chevichona"),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=OPTIONS,
    event_types=EVENT_TYPES,
    state_type=State,
    configure=configure,
    # A table before the deal; ``stake`` (minor units per player) comes from the service.
    initial_state=initial_state,
    # A command's events, every round it makes ready played to its end.
    decide=decide,
    fold=evolve,
    view=view,
    view_event=view_event,
    # ``throw`` while awaited for the coming round; ``sit_out``/``sit_in`` and ``leave`` while in (CM-20).
    legal_actions=legal_actions,
    # The one judge of a command, which ``decide`` raises and ``legal_actions`` filters by.
    refusal=refusal,
    # The seats the coming round waits for.
    to_act=awaited,
    # The next ``play_round`` with ``auto_play``, else the turn timer.
    deadline=deadline,
    # Stakes to escrow at the start, the escrow to the winners at the end.
    settlements=settlements,
    # It throws whenever the round awaits it.
    bot=bot.choose,
    # A stake per player (``amount``), not chips: the cards are what the players win and lose.
    money="stake",
    audit=GuerraAudit(),
    sentences=sentences.SENTENCES,
    action_types=contract.ACTIONS,
    view_type=contract.VIEW,
)
