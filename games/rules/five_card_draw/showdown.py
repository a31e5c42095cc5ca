"""The end of a hand: the hands shown and valued by variant, and every pot awarded (FD-9..FD-11,
FD-14, FD-17, CM-16, CM-17), through the shared side-pot machinery (``games.rules.betting.pots``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from games.engine.seats import left_of, turn_order
from games.rules.betting.pots import Pot, award, side_pots
from games.rules.five_card_draw import cards
from games.rules.five_card_draw.events import PotsAwarded, PotShare, ShowdownHeld, ShownHand
from games.rules.five_card_draw.state import TRIPLE_DRAW, Settings, State


def settle(state: State) -> list[Any]:
    """The showdown (when two or more are still in) and the pots' award, as events."""
    hand = state.hand
    assert hand is not None
    settings = state.settings
    still_in = hand.in_hand()
    pots = side_pots(dict(enumerate(hand.contributed)), still_in)
    if hand.carried:
        # Chips of a hand nobody opened stay in the pot (FD-6): they belong to the main pot.
        pots = (Pot(pots[0].amount + hand.carried, pots[0].eligible), *pots[1:])
    listed = tuple((pot.amount, pot.eligible) for pot in pots)
    order = turn_order(left_of(hand.button, settings.seats), settings.seats, still_in)
    if len(still_in) == 1:
        shares = tuple(PotShare(k, still_in[0], pot.amount, "whole", False) for k, pot in enumerate(pots))
        return [PotsAwarded(listed, shares)]
    shown = tuple(show_hand(settings, seat, hand.cards[seat]) for seat in order)
    shares = split_pots(settings, pots, shown, order)
    uncalled = uncalled_pots(dict(enumerate(hand.contributed)), still_in, pots, hand.carried)
    shares = tuple(
        dataclasses.replace(share, returned="uncalled_bet") if share.pot in uncalled else share for share in shares
    )
    return [ShowdownHeld(shown, settings.wild), PotsAwarded(listed, shares)]


def uncalled_pots(
    contributed: dict[int, int], still_in: Sequence[int], pots: Sequence[Pot], carried: int
) -> frozenset[int]:
    """The pots that are an uncalled bet coming back (FD-11): one eligible seat, and every chip of
    the pot that seat's own (no folded player's chips above the others' level, no carried chips)."""
    levels = sorted({contributed.get(seat, 0) for seat in still_in} - {0})
    found = set()
    for number, pot in enumerate(pots):
        if len(pot.eligible) != 1 or number >= len(levels) or (number == 0 and carried):
            continue
        chips = contributed.get(pot.eligible[0], 0)
        below = levels[number - 1] if number else 0
        if pot.amount == min(chips, levels[number]) - min(chips, below):
            found.add(number)
    return frozenset(found)


def show_hand(settings: Settings, seat: int, held: tuple[str, ...]) -> ShownHand:
    """One hand at the showdown, valued the way the variant plays it."""
    # Descriptions are words, made when the hand is shown (``words``): the event keeps data only.
    if settings.variant == TRIPLE_DRAW:
        low = cards.low_value(held, ace_to_five=False)
        return ShownHand(seat, held, None, low, cards.low_category(held, ace_to_five=False), "")
    category = cards.high_category(held, settings.wild)
    if not settings.high_low:
        return ShownHand(seat, held, cards.high_value(held, settings.wild), None, category, "")
    return ShownHand(
        seat,
        held,
        cards.high_value(held, settings.wild),
        cards.low_value(held, ace_to_five=True),
        category,
        "",
        cards.low_category(held, ace_to_five=True),
        "",
    )


def split_pots(
    settings: Settings, pots: tuple[Pot, ...], shown: tuple[ShownHand, ...], order: tuple[int, ...]
) -> tuple[PotShare, ...]:
    """Each pot to its best eligible hand(s), odd chips from the dealer's left (FD-10, FD-11); in
    high-low each pot in two halves, the odd chip to the high half (FD-17); a pot with one
    eligible player goes back to them unshown."""
    shares: list[PotShare] = []
    if settings.variant == TRIPLE_DRAW:
        ranking = {hand.seat: hand.low for hand in shown}
        return _shares(award(pots, ranking, order), "whole")
    high = {hand.seat: hand.high for hand in shown}
    if not settings.high_low:
        return _shares(award(pots, high, order), "whole")
    low = {hand.seat: hand.low for hand in shown}
    for number, pot in enumerate(pots):
        if len(pot.eligible) == 1:
            shares.append(PotShare(number, pot.eligible[0], pot.amount, "whole", False))
            continue
        low_half = pot.amount // 2
        for half, amount, ranking in (("high", pot.amount - low_half, high), ("low", low_half, low)):
            for win in award([Pot(amount, pot.eligible)], ranking, order):
                shares.append(PotShare(number, win.seat, win.chips, half, True))
    return tuple(shares)


def _shares(wins: Any, half: str) -> tuple[PotShare, ...]:
    return tuple(PotShare(win.pot, win.seat, win.chips, half, win.shown) for win in wins)


def return_carried(state: State) -> PotsAwarded:
    """The pot of deals nobody opened (FD-6), paid without a showdown because the table ends:
    each player still at the table gets back the chips they put into it, no more (the stakes
    ``State.carried`` keeps). Chips of players no longer at the table (gone, out of a tournament)
    stay in the pot and are shared among the others (``carried_shares``)."""
    settings = state.settings
    last = state.last_hand
    button = last.button if last is not None else state.button
    stakes = tuple(state.stake_in_pot(seat) for seat in range(settings.seats))
    if sum(stakes) != state.pot:
        # A state from before the stakes were kept: that hand's players, equally (FD-10).
        players = last.players if last is not None else tuple(s for s in range(settings.seats) if state.present[s])
        share, odd = divmod(state.pot, len(players))
        stakes = tuple(
            share + (1 if seat in players and players.index(seat) < odd else 0) if seat in players else 0
            for seat in range(settings.seats)
        )
    order = turn_order(left_of(button, settings.seats), settings.seats, range(settings.seats))
    here = tuple(seat for seat in order if state.present[seat])
    shares = carried_shares(stakes, here, state.pot)
    paid = tuple(PotShare(0, seat, chips, "whole", False, "passed_deals") for seat, chips in shares if chips)
    return PotsAwarded(((state.pot, tuple(share.seat for share in paid)),), paid)


def carried_shares(stakes: Sequence[int], here: Sequence[int], pot: int) -> list[tuple[int, int]]:
    """FD-6: a passed deals' pot paid back as ``(seat, chips)``: each seat of ``here`` (the seats
    at the table, from the button's left) gets its own ``stakes``; the chips of seats gone are
    shared equally among the seats of ``here`` with a stake, odd chips from the button's left
    (FD-10), or among all of ``here`` if none has one."""
    takers = [seat for seat in here if stakes[seat]] or list(here)
    if not takers:
        raise ValueError("a carried pot is paid back to nobody at the table")
    own = {seat: stakes[seat] for seat in takers}
    share, odd = divmod(pot - sum(own.values()), len(takers))
    return [(seat, own[seat] + share + (1 if k < odd else 0)) for k, seat in enumerate(takers)]
