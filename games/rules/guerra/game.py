"""Guerra Chevichona as a Decider: its name, options and configuration, and thin methods wiring
``decide``, ``state``, ``view``, ``settlements``, ``audit`` and ``bot``."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.engine.decider import Context, Movement, Rules
from games.engine.errors import InvalidOptions
from games.engine.options import Option, validate_options
from games.engine.words import T
from games.rules.guerra import bot, contract
from games.rules.guerra.audit import GuerraAudit
from games.rules.guerra.cards import DECKS
from games.rules.guerra.decide import deadline, decide, legal_actions
from games.rules.guerra.events import EVENT_TYPES
from games.rules.guerra.settlements import settlements
from games.rules.guerra.state import State, awaited, evolve, initial_state
from games.rules.guerra.view import view, view_event


class Guerra(Rules):
    """Guerra Chevichona (see the package docstring)."""

    slug: ClassVar[str] = "guerra"
    action_types: ClassVar[tuple[type, ...]] = contract.ACTIONS
    view_type: ClassVar[type | None] = contract.VIEW
    name: ClassVar[str] = T("Guerra Chevichona")
    # A stake per player (``amount``), not chips: the cards are what the players win and lose.
    money: ClassVar[str] = "stake"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "deck",
            "choice",
            "english",
            choices=DECKS,
            help=T("52 English cards or a 40- or 48-card Spanish deck (GC-1)."),
            label=T("Deck"),
            choice_labels={
                "english": T("English deck (52 cards)"),
                "spanish_40": T("Spanish deck (40 cards)"),
                "spanish_48": T("Spanish deck (48 cards)"),
            },
        ),
        Option("jokers", "bool", False, help=T("Add X1 and X2, above every card (GC-1)."), label=T("Jokers")),
        Option(
            "ace_high",
            "bool",
            False,
            help=T("Spanish decks only: the 1 ranks above the 12 (GC-15)."),
            label=T("Ace high"),
        ),
        Option(
            "max_rounds",
            "int",
            2000,
            minimum=10,
            maximum=100_000,
            help=T("Most cards win after this many rounds (GC-12)."),
            label=T("Most rounds"),
        ),
        Option(
            "turn_seconds",
            "int",
            60,
            minimum=5,
            maximum=3600,
            help=T("The server throws for absent players (GC-12)."),
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
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES
    state_type: ClassVar[type] = State
    audit = GuerraAudit()

    def configure(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated options with defaults, plus ``seats`` (GC-1: 2 to 8 players; GC-15: ``ace_high``
        only with a Spanish deck)."""
        if isinstance(seats, bool) or not isinstance(seats, int) or not self.min_players <= seats <= self.max_players:
            raise InvalidOptions(T("Guerra Chevichona is for 2 to 8 players, not {seats} (seats).", seats=repr(seats)))
        config = validate_options(self.options, options)
        if config["ace_high"] and config["deck"] == "english":
            raise InvalidOptions(
                T(
                    "Option '{option}' is for the Spanish decks; the English deck's ace is always high.",
                    option="ace_high",
                )
            )
        config["seats"] = seats
        return config

    def initial_state(self, config: Mapping[str, Any]) -> State:
        """A table before the deal; ``stake`` (minor units per player) comes from the service."""
        return initial_state(config)

    def decide(self, state: State, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        """A command's events, every round it makes ready played to its end (``decide.decide``)."""
        return decide(state, command, ctx)

    def evolve(self, state: State, event: Any) -> State:
        """The state after one recorded event (``state.evolve``)."""
        return evolve(event, state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What every seat sees of the match (``view.view``)."""
        return view(state, seat)

    def view_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        """An event's public fields (``view.view_event``)."""
        return view_event(event, seat)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """``throw`` while awaited for the coming round; ``sit_out``/``sit_in`` and ``leave`` while in (CM-20)."""
        return legal_actions(state, seat)

    def to_act(self, state: State) -> tuple[int, ...]:
        """The seats the coming round waits for."""
        return awaited(state)

    def pending_system(self, state: State) -> dict[str, Any] | None:
        """None: ``decide`` plays every consequence itself."""
        return None

    def deadline(self, state: State, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
        """The next ``play_round`` with ``auto_play``, else the turn timer (``decide.deadline``)."""
        return deadline(state, config)

    def is_finished(self, state: State) -> bool:
        """True once the match has ended (GC-12)."""
        return state.finished

    def settlements(self, state: State, event: Any) -> list[Movement]:
        """Stakes to escrow at the start, the escrow to the winners at the end (``settlements``)."""
        return settlements(state, event)

    def bot(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The game's bot (``bot.choose``): it throws whenever the round awaits it."""
        return bot.choose(view, legal, rng)


DECIDER = Guerra()
