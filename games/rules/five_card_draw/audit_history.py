"""Five-Card Draw's hand as the audit shows it once it is over (FD-19: the audit sees every card):
the hands shown with the pots each took (``AuditHooks.showdown``) and the hand history in words
(``history_line``)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.presence import LeftTable, SatIn, SatOut
from games.engine.words import T, Text
from games.rules.five_card_draw.audit_hand import cards_text, first_of, pot_name, seats_text, settlement
from games.rules.five_card_draw.events import (
    CardsDealt,
    CardsDrawn,
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


def _where(pot: int, half: str) -> str:
    """``"the main pot"``, ``"the high half of side pot 1"``."""
    return pot_name(pot) if half == "whole" else f"the {half} half of {pot_name(pot)}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _words(category: str | None) -> str:
    return (category or "").replace("_", " ")


def showdown(config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
    """Every hand shown (FD-9), from the dealer's left: its cards, category and description (in
    high-low the low hand's too), and its outcome: ``wins`` when it took every pot (or both halves
    of one) it took alone, ``splits`` when it shared one (a tie, FD-10, or the other half in
    high-low, FD-17), ``loses`` when it took no pot another hand could win. ``pots`` lists what it
    took, side pots and halves included, a pot nobody else could win marked ``uncontested``;
    ``tie_break`` each tie it was in, split by FD-10. Empty when nothing was shown."""
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
    return [_entry(entry, shares, eligible, takers, ties) for entry in held.hands]


def _entry(
    entry: ShownHand,
    shares: list[PotShare],
    eligible: dict[int, tuple[int, ...]],
    takers: dict[int, set[int]],
    ties: list[dict[str, Any]],
) -> dict[str, Any]:
    mine = [share for share in shares if share.seat == entry.seat]
    contested = [share for share in mine if len(eligible.get(share.pot, ())) > 1]
    if not contested:
        outcome = "loses"
    elif all(takers[share.pot] == {entry.seat} for share in contested):
        outcome = "wins"
    else:
        outcome = "splits"
    pots = [
        {
            "pot": share.pot,
            "name": pot_name(share.pot),
            "half": share.half,
            "chips": share.chips,
            "uncontested": len(eligible.get(share.pot, ())) <= 1,
        }
        for share in mine
    ]
    hand_words = entry.description
    if entry.low_description is not None:
        hand_words = f"high: {entry.description}; low: {entry.low_description}"
    taken = [
        f"{_where(share.pot, share.half)} ({share.chips} chips{', uncontested' if len(eligible.get(share.pot, ())) <= 1 else ''})"
        for share in mine
    ]
    result = f"takes {', '.join(taken)}" if taken else "takes nothing"
    listed: dict[str, Any] = {
        "seat": entry.seat,
        "cards": list(entry.cards),
        "category": entry.category,
        "description": f"{hand_words}; {result}",
        "outcome": outcome,
        "won": sum(share.chips for share in mine),
        "pots": pots,
        "tie_break": [tie for tie in ties if entry.seat in tie["seats"]],
    }
    if entry.low_category is not None:
        listed["low_category"] = entry.low_category
        listed["low_description"] = entry.low_description
    return listed


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
        total = sum(share.chips for share in parts)
        amounts = ", ".join(f"{share.chips} to seat {share.seat}" for share in parts)
        odd = "" if len({share.chips for share in parts}) == 1 else ", the odd chips first from the dealer's left"
        ties.append(
            {
                "rule": "FD-10",
                "pot": pot,
                "half": half,
                "seats": seats,
                "sentence": f"{seats_text(seats)} tie for {_where(pot, half)} ({total} chips): {amounts}{odd}",
            }
        )
    return ties


# --- the history in words -------------------------------------------------------------------------


@functools.singledispatch
def history_line(event: Any, actor: str) -> str | None:
    """One readable line per event, every card shown (the hand is over); ``None`` (the audit's
    generic line) for anything that is not a Five-Card Draw event."""
    return None


@history_line.register
def _(event: TableStarted, actor: str) -> str:
    stacks = ", ".join(f"seat {seat} {_plural(event.stacks[seat], 'chip')}" for seat in event.players)
    currency = f" {event.currency}" if event.currency else ""
    if event.format == "tournament":
        money = f"a tournament, a stake of {event.stake}{currency} each"
    elif event.chip_value:
        money = f"a cash table, chips bought at {event.chip_value}{currency} each"
    else:
        money = "a cash table of play chips"
    return f"The table starts ({money}): {stacks}"


@history_line.register
def _(event: FirstDealerDrawn, actor: str) -> str:
    draws = ", ".join(f"seat {seat} {card}" for seat, card in event.draws)
    return f"Seat {event.dealer} takes the first button, drawing the lowest card (CM-19): {draws}"


@history_line.register
def _(event: HandStarted, actor: str) -> str:
    if event.stacks:
        dealt = ", ".join(f"seat {seat} ({_plural(event.stacks[seat], 'chip')})" for seat in event.players)
    else:
        dealt = ", ".join(f"seat {seat}" for seat in event.players)
    return f"Hand {event.hand_no}: seat {event.button} has the button; dealt in from its left: {dealt}"


@history_line.register
def _(event: ForcedBetsPosted, actor: str) -> str:
    if event.kind == "blinds":
        names = ("the small blind", "the big blind")
        posts = [f"seat {seat} posts {names[min(i, 1)]} of {chips}" for i, (seat, chips) in enumerate(event.posts)]
    else:
        posts = [f"seat {seat} antes {chips}" for seat, chips in event.posts]
    carried = f"; {event.carried} chips stay in the pot from the passed hand" if event.carried else ""
    return "; ".join(posts) + carried


@history_line.register
def _(event: CardsDealt, actor: str) -> str:
    dealt = []
    for seat, cards in enumerate(event.hands):
        if cards:
            face_up = f" ({cards_text(event.face_up[seat])} face up)" if event.face_up[seat] else ""
            dealt.append(f"seat {seat} {cards_text(cards)}{face_up}")
    return f"Dealt: {'; '.join(dealt)}; the stock holds {cards_text(event.stock)}"


_VERBS = {"fold": "folds", "check": "checks"}


@history_line.register
def _(event: PlayerActed, actor: str) -> str:
    who = f"seat {event.seat}" if event.timeout else actor
    if event.action in _VERBS:
        words = _VERBS[event.action]
    elif event.action == "call":
        words = f"calls {event.chips}"
    elif event.action == "bet":
        words = f"bets {event.to}"
    elif event.action == "raise":
        words = f"raises to {event.to}"
    elif event.action == "all_in":
        words = f"goes all-in for {event.chips} (to {event.to})"
    else:
        words = f"{event.action} {event.chips}"
    return f"{who} {words}{' (the turn timer acted)' if event.timeout else ''}"


@history_line.register
def _(event: StockReshuffled, actor: str) -> str:
    return (
        f"The stock runs short for seat {event.seat}: {cards_text(event.cards)} are reshuffled (reshuffle-{event.number}) "
        f"into a new stock of {event.size}: {cards_text(event.stock)}"
    )


@history_line.register
def _(event: CardsDrawn, actor: str) -> str:
    who = f"seat {event.seat}" if event.timeout else actor
    timer = " (the turn timer acted)" if event.timeout else ""
    if not event.count:
        return f"{who} stands pat{' in draw ' + str(event.draw) if event.draw > 1 else ''}{timer}"
    ace = f", showing {event.shown_ace}" if event.shown_ace else ""
    return (
        f"{who} draws {event.count}{ace}: discards {cards_text(event.discarded)}, "
        f"receives {cards_text(event.received)}{timer}"
    )


@history_line.register
def _(event: HandPassed, actor: str) -> str:
    return f"Nobody opens: the hands are dead and the pot of {event.pot} stays for the next deal (FD-6)"


@history_line.register
def _(event: ShowdownHeld, actor: str) -> str:
    shown = []
    for entry in event.hands:
        words = f"seat {entry.seat} shows {cards_text(entry.cards)}: {entry.description}"
        if entry.low_description is not None:
            words += f" / low {entry.low_description}"
        shown.append(words)
    return "; ".join(shown)


@history_line.register
def _(event: PotsAwarded, actor: str) -> str:
    lines = []
    for share in event.shares:
        where = _where(share.pot, share.half)
        size = event.pots[share.pot][0] if share.pot < len(event.pots) else share.chips
        whole = f"{share.chips} chips" if share.chips == size else f"{share.chips} of its {size} chips"
        lines.append(f"seat {share.seat} wins {where} ({whole}){'' if share.shown else ' unshown'}")
    return "; ".join(lines) or "No pot to award"


@history_line.register
def _(event: HandEnded, actor: str) -> str:
    return f"Hand {event.hand_no} ends; its server seed is revealed: {event.server_seed}"


@history_line.register
def _(event: LeaveRequested, actor: str) -> str:
    return f"{actor} asks to leave seat {event.seat}: their chips are cashed out when the hand is over"


@history_line.register
def _(event: PlayerLeft, actor: str) -> str:
    if event.reason == "no_chips":
        return f"Seat {event.seat} has no chips left and leaves the table"
    return f"Seat {event.seat} leaves the table, cashing out {_plural(event.chips, 'chip')}"


# CM-20: only the seat's own player sits out, sits in or leaves, so ``actor`` names them.
@history_line.register
def _(event: SatOut, actor: str) -> Text:
    return T("{player} sits out: the bot plays their seat", player=actor)


@history_line.register
def _(event: SatIn, actor: str) -> Text:
    return T("{player} sits in again and plays their own turns", player=actor)


@history_line.register
def _(event: LeftTable, actor: str) -> Text:
    return T("{player} leaves the table", player=actor)


@history_line.register
def _(event: PlayerEliminated, actor: str) -> str:
    return f"Seat {event.seat} is out of the tournament in place {event.place}"


@history_line.register
def _(event: TableEndRequested, actor: str) -> str:
    return f"{actor} ends the table: it ends when this hand is over"


@history_line.register
def _(event: TableEnded, actor: str) -> str:
    if event.winners:
        return f"The table ends ({event.reason}): {seats_text(event.winners)} takes the prize of {event.prize}"
    cashed = ", ".join(f"seat {seat} {chips}" for seat, chips in enumerate(event.cash_out) if chips)
    return f"The table ends ({event.reason}); chips cashed out: {cashed or 'none'}"
