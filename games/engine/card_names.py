"""Cards, ranks, suits and colours in words for players (CM-1, CM-2, GC-1).

Every name is a :class:`~games.engine.words.Text`, so the edge says it in the reader's language:
``card_name("Kh")`` is "the king of hearts", ``card_name("X1")`` "the joker", and in the Spanish
deck ``card_name("1c")`` is "the one of cups" and ``card_name("12e")`` "the king of swords" (the
Spanish deck's English names: the 10 is the jack, the 11 the knight). A rank also has its plural,
for "kings over fives". Codes stay the machine's; these are only what a player reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import RANK_VALUE, SPANISH_SUITS, is_joker
from games.engine.words import T, Text

# Each rank's name and its plural by the rank's value (2..14; 1 is the ace played low).
_RANKS: dict[int, tuple[Text, Text]] = {
    1: (T("ace"), T("aces")),
    2: (T("two"), T("twos")),
    3: (T("three"), T("threes")),
    4: (T("four"), T("fours")),
    5: (T("five"), T("fives")),
    6: (T("six"), T("sixes")),
    7: (T("seven"), T("sevens")),
    8: (T("eight"), T("eights")),
    9: (T("nine"), T("nines")),
    10: (T("ten"), T("tens")),
    11: (T("jack"), T("jacks")),
    12: (T("queen"), T("queens")),
    13: (T("king"), T("kings")),
    14: (T("ace"), T("aces")),
}

_SUITS: dict[str, Text] = {"c": T("clubs"), "d": T("diamonds"), "h": T("hearts"), "s": T("spades")}

# The Spanish deck by number (GC-1): 1 to 7, the 8 and 9 of the 48-card deck, then the sota (jack),
# the caballo (knight) and the rey (king); the suits are coins, cups, swords and batons.
_SPANISH_RANKS: dict[int, Text] = {
    1: T("one"),
    2: T("two"),
    3: T("three"),
    4: T("four"),
    5: T("five"),
    6: T("six"),
    7: T("seven"),
    8: T("eight"),
    9: T("nine"),
    # Its own words where the English deck's would collide in a catalogue: a language that has a
    # sota and a jack, or bastos and clubs, tells them apart.
    10: T("knave"),
    11: T("knight"),
    12: T("king"),
}

_SPANISH_SUIT_NAMES: dict[str, Text] = {"o": T("coins"), "c": T("cups"), "e": T("swords"), "b": T("batons")}

_COLOURS: dict[str, Text] = {"red": T("red"), "black": T("black")}


def _is_spanish(card: str) -> bool:
    # Only the cups (``c``) share a code with the English clubs; a two to nine of ``c`` is English
    # unless the caller says the deck is Spanish.
    return card[:-1].isdigit() and card[-1] in SPANISH_SUITS and (card[-1] != "c" or len(card) > 2 or card[0] == "1")


def rank_name(rank: int | str) -> Text:
    """A rank in words, "king", from its value (2..14, or 1 for a low ace) or its code (``"K"``)."""
    value = RANK_VALUE[rank] if isinstance(rank, str) else rank
    return _RANKS[value][0]


def rank_plural(rank: int | str) -> Text:
    """A rank's plural in words, "kings", for "kings over fives"."""
    value = RANK_VALUE[rank] if isinstance(rank, str) else rank
    return _RANKS[value][1]


def suit_name(suit: str) -> Text:
    """An English deck's suit in words, "hearts", from its code (``"h"``)."""
    return _SUITS[suit]


def colour_name(colour: str) -> Text:
    """A colour in words, "red" or "black", from its code (CM-2)."""
    return _COLOURS[colour]


def card_name(card: str, *, spanish: bool = False) -> Text:
    """A card in words with its article: "the ace of hearts", "the joker", "the one of cups".
    ``spanish`` reads a code as the Spanish deck's (GC-1); only ``2c``..``9c`` need it."""
    if is_joker(card):
        return T("the joker")
    if spanish or _is_spanish(card):
        return T("the {rank} of {suit}", rank=_SPANISH_RANKS[int(card[:-1])], suit=_SPANISH_SUIT_NAMES[card[-1]])
    return T("the {rank} of {suit}", rank=rank_name(card[0]), suit=suit_name(card[1]))


def card_names(cards: Sequence[str], *, spanish: bool = False) -> Text:
    """Several cards in words, joined: "the ace of hearts, the joker and the two of clubs"."""
    return and_list([card_name(card, spanish=spanish) for card in cards])


def and_list(items: Sequence[str]) -> Text:
    """Words joined as a list is said: "Ana", "Ana and Bruno", "Ana, Bruno and Carla"."""
    if not items:
        return T("nobody")
    if len(items) == 1:
        only = items[0]
        return only if isinstance(only, Text) else T("{name}", name=only)
    return T("{others} and {last}", others=list(items[:-1]), last=items[-1])
