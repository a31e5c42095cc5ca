"""Five-Card Draw's hand as the audit shows it once it is over (FD-19: the audit sees every card):
the hands shown with the pots each took (``AuditHooks.showdown``) and the hand history in words
(``history_line``). Every sentence is a ``T``/``N`` message; the history names players by
``names[seat]``, the showdown (which has no names) by seat. Hand descriptions are made from the
recorded hand values (``words``), never from the English an older event may carry."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.card_names import card_name, card_names
from games.engine.presence import LeftTable, SatIn, SatOut
from games.engine.words import N, T, Text
from games.rules.five_card_draw.audit_hand import first_of, settlement
from games.rules.five_card_draw.events import (
    CardsDealt,
    CardsDrawn,
    ChipsToppedUp,
    FirstDealerDrawn,
    ForcedBetsPosted,
    HandEnded,
    HandPassed,
    HandStarted,
    LeaveRequested,
    PlayerActed,
    PlayerEliminated,
    PlayerLeft,
    PotsAwarded,
    PotShare,
    ShowdownHeld,
    ShownHand,
    StockReshuffled,
    TableEnded,
    TableEndRequested,
    TableStarted,
)
from games.rules.five_card_draw.words import category_name, hand_words, low_description, pot_words, shown_wild


def _where(pot: int, half: str) -> Text:
    """ "the main pot", "the high half of side pot 1"."""
    if half == "high":
        return T("the high half of {pot}", pot=pot_words(pot))
    if half == "low":
        return T("the low half of {pot}", pot=pot_words(pot))
    return pot_words(pot)


def _held(cards: Sequence[str]) -> str:
    """Cards in words, as every game's history names them ("the ace of hearts and the king of
    diamonds"), or "no cards"; the codes stay in the hand's events."""
    return card_names(cards) if cards else T("no cards")


def _chips(count: int) -> Text:
    return N("{count} chip", "{count} chips", count)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else T("seat {seat}", seat=seat)


def showdown(config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
    """Every hand shown (FD-9), from the dealer's left: its cards, category (the machine code, and
    ``category_name`` in words) and description (in high-low the low hand's too), and its outcome:
    ``wins`` when it took every pot (or both halves of one) it took alone, ``splits`` when it
    shared one (a tie, FD-10, or the other half in high-low, FD-17), ``returned`` when it took no
    pot another hand could win but got chips back that no other hand could win (its uncalled bet,
    FD-11), ``loses`` when it took nothing. ``pots`` lists what it took, side pots and halves
    included, a pot nobody else could win marked ``uncontested`` (and ``returned`` when it was
    nothing but the seat's own uncalled bet); ``tie_break`` each tie it was in, split by FD-10.
    Empty when nothing was shown."""
    held = first_of(hand, ShowdownHeld)
    if held is None:
        return []
    awarded = settlement(hand)
    shares = list(awarded.shares) if awarded is not None else []
    eligible = {number: tuple(pot[1]) for number, pot in enumerate(awarded.pots)} if awarded else {}
    takers: dict[int, set[int]] = {}
    for share in shares:
        takers.setdefault(share.pot, set()).add(share.seat)
    ties = _ties(shares, eligible)
    wild = str(config.get("wild", "none"))
    return [_entry(entry, shares, eligible, takers, ties, wild) for entry in held.hands]


def _entry(
    entry: ShownHand,
    shares: list[PotShare],
    eligible: dict[int, tuple[int, ...]],
    takers: dict[int, set[int]],
    ties: list[dict[str, Any]],
    wild: str,
) -> dict[str, Any]:
    mine = [share for share in shares if share.seat == entry.seat]
    outcome = _outcome(entry.seat, mine, eligible, takers)
    pots = [
        {
            "pot": share.pot,
            "name": pot_words(share.pot),
            "half": share.half,
            "chips": share.chips,
            "uncontested": len(eligible.get(share.pot, ())) <= 1,
            "returned": share.returned == "uncalled_bet",
        }
        for share in mine
    ]
    result = _takes(mine, eligible)
    listed: dict[str, Any] = {
        "seat": entry.seat,
        "cards": list(entry.cards),
        "category": entry.category,
        "category_name": category_name(entry.category),
        "description": T("{hand}; {result}", hand=hand_words(entry, wild), result=result),
        "outcome": outcome,
        "won": sum(share.chips for share in mine),
        "pots": pots,
        "tie_break": [tie for tie in ties if entry.seat in tie["seats"]],
    }
    if entry.low_category is not None and entry.low is not None:
        listed["low_category"] = entry.low_category
        listed["low_category_name"] = category_name(entry.low_category)
        listed["low_description"] = low_description(entry.low, ace_to_five=True)
    return listed


def _outcome(seat: int, mine: list[PotShare], eligible: dict[int, tuple[int, ...]], takers: dict[int, set[int]]) -> str:
    """``wins``, ``splits``, ``returned`` or ``loses``, from the seat's shares (``mine``)."""
    contested = [share for share in mine if len(eligible.get(share.pot, ())) > 1]
    if not contested:
        return "returned" if mine else "loses"
    if all(takers[share.pot] == {seat} for share in contested):
        return "wins"
    return "splits"


def _takes(mine: list[PotShare], eligible: dict[int, tuple[int, ...]]) -> Text:
    """What the seat's shares (``mine``) took, in words: each pot or half, uncontested or an
    uncalled bet returned said so; or that it took nothing."""
    taken = []
    for share in mine:
        if share.returned == "uncalled_bet":
            taken.append(
                T(
                    "{pot} ({chips}, an uncalled bet returned)",
                    pot=_where(share.pot, share.half),
                    chips=_chips(share.chips),
                )
            )
        elif len(eligible.get(share.pot, ())) <= 1:
            taken.append(
                T("{pot} ({chips}, uncontested)", pot=_where(share.pot, share.half), chips=_chips(share.chips))
            )
        else:
            taken.append(T("{pot} ({chips})", pot=_where(share.pot, share.half), chips=_chips(share.chips)))
    return T("takes {pots}", pots=taken) if taken else T("takes nothing")


def _ties(shares: list[PotShare], eligible: dict[int, tuple[int, ...]]) -> list[dict[str, Any]]:
    """FD-10: each pot (or half) split between tied hands, the odd chips from the dealer's left."""
    split: dict[tuple[int, str], list[PotShare]] = {}
    for share in shares:
        split.setdefault((share.pot, share.half), []).append(share)
    ties = []
    for (pot, half), parts in split.items():
        if len(parts) < 2 or len(eligible.get(pot, ())) < 2:
            continue
        seats = [share.seat for share in parts]
        amounts = [T("{chips} to seat {seat}", chips=_chips(share.chips), seat=share.seat) for share in parts]
        values = {
            "players": [T("seat {seat}", seat=seat) for seat in seats],
            "pot": _where(pot, half),
            "total": _chips(sum(share.chips for share in parts)),
            "amounts": amounts,
        }
        if len({share.chips for share in parts}) == 1:
            sentence = T("{players} tie for {pot} ({total}) and split it evenly: {amounts}.", **values)
        else:
            sentence = T(
                "{players} tie for {pot} ({total}) and split it: {amounts}, the odd chips going first to the "
                "player nearest the dealer's left.",
                **values,
            )
        ties.append({"rule": "FD-10", "pot": pot, "half": half, "seats": seats, "sentence": sentence})
    return ties


# --- the history in words -------------------------------------------------------------------------


@functools.singledispatch
def history_line(event: Any, names: Sequence[str]) -> Text | None:
    """One line per event in words, players by name, every card shown (the hand is over); ``None``
    for anything that is not a Five-Card Draw event (presence has its own lines)."""
    return None


def _stacks(names: Sequence[str], seats: Sequence[int], stacks: Sequence[int]) -> list[Text]:
    return [T("{player} {chips}", player=_name(names, seat), chips=_chips(stacks[seat])) for seat in seats]


@history_line.register
def _(event: TableStarted, names: Sequence[str]) -> Text:
    stacks = _stacks(names, event.players, event.stacks)
    currency = event.currency or ""
    if event.format == "tournament":
        return T(
            "The table starts, a tournament with a stake of {stake} {currency} each: {stacks}.",
            stake=event.stake,
            currency=currency,
            stacks=stacks,
        )
    if event.chip_value:
        return T(
            "The table starts, a cash table with chips bought at {value} {currency} each: {stacks}.",
            value=event.chip_value,
            currency=currency,
            stacks=stacks,
        )
    return T("The table starts, a cash table of play chips: {stacks}.", stacks=stacks)


@history_line.register
def _(event: FirstDealerDrawn, names: Sequence[str]) -> Text:
    draws = [T("{player} {card}", player=_name(names, seat), card=card_name(card)) for seat, card in event.draws]
    return T(
        "{player} takes the first button, having drawn the lowest card: {draws}.",
        player=_name(names, event.dealer),
        draws=draws,
    )


@history_line.register
def _(event: HandStarted, names: Sequence[str]) -> Text:
    if event.stacks:
        dealt: list[Any] = _stacks(names, event.players, event.stacks)
    else:
        dealt = [_name(names, seat) for seat in event.players]
    return T(
        "Hand {hand}: {player} has the button; dealt in from its left: {dealt}.",
        hand=event.hand_no,
        player=_name(names, event.button),
        dealt=dealt,
    )


@history_line.register
def _(event: ForcedBetsPosted, names: Sequence[str]) -> Text:
    posts: list[Text] = []
    for i, (seat, chips) in enumerate(event.posts):
        if event.kind != "blinds":
            posts.append(T("{player} antes {chips}", player=_name(names, seat), chips=_chips(chips)))
        elif i == 0:
            posts.append(T("{player} posts the small blind of {chips}", player=_name(names, seat), chips=_chips(chips)))
        else:
            posts.append(T("{player} posts the big blind of {chips}", player=_name(names, seat), chips=_chips(chips)))
    if event.carried:
        return N(
            "{posts}; {count} chip stays in the pot from the passed hand.",
            "{posts}; {count} chips stay in the pot from the passed hand.",
            event.carried,
            posts=posts,
        )
    return T("{posts}.", posts=posts)


@history_line.register
def _(event: CardsDealt, names: Sequence[str]) -> Text:
    dealt = []
    for seat, cards in enumerate(event.hands):
        if not cards:
            continue
        if event.face_up[seat]:
            dealt.append(
                T(
                    "{player} {cards} ({up} face up)",
                    player=_name(names, seat),
                    cards=_held(cards),
                    up=_held(event.face_up[seat]),
                )
            )
        else:
            dealt.append(T("{player} {cards}", player=_name(names, seat), cards=_held(cards)))
    return T("Dealt: {dealt}; the stock holds {stock}.", dealt=dealt, stock=_held(event.stock))


def _act(event: PlayerActed, player: str) -> Text:
    if event.action == "fold":
        return T("{player} folds", player=player)
    if event.action == "check":
        return T("{player} checks", player=player)
    if event.action == "call":
        return T("{player} calls {chips}", player=player, chips=_chips(event.chips))
    if event.action == "bet":
        return T("{player} bets {to}", player=player, to=_chips(event.to))
    if event.action == "raise":
        return T("{player} raises to {to}", player=player, to=_chips(event.to))
    return T("{player} goes all-in for {chips}, to {to}", player=player, chips=_chips(event.chips), to=_chips(event.to))


@history_line.register
def _(event: PlayerActed, names: Sequence[str]) -> Text:
    acted = _act(event, _name(names, event.seat))
    if event.timeout:
        return T("{acted}: the turn timer acted.", acted=acted)
    return T("{acted}.", acted=acted)


@history_line.register
def _(event: StockReshuffled, names: Sequence[str]) -> Text:
    return T(
        "The stock runs short for {player}: {cards} are reshuffled (fair draw reshuffle-{number}) into a new stock "
        "of {size}: {stock}.",
        player=_name(names, event.seat),
        cards=_held(event.cards),
        number=event.number,
        size=_cards(event.size),
        stock=_held(event.stock),
    )


def _cards(count: int) -> Text:
    return N("{count} card", "{count} cards", count)


@history_line.register
def _(event: CardsDrawn, names: Sequence[str]) -> Text:
    player = _name(names, event.seat)
    if not event.count:
        drew = T("{player} stands pat in draw {draw}", player=player, draw=event.draw)
    elif event.shown_ace:
        drew = N(
            "{player} draws {count} card in draw {draw}, showing {ace}: discards {discarded}, receives {received}",
            "{player} draws {count} cards in draw {draw}, showing {ace}: discards {discarded}, receives {received}",
            event.count,
            player=player,
            draw=event.draw,
            ace=event.shown_ace,
            discarded=_held(event.discarded),
            received=_held(event.received),
        )
    else:
        drew = N(
            "{player} draws {count} card in draw {draw}: discards {discarded}, receives {received}",
            "{player} draws {count} cards in draw {draw}: discards {discarded}, receives {received}",
            event.count,
            player=player,
            draw=event.draw,
            discarded=_held(event.discarded),
            received=_held(event.received),
        )
    if event.timeout:
        return T("{drew}: the turn timer acted.", drew=drew)
    return T("{drew}.", drew=drew)


@history_line.register
def _(event: HandPassed, names: Sequence[str]) -> Text:
    return T(
        "Nobody opens: the hands are dead and the pot of {chips} stays for the next deal.", chips=_chips(event.pot)
    )


@history_line.register
def _(event: ShowdownHeld, names: Sequence[str]) -> Text:
    shown = [
        T(
            "{player} shows {cards}, {hand}",
            player=_name(names, entry.seat),
            cards=_held(entry.cards),
            hand=hand_words(entry, shown_wild(event)),
        )
        for entry in event.hands
    ]
    return T("Showdown: {shown}.", shown=shown)


@history_line.register
def _(event: PotsAwarded, names: Sequence[str]) -> Text:
    won = []
    for share in event.shares:
        size = event.pots[share.pot][0] if share.pot < len(event.pots) else share.chips
        values = {
            "player": _name(names, share.seat),
            "pot": _where(share.pot, share.half),
            "chips": _chips(share.chips),
        }
        if share.returned == "uncalled_bet":
            won.append(T("{player} gets back an uncalled bet of {chips} ({pot})", **values))
        elif share.returned == "passed_deals":
            won.append(
                T("{player} gets back {chips} of the passed deals' pot", player=values["player"], chips=values["chips"])
            )
        elif share.chips == size and share.shown:
            won.append(T("{player} wins {pot} ({chips})", **values))
        elif share.chips == size:
            won.append(T("{player} wins {pot} ({chips}) unshown", **values))
        elif share.shown:
            won.append(T("{player} wins {chips} of {pot}'s {size}", size=_chips(size), **values))
        else:
            won.append(T("{player} wins {chips} of {pot}'s {size} unshown", size=_chips(size), **values))
    if not won:
        return T("No pot to award.")
    return T("{won}.", won=won)


@history_line.register
def _(event: HandEnded, names: Sequence[str]) -> Text:
    return T("Hand {hand} ends; its server seed is revealed: {seed}.", hand=event.hand_no, seed=event.server_seed)


@history_line.register
def _(event: LeaveRequested, names: Sequence[str]) -> Text:
    return T(
        "{player} asks to leave: their chips are cashed out when the hand is over.", player=_name(names, event.seat)
    )


@history_line.register
def _(event: PlayerLeft, names: Sequence[str]) -> Text:
    player = _name(names, event.seat)
    if event.reason == "no_chips":
        return T("{player} has no chips left and leaves the table.", player=player)
    return T("{player} leaves the table, cashing out {chips}.", player=player, chips=_chips(event.chips))


@history_line.register
def _(event: ChipsToppedUp, names: Sequence[str]) -> Text:
    return T("{player} tops up, buying {chips} more.", player=_name(names, event.seat), chips=_chips(event.chips))


# CM-20: sitting out, sitting in and leaving.
@history_line.register
def _(event: SatOut, names: Sequence[str]) -> Text:
    return T("{player} sits out: the bot plays for them.", player=_name(names, event.seat))


@history_line.register
def _(event: SatIn, names: Sequence[str]) -> Text:
    return T("{player} sits in again and plays their own turns.", player=_name(names, event.seat))


@history_line.register
def _(event: LeftTable, names: Sequence[str]) -> Text:
    return T("{player} leaves the table.", player=_name(names, event.seat))


@history_line.register
def _(event: PlayerEliminated, names: Sequence[str]) -> Text:
    return T("{player} is out of the tournament in place {place}.", player=_name(names, event.seat), place=event.place)


@history_line.register
def _(event: TableEndRequested, names: Sequence[str]) -> Text:
    return T("The owner ends the table: it ends when this hand is over.")


def _end_reason(reason: str) -> Text:
    if reason == "owner_ended":
        return T("the owner ended it")
    if reason == "no_people_left":
        return T("no people are left at it")
    return T("one player is left")


@history_line.register
def _(event: TableEnded, names: Sequence[str]) -> Text:
    why = _end_reason(event.reason)
    if event.winners:
        return T(
            "The table ends, {why}: {players} takes the prize of {prize}.",
            why=why,
            players=[_name(names, seat) for seat in event.winners],
            prize=event.prize,
        )
    cashed = [
        T("{player} {chips}", player=_name(names, seat), chips=_chips(chips))
        for seat, chips in enumerate(event.cash_out)
        if chips
    ]
    if not cashed:
        return T("The table ends, {why}; no chips to cash out.", why=why)
    return T("The table ends, {why}; chips cashed out: {cashed}.", why=why, cashed=cashed)
