"""Whiskey Poker as a Decider: its options and configuration, and thin methods wiring the modules
of this package."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.engine.decider import Context, Movement
from games.engine.errors import InvalidOptions
from games.engine.options import Option, validate_options
from games.engine.words import T
from games.rules.whiskey_poker import bot, contract, decide, settlements, view
from games.rules.whiskey_poker.audit import WhiskeyPokerAudit
from games.rules.whiskey_poker.events import EVENT_TYPES
from games.rules.whiskey_poker.state import LOSER_PAYS, POINTS, POT, State, evolve
from games.rules.whiskey_poker.state import Rules as TableRules
from games.rules.widow.options import EXCHANGE_OPTIONS, bad_seats, stake
from games.rules.widow.table import WidowTable


class WhiskeyPoker(WidowTable):
    """Whiskey Poker as a Decider."""

    slug: ClassVar[str] = view.GAME
    action_types: ClassVar[tuple[type, ...]] = contract.ACTIONS
    view_type: ClassVar[type | None] = contract.VIEW
    name: ClassVar[str] = T("Whiskey Poker")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 9
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "scoring",
            "choice",
            POT,
            choices=(POT, LOSER_PAYS, POINTS),
            help=T("How hands are scored (WP-5, WP-7, WP-8)."),
            label=T("Scoring"),
            choice_labels={"pot": T("Pot"), "loser_pays": T("Loser pays"), "points": T("Points")},
        ),
        Option(
            "chips_per_player",
            "int",
            10,
            1,
            100,
            help=T("Chips each player buys, pot scoring (WP-6)."),
            label=T("Chips per player"),
        ),
        Option(
            "lives", "int", 5, 1, 20, help=T("Chips without money value, when the loser pays (WP-7)."), label=T("Lives")
        ),
        Option(
            "reduced_pack",
            "bool",
            False,
            help=T("Ten up for 2 players, one rank lower per extra player; 2-7 players; implies points (WP-8)."),
            label=T("Reduced pack"),
        ),
        Option(
            "target_points",
            "int",
            5,
            1,
            50,
            help=T("Points that win, points scoring (WP-8)."),
            label=T("Points to win"),
        ),
        *EXCHANGE_OPTIONS,
    )
    # Sent by the table's owner, seated or not, rather than by a seat (WP-6).
    owner_commands: ClassVar[frozenset[str]] = frozenset({"end_match"})
    refused_combinations: ClassVar[tuple[str, ...]] = (
        T("reduced_pack with more than 7 seats (WP-8)"),
        T("reduced_pack with scoring other than points (WP-8: it implies points)"),
        T("chip_value above 0 with scoring other than pot (only pot chips have money value)"),
        T(
            "chips_per_player with scoring other than pot; lives with scoring other than loser_pays; "
            "target_points with scoring other than points"
        ),
        T("chip_value above 0 without a currency"),
    )
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES
    state_type: ClassVar[type] = State
    audit = WhiskeyPokerAudit()

    def configure(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated config: the options, ``seats`` and the stake (``chip_value`` in minor units,
        ``currency``), which the service may pass among the options or add afterwards. Options that
        belong to another scoring are refused rather than silently ignored."""
        given = dict(options or {})
        if bad_seats(seats, self.min_players, self.max_players):
            raise InvalidOptions(
                T("Whiskey Poker needs 'seats' between 2 and 9, not {seats} (WP-1).", seats=repr(seats))
            )
        chip_value, currency = stake(given)
        if given.get("reduced_pack"):
            if seats > 7:
                raise InvalidOptions(T("Option 'reduced_pack' is for 2 to 7 players, not {seats} (WP-8).", seats=seats))
            if given.setdefault("scoring", POINTS) != POINTS:
                raise InvalidOptions(
                    T(
                        "Option 'reduced_pack' implies scoring 'points', not {scoring} (WP-8).",
                        scoring=repr(given["scoring"]),
                    )
                )
        config = validate_options(self.options, given)
        scoring = config["scoring"]
        for option, mode in (("chips_per_player", POT), ("lives", LOSER_PAYS), ("target_points", POINTS)):
            if option in given and scoring != mode:
                raise InvalidOptions(
                    T(
                        "Option '{option}' applies only to scoring '{mode}', not {scoring}.",
                        option=option,
                        mode=mode,
                        scoring=repr(scoring),
                    )
                )
        if chip_value and scoring != POT:
            raise InvalidOptions(
                T(
                    "A 'chip_value' (money) applies only to scoring 'pot'; {scoring} chips have no money value.",
                    scoring=repr(scoring),
                )
            )
        config.update(seats=seats, chip_value=chip_value, currency=currency)
        return config

    def initial_state(self, config: Mapping[str, Any]) -> State:
        """A table waiting for its start command."""
        return State(
            TableRules(
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
        """The exchange moves ``seat`` may make on its turn (``decide.legal_actions``)."""
        return decide.legal_actions(state, seat)

    def owner_actions(self, state: State) -> list[dict[str, Any]]:
        """``end_match`` while the owner may end the match (WP-6, ``decide.owner_actions``)."""
        return decide.owner_actions(state)

    def to_act(self, state: State) -> tuple[int, ...]:
        """The seat whose move the game waits for."""
        return decide.to_act(state)

    def deadline(self, state: State, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
        """The turn timer (WX-7)."""
        return decide.deadline(state, config)

    def settlements(self, state: State, event: Any) -> list[Movement]:
        """Chips and money that move with ``event`` (``settlements.settlements``)."""
        return settlements.settlements(state, event)

    def bot(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The game's bot (``bot.choose``), from its own seat's view only."""
        return bot.choose(view, legal, rng)


DECIDER = WhiskeyPoker()
