"""Guerra Chevichona in players' words: the hand history's lines, the stalemate draw (GC-14) as
the view, the history and the audit say it, and the end of the match. Every sentence is a
``T``/``N`` message; players are named by ``names[seat]`` (the history's usernames, or the view's
"seat 2" where nobody's name is known). The history names cards in words ("the two of cups"): a
line is told whether the match's deck is Spanish, where ``2c``..``9c`` are cups, not clubs."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from games.engine.card_names import card_name, card_names
from games.engine.words import N, T, Text
from games.rules.guerra.events import (
    AmbushMade,
    BattleCardsLaid,
    BattleGrew,
    BattleWon,
    CardsThrown,
    ExtraCardThrown,
    ForfeitsTaken,
    MatchEnded,
    MatchStarted,
    PileShuffled,
    PlayerOut,
    RoundTaken,
    SkirmishPlayed,
    StalemateDrawn,
    ThrowSent,
)


def seat_names(seats: int) -> tuple[Text, ...]:
    """Players named by their seat, for readers who do not know the usernames (the view, the audit)."""
    return tuple(T("seat {seat}", seat=seat) for seat in range(seats))


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else T("seat {seat}", seat=seat)


def _names(names: Sequence[str], seats: Sequence[int]) -> list[str]:
    return [_name(names, seat) for seat in seats]


def deck_words(deck: str, jokers: bool) -> Text:
    """The match's deck in words (GC-1)."""
    if deck == "spanish_40":
        text = T("the 40-card Spanish deck")
    elif deck == "spanish_48":
        text = T("the 48-card Spanish deck")
    else:
        text = T("the 52-card English deck")
    return T("{deck} with two jokers", deck=text) if jokers else text


def lot_sentence(contenders: Sequence[int], drawn: int, names: Sequence[str]) -> Text:
    """GC-14: why a round was settled by lot, and who was drawn."""
    return T(
        "Settled by lot: {players} would all have been out at once, none of them having a card left to "
        "put down, so {drawn} was drawn among them in a fair draw and takes the round.",
        players=_names(names, contenders),
        drawn=_name(names, drawn),
    )


def out_sentence(reason: str, player: str, count: int) -> Text:
    """Why a player is out (GC-10, GC-11) and where their cards go."""
    if reason == "short":
        return N(
            "{player} is out: too few cards to throw this round; their {count} card goes to the round's taker.",
            "{player} is out: too few cards to throw this round; their {count} cards go to the round's taker.",
            count,
            player=player,
        )
    if reason == "no_extra":
        return N(
            "{player} is out: no extra card to break the tie; their {count} card goes to the round's taker.",
            "{player} is out: no extra card to break the tie; their {count} cards go to the round's taker.",
            count,
            player=player,
        )
    if reason == "no_battle_cards":
        return N(
            "{player} is out: no card to put face down in the battle; their {count} card goes to the round's taker.",
            "{player} is out: no card to put face down in the battle; their {count} cards go to the round's taker.",
            count,
            player=player,
        )
    if reason == "left":
        return N(
            "{player} left the table and is out; their {count} card goes to the next round's taker.",
            "{player} left the table and is out; their {count} cards go to the next round's taker.",
            count,
            player=player,
        )
    return T("{player} is out: the round just taken left them no card.", player=player)


def round_sentence(round_no: int, taker: int, count: int, ambush: bool, names: Sequence[str]) -> Text:
    """Who took a round and how many cards, as the view says it (GC-5, GC-9)."""
    if ambush:
        return N(
            "Round {round}: {player} won by ambush and took the round's {count} card.",
            "Round {round}: {player} won by ambush and took the round's {count} cards.",
            count,
            round=round_no,
            player=_name(names, taker),
        )
    return N(
        "Round {round}: {player} took the round's {count} card.",
        "Round {round}: {player} took the round's {count} cards.",
        count,
        round=round_no,
        player=_name(names, taker),
    )


def _tie_words(tie: str) -> Text:
    if tie == "battles":
        return T("the tie for most battles won")
    if tie == "ambush":
        return T("the tie between ambushes")
    return T("the tie for most skirmishes won")


def end_sentence(reason: str, winners: Sequence[int], sizes: Sequence[int], names: Sequence[str]) -> Text:
    """The end of the match (GC-12) in words."""
    piles = [
        N("{player} {count} card", "{player} {count} cards", size, player=_name(names, seat))
        for seat, size in enumerate(sizes)
    ]
    if reason == "all_cards":
        return T("The match is over: {players} holds every card and wins.", players=_names(names, winners))
    return T(
        "The match is over at the round limit: {players} with the most cards win ({piles}).",
        players=_names(names, winners),
        piles=piles,
    )


@functools.singledispatch
def history_line(event: Any, names: Sequence[str], spanish: bool = False) -> Text | None:
    """One line of the hand history for ``event``; ``None`` for an event that is not Guerra's own
    (the presence events have their own lines). ``spanish``: the match is played with a Spanish deck."""
    return None


@history_line.register
def _(event: MatchStarted, names: Sequence[str], spanish: bool = False) -> Text:
    piles = [
        N("{player} {count} card", "{player} {count} cards", size, player=_name(names, seat))
        for seat, size in enumerate(event.pile_sizes)
    ]
    return T(
        "The match starts: {deck} shuffled and dealt one card at a time, piles {piles}.",
        deck=deck_words(event.deck, event.jokers),
        piles=piles,
    )


@history_line.register
def _(event: ThrowSent, names: Sequence[str], spanish: bool = False) -> Text:
    player = _name(names, event.seat)
    if event.by_timeout:
        return T(
            "Round {round}: time ran out for {player}; the server throws for them.", round=event.round_no, player=player
        )
    return T("Round {round}: {player} is ready to throw.", round=event.round_no, player=player)


@history_line.register
def _(event: CardsThrown, names: Sequence[str], spanish: bool = False) -> Text:
    return T(
        "Round {round}: {player} throws {cards} face up.",
        round=event.round_no,
        player=_name(names, event.seat),
        cards=card_names(event.cards, spanish=spanish),
    )


@history_line.register
def _(event: PlayerOut, names: Sequence[str], spanish: bool = False) -> Text:
    sentence = out_sentence(event.reason, _name(names, event.seat), event.count)
    if event.cards:
        return T(
            "Round {round}: {sentence} Their cards: {cards}.",
            round=event.round_no,
            sentence=sentence,
            cards=card_names(event.cards, spanish=spanish),
        )
    return T("Round {round}: {sentence}", round=event.round_no, sentence=sentence)


@history_line.register
def _(event: AmbushMade, names: Sequence[str], spanish: bool = False) -> Text:
    return T(
        "Round {round}: ambush by {players}, three cards of one rank, which wins the round at once.",
        round=event.round_no,
        players=_names(names, event.seats),
    )


@history_line.register
def _(event: SkirmishPlayed, names: Sequence[str], spanish: bool = False) -> Text:
    if len(event.seats) == 1:
        return T(
            "Round {round}, skirmish {skirmish}: {player} has the highest card, {card}, and wins it.",
            round=event.round_no,
            skirmish=event.skirmish,
            player=_name(names, event.seats[0]),
            card=card_name(event.card, spanish=spanish),
        )
    return T(
        "Round {round}, skirmish {skirmish}: {players} tie at the top with {card}, so it is a battle.",
        round=event.round_no,
        skirmish=event.skirmish,
        players=_names(names, event.seats),
        card=card_name(event.card, spanish=spanish),
    )


@history_line.register
def _(event: BattleCardsLaid, names: Sequence[str], spanish: bool = False) -> Text:
    player = _name(names, event.seat)
    if not event.face_down:
        return T(
            "Round {round}, battle of skirmish {skirmish}, layer {layer}: {player} turns up {card}, their last card.",
            round=event.round_no,
            skirmish=event.skirmish,
            layer=event.layer,
            player=player,
            card=card_name(event.face_up, spanish=spanish),
        )
    return N(
        "Round {round}, battle of skirmish {skirmish}, layer {layer}: {player} lays {count} card face down "
        "({cards}) and {card} face up.",
        "Round {round}, battle of skirmish {skirmish}, layer {layer}: {player} lays {count} cards face down "
        "({cards}) and {card} face up.",
        len(event.face_down),
        round=event.round_no,
        skirmish=event.skirmish,
        layer=event.layer,
        player=player,
        cards=card_names(event.face_down, spanish=spanish),
        card=card_name(event.face_up, spanish=spanish),
    )


@history_line.register
def _(event: BattleGrew, names: Sequence[str], spanish: bool = False) -> Text:
    return T(
        "Round {round}, battle of skirmish {skirmish}: {players} tie again at the top of layer {layer}, "
        "so the battle grows by another layer.",
        round=event.round_no,
        skirmish=event.skirmish,
        players=_names(names, event.seats),
        layer=event.layer,
    )


@history_line.register
def _(event: BattleWon, names: Sequence[str], spanish: bool = False) -> Text:
    player = _name(names, event.seat)
    if event.by_draw:
        return T(
            "Round {round}: {player} wins the battle of skirmish {skirmish} by lot.",
            round=event.round_no,
            player=player,
            skirmish=event.skirmish,
        )
    if event.layers == 0:
        return T(
            "Round {round}: {player} wins the battle of skirmish {skirmish}, the only player left who could put "
            "cards down.",
            round=event.round_no,
            player=player,
            skirmish=event.skirmish,
        )
    return T(
        "Round {round}: {player} wins the battle of skirmish {skirmish} with the highest face-up card.",
        round=event.round_no,
        player=player,
        skirmish=event.skirmish,
    )


@history_line.register
def _(event: ExtraCardThrown, names: Sequence[str], spanish: bool = False) -> Text:
    return T(
        "Round {round}: {player} throws an extra card, {card}, to break {tie}.",
        round=event.round_no,
        player=_name(names, event.seat),
        card=card_name(event.card, spanish=spanish),
        tie=_tie_words(event.tie),
    )


@history_line.register
def _(event: StalemateDrawn, names: Sequence[str], spanish: bool = False) -> Text:
    return T(
        "Round {round}: {sentence}",
        round=event.round_no,
        sentence=lot_sentence(event.seats, event.seat, names),
    )


@history_line.register
def _(event: RoundTaken, names: Sequence[str], spanish: bool = False) -> Text:
    taken = N(
        "Round {round}: {player} takes the round's {count} card and puts it under their pile; the next round "
        "is a {size}-card round.",
        "Round {round}: {player} takes the round's {count} cards and puts them under their pile; the next "
        "round is a {size}-card round.",
        event.count,
        round=event.round_no,
        player=_name(names, event.seat),
        size=event.next_size,
    )
    if not event.revealed:
        return taken
    shown = [
        T("{player}: {cards}", player=_name(names, seat), cards=card_names(cards, spanish=spanish))
        for _, _, seat, cards in event.revealed
    ]
    return T("{taken} The battle's face-down cards were {shown}.", taken=taken, shown=shown)


@history_line.register
def _(event: PileShuffled, names: Sequence[str], spanish: bool = False) -> Text:
    return N(
        "Round {round}: {player}'s pile of {count} card is shuffled after the ambush, with the fair stream's "
        "draw {purpose}.",
        "Round {round}: {player}'s pile of {count} cards is shuffled after the ambush, with the fair stream's "
        "draw {purpose}.",
        event.count,
        round=event.round_no,
        player=_name(names, event.seat),
        purpose=event.purpose,
    )


@history_line.register
def _(event: ForfeitsTaken, names: Sequence[str], spanish: bool = False) -> Text:
    return N(
        "{player} takes the {count} card left by the players who left.",
        "{player} takes the {count} cards left by the players who left.",
        event.count,
        player=_name(names, event.seat),
    )


@history_line.register
def _(event: MatchEnded, names: Sequence[str], spanish: bool = False) -> Text:
    return end_sentence(event.reason, event.winners, event.pile_sizes, names)
