"""Euchre as a game value: its options and configuration, and the functions of the modules beside it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.decider import Game
from games.engine.errors import InvalidOptions
from games.engine.options import Option, validate_options
from games.engine.words import T
from games.rules.euchre import bot, contract, sentences
from games.rules.euchre.audit import EuchreAudit
from games.rules.euchre.decide import decide
from games.rules.euchre.events import EVENT_TYPES
from games.rules.euchre.legal import legal_actions, refusal, to_act
from games.rules.euchre.settlements import settlements
from games.rules.euchre.state import EuchreState, evolve
from games.rules.euchre.view import GAME, view, view_event

OPTIONS = (
    Option(
        "turn_seconds",
        "int",
        60,
        5,
        3600,
        help=T("Seconds a seat has to act before the table plays for it."),
        label=T("Turn time (seconds)"),
    ),
    Option(
        "target_points",
        "int",
        10,
        1,
        100,
        help=T("Points that win the match."),
        rules=("EU-14",),
        label=T("Points to win"),
    ),
    Option(
        "deal_pattern",
        "choice",
        "2-3",
        choices=("2-3", "3-2"),
        help=T("Packets of the deal."),
        rules=("EU-3",),
        label=T("Deal"),
        choice_labels={"2-3": T("Two cards, then three"), "3-2": T("Three cards, then two")},
    ),
    Option(
        "stick_the_dealer",
        "bool",
        False,
        help=T("The dealer may not pass in the second round."),
        rules=("EU-15",),
        label=T("Stick the dealer"),
    ),
    Option(
        "farmers_hand",
        "bool",
        False,
        help=T("A hand of nines and tens may swap with the kitty."),
        rules=("EU-16",),
        label=T("Farmer's hand"),
    ),
    Option(
        "ace_no_face",
        "bool",
        False,
        help=T("An ace with only nines and tens may ask for a redeal."),
        rules=("EU-17",),
        label=T("Ace, no face"),
    ),
    Option(
        "no_trump",
        "bool",
        False,
        help=T("A dealer stuck by the stick-the-dealer rule may call no trump."),
        rules=("EU-18",),
        label=T("No trump"),
    ),
    Option(
        "cutthroat",
        "bool",
        False,
        help=T("3 or 4 players, each on their own."),
        rules=("EU-19",),
        label=T("Cutthroat (each on their own)"),
    ),
)


def configure(seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validated options plus ``seats``; partnerships need 4 players, cutthroat 3 or 4 (EU-1,
    EU-19), and no trump needs stick the dealer (EU-18)."""
    config = validate_options(OPTIONS, options)
    if config["cutthroat"] and seats not in (3, 4):
        raise InvalidOptions(T("Cutthroat is played by 3 or 4 players, not {seats}.", seats=seats))
    if not config["cutthroat"] and seats != 4:
        raise InvalidOptions(T("Euchre in partnerships needs 4 players, not {seats}; cutthroat allows 3.", seats=seats))
    if config["no_trump"] and not config["stick_the_dealer"]:
        raise InvalidOptions(T("No trump needs stick the dealer."))
    return {**config, "seats": seats}


def initial_state(config: Mapping[str, Any]) -> EuchreState:
    """The table before ``start``; money facts (``stake``, ``currency``) come from the service."""
    seats = config["seats"]
    return EuchreState(
        seats=seats,
        target_points=config["target_points"],
        stick_the_dealer=config["stick_the_dealer"],
        farmers_hand=config["farmers_hand"],
        ace_no_face=config["ace_no_face"],
        no_trump=config["no_trump"],
        cutthroat=config["cutthroat"],
        stake=int(config.get("stake") or 0),
        currency=config.get("currency"),
        deal_patterns=(config["deal_pattern"],) * seats,
        scores=(0,) * seats,
    )


def deadline(state: EuchreState, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
    """The turn timer of the seat awaited (EU-22)."""
    awaited = to_act(state)
    if not awaited:
        return None
    return float(config.get("turn_seconds", 60)), {"type": "timeout", "seat": awaited[0]}


def is_finished(state: EuchreState) -> bool:
    """True once a side (or a cutthroat player) has won the match."""
    return state.phase == "finished"


# Euchre in partnerships or cutthroat, with its house rules as table options.
DECIDER = Game(
    slug=GAME,
    name=T("Euchre"),
    min_players=3,
    max_players=4,
    options=OPTIONS,
    event_types=EVENT_TYPES,
    state_type=EuchreState,
    configure=configure,
    initial_state=initial_state,
    decide=decide,
    fold=evolve,
    view=view,
    view_event=view_event,
    # Its moves when awaited (none for the partner of a lone maker), and sitting out, sitting in
    # or leaving whenever allowed (CM-20).
    legal_actions=legal_actions,
    # The one judge of a command, which ``decide`` raises and ``legal_actions`` filters by.
    refusal=refusal,
    to_act=to_act,
    deadline=deadline,
    is_finished=is_finished,
    # Stakes to escrow, the prize to the winners (EU-21).
    settlements=settlements,
    bot=bot.choose,
    # A stake per player (``amount``); the winning side shares the prize.
    money="stake",
    audit=EuchreAudit(),
    sentences=sentences.SENTENCES,
    action_types=contract.ACTIONS,
    view_type=contract.VIEW,
    event_extras=contract.EVENT_EXTRAS,
)
