"""Whiskey Poker as a game value: its options and configuration, and the functions of the modules
of this package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import between_hands
from games.engine.decider import Game
from games.engine.errors import InvalidOptions
from games.engine.options import Option, seats_said, validate_options
from games.engine.words import T
from games.rules.whiskey_poker import bot, contract, decide, legal, sentences, settlements, view
from games.rules.whiskey_poker.audit import WhiskeyPokerAudit
from games.rules.whiskey_poker.events import EVENT_TYPES
from games.rules.whiskey_poker.state import LOSER_PAYS, POINTS, POT, State, evolve
from games.rules.whiskey_poker.state import Rules as TableRules
from games.rules.widow.options import EXCHANGE_OPTIONS, bad_seats, stake
from games.rules.widow.state import chip_counts

MIN_PLAYERS, MAX_PLAYERS = 2, 9

OPTIONS = (
    Option(
        "scoring",
        "choice",
        POT,
        choices=(POT, LOSER_PAYS, POINTS),
        help=T("How hands are scored."),
        rules=("WP-5", "WP-7", "WP-8"),
        label=T("Scoring"),
        choice_labels={"pot": T("Pot"), "loser_pays": T("Loser pays"), "points": T("Points")},
    ),
    Option(
        "chips_per_player",
        "int",
        10,
        1,
        100,
        help=T("Chips each player buys, pot scoring."),
        rules=("WP-6",),
        label=T("Chips per player"),
    ),
    Option(
        "lives",
        "int",
        5,
        1,
        20,
        help=T("Chips without money value, when the loser pays."),
        rules=("WP-7",),
        label=T("Lives"),
    ),
    Option(
        "reduced_pack",
        "bool",
        False,
        help=T("Ten up for 2 players, one rank lower per extra player; 2-7 players; implies points."),
        rules=("WP-8",),
        label=T("Reduced pack"),
    ),
    Option(
        "target_points",
        "int",
        5,
        1,
        50,
        help=T("Points that win, points scoring."),
        rules=("WP-8",),
        label=T("Points to win"),
    ),
    *EXCHANGE_OPTIONS,
    # How long a pot-scoring match waits for a person to sit in (CM-21).
    between_hands.IDLE_OPTION,
)

REFUSED = (
    T("A reduced pack with more than 7 players"),
    T("A reduced pack with scoring other than points (a reduced pack implies points)"),
    T("A value per chip with scoring other than pot (only pot chips have money value)"),
    T(
        "Chips per player with scoring other than pot; lives with scoring other than loser pays; points to win with scoring other than points"
    ),
    T("A value per chip without a currency"),
)


def _by_name(name: str) -> Option:
    return next(option for option in OPTIONS if option.name == name)


def _scoring_words(code: Any) -> Any:
    """A scoring as players read it; what was sent, quoted, when it is no scoring."""
    words = _by_name("scoring").choice_labels.get(code) if isinstance(code, str) else None
    return words if words is not None else repr(code)


def configure(seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validated config: the options, ``seats`` and the stake (``chip_value`` in minor units,
    ``currency``), which the service may pass among the options or add afterwards. Options that
    belong to another scoring are refused rather than silently ignored."""
    given = dict(options or {})
    if bad_seats(seats, MIN_PLAYERS, MAX_PLAYERS):
        raise InvalidOptions(T("Whiskey Poker is for 2 to 9 players, not {seats}.", seats=seats_said(seats)))
    chip_value, currency = stake(given)
    if given.get("reduced_pack"):
        if seats > 7:
            raise InvalidOptions(T("A reduced pack is for 2 to 7 players, not {seats}.", seats=seats))
        if given.setdefault("scoring", POINTS) != POINTS:
            raise InvalidOptions(
                T(
                    "A reduced pack implies points scoring, not {scoring}.",
                    scoring=_scoring_words(given["scoring"]),
                )
            )
    config = validate_options(OPTIONS, given)
    scoring = config["scoring"]
    for option, mode in (("chips_per_player", POT), ("lives", LOSER_PAYS), ("target_points", POINTS)):
        if option in given and scoring != mode:
            raise InvalidOptions(
                T(
                    "Option '{option}' applies only to scoring '{mode}', not {scoring}.",
                    option=_by_name(option).label,
                    mode=_scoring_words(mode),
                    scoring=_scoring_words(scoring),
                )
            )
    if chip_value and scoring != POT:
        raise InvalidOptions(
            T(
                "Money applies only to pot scoring; the chips of {scoring} scoring have no money value.",
                scoring=_scoring_words(scoring),
            )
        )
    config.update(seats=seats, chip_value=chip_value, currency=currency)
    return config


def initial_state(config: Mapping[str, Any]) -> State:
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


DECIDER = Game(
    slug=view.GAME,
    name=T("Whiskey Poker"),
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
    # The exchange moves ``seat`` may make on its turn.
    legal_actions=legal.legal_actions,
    # ``end_match`` while the owner may end the match (WP-6).
    owner_actions=legal.owner_actions,
    # The one judge of a command, a seat's or the owner's: the refusal ``decide`` raises, returned.
    refusal=legal.refusal,
    # The seat whose move the game waits for.
    to_act=decide.to_act,
    # The turn timer (WX-7).
    deadline=decide.deadline,
    settlements=settlements.settlements,
    # The chips each seat and the pot hold (``manage.py reconcile``).
    chip_counts=chip_counts,
    bot=bot.choose,
    # Sent by the table's owner, seated or not, rather than by a seat (WP-6).
    owner_commands=frozenset({"end_match"}),
    refused_combinations=REFUSED,
    audit=WhiskeyPokerAudit(),
    sentences=sentences.SENTENCES,
    action_types=contract.ACTIONS,
    view_type=contract.VIEW,
    event_extras=contract.EVENT_EXTRAS,
)
