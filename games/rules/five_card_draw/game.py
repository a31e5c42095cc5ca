"""Five-Card Draw as a game value: its options, the combinations it refuses (FD-18), and the
functions of the modules of this package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import between_hands
from games.engine.decider import Game
from games.engine.errors import InvalidOptions
from games.engine.options import Option, seats_said, validate_options
from games.engine.words import T, Text
from games.rules.five_card_draw import bot, contract, decide, legal, sentences, settlements, view
from games.rules.five_card_draw.audit import FiveCardDrawAudit
from games.rules.five_card_draw.cards import WILD_CHOICES
from games.rules.five_card_draw.events import EVENT_TYPES
from games.rules.five_card_draw.state import (
    CASH,
    TOURNAMENT,
    TRIPLE_DRAW,
    Settings,
    State,
    chip_counts,
    evolve,
    played_by_bot,
)
from games.rules.five_card_draw.state import initial_state as empty_table

CHIPS = 1_000_000

REFUSED = (
    T("Deuce-to-seven triple draw played high-low"),
    T("Jacks or better to open with blinds: the big blind is the opening bet"),
    T("Jacks or better to open in deuce-to-seven triple draw, which has no opening requirement"),
    T("Wild cards in deuce-to-seven triple draw or in high-low"),
    T("An ace rule in deuce-to-seven triple draw"),
    T("A minimum buy-in above the maximum buy-in, or a buy-in smaller than the forced bet"),
    T("A small blind above the big blind"),
    T(
        "A tournament with a value per chip (a tournament's stake is an amount per player), or with a cash game's buy-in options"
    ),
    T("A value per chip without a currency"),
)


OPTIONS = (
    Option(
        "variant",
        "choice",
        "standard",
        choices=("standard", TRIPLE_DRAW),
        help=T("Deuce-to-seven triple draw."),
        rules=("FD-14",),
        label=T("Variant"),
        choice_labels={"standard": T("Five-card draw"), "triple_draw_27": T("Deuce-to-seven triple draw")},
    ),
    Option(
        "betting",
        "choice",
        "no_limit",
        choices=("no_limit", "pot_limit", "fixed_limit"),
        help=T("How bets are sized: no limit, pot limit or fixed limit."),
        rules=("FD-4",),
        label=T("Betting"),
        choice_labels={"no_limit": T("No limit"), "pot_limit": T("Pot limit"), "fixed_limit": T("Fixed limit")},
    ),
    Option(
        "forced_bets",
        "choice",
        "ante",
        choices=("ante", "blinds"),
        help=T("Antes, or blinds (triple draw's default)."),
        rules=("FD-2",),
        label=T("Forced bets"),
        choice_labels={"ante": T("Antes"), "blinds": T("Blinds")},
    ),
    Option("ante_amount", "int", 1, 1, CHIPS, help=T("Chips each player antes."), rules=("FD-2",), label=T("Ante")),
    Option(
        "small_blind",
        "int",
        1,
        1,
        CHIPS,
        help=T("Chips of the small blind, posted by the player at the button's left."),
        rules=("FD-2",),
        label=T("Small blind"),
    ),
    Option(
        "big_blind",
        "int",
        2,
        1,
        CHIPS,
        help=T("Chips of the big blind, posted by the player after the small blind."),
        rules=("FD-2",),
        label=T("Big blind"),
    ),
    Option(
        "min_bet",
        "int",
        0,
        0,
        CHIPS,
        help=T("Smallest opening bet; 0 means the big blind, or the ante."),
        rules=("FD-2",),
        label=T("Minimum bet"),
    ),
    Option(
        "small_bet",
        "int",
        0,
        0,
        CHIPS,
        help=T("Fixed limit's small bet; 0 means the minimum bet."),
        rules=("FD-2", "FD-4"),
        label=T("Small bet"),
    ),
    Option(
        "big_bet",
        "int",
        0,
        0,
        CHIPS,
        help=T("Fixed limit's big bet; 0 means twice the small bet."),
        rules=("FD-2", "FD-4"),
        label=T("Big bet"),
    ),
    Option(
        "opening",
        "choice",
        "jacks_or_better",
        choices=("jacks_or_better", "anything_opens"),
        help=T("Openers with antes; anything opens with blinds."),
        rules=("FD-6",),
        label=T("Opening"),
        choice_labels={"jacks_or_better": T("Jacks or better"), "anything_opens": T("Anything opens")},
    ),
    Option(
        "ace_rule",
        "choice",
        "none",
        choices=("none", "four_with_ace", "five_with_ace"),
        help=T("How many cards a player who shows an ace may draw: no ace rule, four, or all five."),
        rules=("FD-7",),
        label=T("Ace rule"),
        choice_labels={
            "none": T("No ace rule"),
            "four_with_ace": T("Four cards with an ace"),
            "five_with_ace": T("Five cards with an ace"),
        },
    ),
    Option(
        "wild",
        "choice",
        "none",
        choices=WILD_CHOICES,
        help=T("Wild cards."),
        rules=("FD-15",),
        label=T("Wild cards"),
        choice_labels={
            "none": T("No wild cards"),
            "joker": T("One joker"),
            "jokers": T("Two jokers"),
            "deuces": T("Deuces"),
            "one_eyed_jacks": T("One-eyed jacks"),
        },
    ),
    Option(
        "shotgun",
        "bool",
        False,
        help=T("Each player's first card face up."),
        rules=("FD-16",),
        label=T("Shotgun (first card face up)"),
    ),
    Option("high_low", "bool", False, help=T("California high-low."), rules=("FD-17",), label=T("High-low")),
    Option(
        "format",
        "choice",
        CASH,
        choices=(CASH, TOURNAMENT),
        help=T(
            "Cash (buy chips, leave and cash out between hands) or tournament (one stake each, played until one player holds every chip)."
        ),
        rules=("FD-13",),
        label=T("Format"),
        choice_labels={"cash": T("Cash game"), "tournament": T("Tournament")},
    ),
    Option(
        "min_buy_in",
        "int",
        40,
        1,
        CHIPS,
        help=T("Fewest chips a cash player buys."),
        rules=("FD-13",),
        label=T("Minimum buy-in"),
    ),
    Option(
        "max_buy_in",
        "int",
        200,
        1,
        CHIPS,
        help=T("Most chips a cash player buys; a bot buys this many."),
        rules=("FD-13",),
        label=T("Maximum buy-in"),
    ),
    Option(
        "starting_stack",
        "int",
        100,
        1,
        CHIPS,
        help=T("Every tournament player's chips."),
        rules=("FD-13",),
        label=T("Starting chips"),
    ),
    Option(
        "turn_seconds",
        "int",
        30,
        5,
        3600,
        help=T("The turn timer: check, else fold; stand pat."),
        rules=("FD-21",),
        label=T("Turn time (seconds)"),
    ),
    # How long a cash table waits for a person to sit in (CM-21).
    between_hands.IDLE_OPTION,
)


def money_of(options: Mapping[str, Any] | None) -> str:
    """Chips bought at ``chip_value`` in cash games, a stake ``amount`` in tournaments (FD-13)."""
    return "stake" if (options or {}).get("format") == TOURNAMENT else "chips"


def configure(seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validated config with the defaults each choice implies; combinations that make no
    sense are refused with a message naming the conflict (FD-18)."""
    given = dict(options or {})
    if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 8:
        raise InvalidOptions(T("Five-Card Draw is for 2 to 8 players, not {seats}.", seats=seats_said(seats)))
    chip_value = given.pop("chip_value", 0)
    currency = given.pop("currency", None) or None
    triple = given.get("variant") == TRIPLE_DRAW
    given.setdefault("forced_bets", "blinds" if triple else "ante")
    if given["forced_bets"] == "blinds" or triple:
        given.setdefault("opening", "anything_opens")
    config = validate_options(OPTIONS, given)
    _refuse_combinations(config, given, chip_value)
    bet = config["big_blind"] if config["forced_bets"] == "blinds" else config["ante_amount"]
    config["min_bet"] = config["min_bet"] or bet
    config["small_bet"] = config["small_bet"] or config["min_bet"]
    config["big_bet"] = config["big_bet"] or 2 * config["small_bet"]
    if config["format"] == CASH and config["min_buy_in"] < bet:
        raise InvalidOptions(
            T(
                "The minimum buy-in ({min_buy_in}) must cover the forced bet ({bet}).",
                min_buy_in=config["min_buy_in"],
                bet=bet,
            )
        )
    if chip_value and not currency:
        raise InvalidOptions(T("A value per chip needs a currency."))
    config.update(seats=seats, chip_value=chip_value, currency=currency)
    return config


def buy_in_range(config: Mapping[str, Any]) -> tuple[int, int] | None:
    """The chips a cash player may buy (FD-13); ``None`` for a tournament."""
    if config.get("format") == TOURNAMENT:
        return None
    return int(config["min_buy_in"]), int(config["max_buy_in"])


def initial_state(config: Mapping[str, Any]) -> State:
    """A table waiting for its start."""
    names = set(Settings.__dataclass_fields__)
    fields = {key: value for key, value in config.items() if key in names}
    fields["ante"] = config["ante_amount"]
    fields["stake"] = int(config.get("stake") or 0)
    return empty_table(Settings(**fields))


def owner_actions(state: State) -> list[dict[str, Any]]:
    """FD-13: ``end_table`` while a cash table runs and its end is not yet asked for; the checks
    ``decide`` makes of the owner's ``end_table`` (over, not started, a tournament, asked)."""
    if state.finished or not state.started or state.settings.format == TOURNAMENT or state.end_requested:
        return []
    return [{"type": "end_table"}]


def _refuse_combinations(config: Mapping[str, Any], given: Mapping[str, Any], chip_value: int) -> None:
    """FD-18 and the money terms: each refusal names the conflict."""
    for refused, message in [*_variant_conflicts(config), *_money_conflicts(config, given, chip_value)]:
        if refused:
            raise InvalidOptions(message)


def _variant_conflicts(config: Mapping[str, Any]) -> list[tuple[bool, Text]]:
    """FD-18's options that cannot be played together, each with the sentence that refuses it."""
    triple = config["variant"] == TRIPLE_DRAW
    return [
        (triple and config["high_low"], T("Deuce-to-seven triple draw cannot be played high-low.")),
        (
            config["opening"] == "jacks_or_better" and config["forced_bets"] == "blinds",
            T("Jacks or better to open needs antes: with blinds the big blind is the opening bet."),
        ),
        (
            triple and config["opening"] == "jacks_or_better",
            T(
                "Jacks or better to open does not apply to deuce-to-seven triple draw, a lowball game with no opening requirement."
            ),
        ),
        (
            config["wild"] != "none" and (triple or config["high_low"]),
            T(
                "Wild cards ({wild}) cannot be played in {option}.",
                wild=_choice_words("wild", config["wild"]),
                option=_choice_words("variant", TRIPLE_DRAW) if triple else _label("high_low"),
            ),
        ),
        (
            triple and config["ace_rule"] != "none",
            T(
                "The ace rule ({ace_rule}) does not apply to deuce-to-seven triple draw, which draws up to five cards.",
                ace_rule=_choice_words("ace_rule", config["ace_rule"]),
            ),
        ),
    ]


def _label(name: str) -> str:
    """An option's name for players."""
    return next(option.label for option in OPTIONS if option.name == name)


def _choice_words(name: str, code: str) -> str:
    """A choice of an option in words for players (the code itself if it has none)."""
    option = next(option for option in OPTIONS if option.name == name)
    return option.choice_labels.get(code, code)


def _money_conflicts(config: Mapping[str, Any], given: Mapping[str, Any], chip_value: int) -> list[tuple[bool, Text]]:
    """The money terms that contradict each other or the format (FD-2, FD-13), each with its sentence."""
    return [
        (
            config["min_buy_in"] > config["max_buy_in"],
            T(
                "The minimum buy-in ({min_buy_in}) is above the maximum buy-in ({max_buy_in}).",
                min_buy_in=config["min_buy_in"],
                max_buy_in=config["max_buy_in"],
            ),
        ),
        (
            config["small_blind"] > config["big_blind"],
            T(
                "The small blind ({small_blind}) is above the big blind ({big_blind}).",
                small_blind=config["small_blind"],
                big_blind=config["big_blind"],
            ),
        ),
        (
            config["format"] == TOURNAMENT and bool(chip_value),
            T("A tournament's stake is an amount per player, not a value per chip."),
        ),
        (
            config["format"] == TOURNAMENT and bool({"min_buy_in", "max_buy_in"} & set(given)),
            T("The minimum and maximum buy-in are for cash games; a tournament has starting chips."),
        ),
        (
            config["format"] == CASH and "starting_stack" in given,
            T("Starting chips are for tournaments; in a cash game players choose their buy-in."),
        ),
    ]


# Five-Card Draw (see the package docstring).
DECIDER = Game(
    slug=view.GAME,
    former_slugs=(view.FORMER_GAME,),
    name=T("Five-Card Draw"),
    min_players=2,
    max_players=8,
    options=OPTIONS,
    event_types=EVENT_TYPES,
    state_type=State,
    configure=configure,
    initial_state=initial_state,
    decide=decide.decide,
    fold=evolve,
    # What ``seat`` may see (FD-19).
    view=view.view,
    view_event=view.view_event,
    # Betting actions with exact amounts, or draw choices; sit out, sit in and leave (CM-20)
    # whoever's turn it is: the candidates the judge lets through.
    legal_actions=legal.legal_actions,
    # The one judge of a seat's command and of the owner's: the refusal decide raises.
    refusal=legal.refusal,
    # The seat whose action the hand waits for.
    to_act=legal.to_act,
    # The turn timer (FD-21).
    deadline=decide.deadline,
    settlements=settlements.settlements,
    # The chips each seat and the pot hold (FD-12).
    chip_counts=chip_counts,
    bot=bot.choose,
    # Seats at the table whose player sat out, or left a tournament (CM-20).
    played_by_bot=played_by_bot,
    owner_actions=owner_actions,
    money_by_options=money_of,
    buy_in_range=buy_in_range,
    owner_commands=frozenset({"end_table"}),
    # Legal actions that buy chips at chip_value during play: the service narrows their range to
    # what the seat's wallet pays for (``games.selectors.offered``); the top-up (FD-13).
    chip_purchases=frozenset({"top_up"}),
    refused_combinations=REFUSED,
    action_fields=frozenset({"amount", "discard", "show", "chips"}),
    audit=FiveCardDrawAudit(),
    sentences=sentences.SENTENCES,
    action_types=contract.ACTIONS,
    view_type=contract.VIEW,
    event_extras=contract.EVENT_EXTRAS,
)
