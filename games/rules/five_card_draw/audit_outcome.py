"""Five-Card Draw's outcome re-decided from a hand's events alone (``AuditHooks.audit_outcome``):
the first dealer (CM-19) and every reshuffle (FD-8, CM-18) re-drawn from the seed, the forced bets
(FD-2), the opener's jacks or better (FD-6) and the draws (FD-7) checked, every shown hand re-valued
by the variant (CM-11..CM-17, FD-14, FD-15), and the pots re-cut from the recorded betting and
re-awarded (FD-9..FD-11, FD-17). Written apart from ``showdown`` and ``decide``: the audit
re-derives the rules rather than trusting the code that recorded them; it shares only the card
values and the side-pot arithmetic of ``games.rules.betting.pots``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.audit import Streams
from games.engine.cards import JOKERS, in_canonical_order
from games.engine.fairness import draw_for_dealer, shuffle
from games.rules.betting.pots import Pot, award, side_pots
from games.rules.five_card_draw import cards
from games.rules.five_card_draw.audit_hand import (
    Betting,
    all_of,
    betting,
    blind_seats,
    blinds,
    cards_text,
    first_of,
    pot_name,
    returned_pot,
    settlement,
)
from games.rules.five_card_draw.events import (
    CardsDealt,
    CardsDrawn,
    FirstDealerDrawn,
    ForcedBetsPosted,
    HandPassed,
    HandStarted,
    PlayerActed,
    PotsAwarded,
    ShowdownHeld,
    StockReshuffled,
    TableStarted,
)

TRIPLE_DRAW = "triple_draw_27"
# A share as compared: (pot, half, seat, chips, shown).
Share = tuple[int, str, int, int, bool]
_SHOWN_FIELDS = ("high value", "low value", "category", "low category")


def outcome_differences(config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
    """Every way the hand's recorded outcome differs from re-deciding it (see the module)."""
    differences = first_dealer_differences(hand, streams)
    started = first_of(hand, HandStarted)
    bets = betting(hand)
    if started is None or bets is None:
        return differences
    differences += reshuffle_differences(config, hand, streams)
    differences += forced_bet_differences(config, hand, started)
    differences += opening_differences(config, hand, started, bets)
    differences += draw_differences(config, hand, started)
    shown, wrong = revalue(config, hand, bets)
    differences += wrong
    differences += pot_differences(config, hand, bets, shown)
    return differences


def first_dealer_differences(hand: Sequence[Any], streams: Streams) -> list[str]:
    """CM-19 (FD-1) re-drawn from hand 1's ``first-dealer`` stream: the 52 cards shuffled, one to
    each seat in seat order, the lowest (aces low) deals, the seats tied for lowest draw again; the
    first hand's button is that dealer."""
    drawn = first_of(hand, FirstDealerDrawn)
    if drawn is None:
        return []
    table = first_of(hand, TableStarted)
    seats = list(table.players) if table is not None else sorted({seat for seat, _ in drawn.draws})
    deck = [card for card in cards.pack("none") if card not in JOKERS]
    redrawn = draw_for_dealer(shuffle(deck, streams("first-dealer")), seats)
    differences = []
    if [tuple(draw) for draw in drawn.draws] != list(redrawn.draws):
        differences.append(f"FirstDealerDrawn: draws {list(drawn.draws)}, the seed draws {list(redrawn.draws)} (CM-19)")
    if drawn.dealer != redrawn.dealer:
        differences.append(f"FirstDealerDrawn: seat {drawn.dealer} deals, the seed makes seat {redrawn.dealer} (CM-19)")
    started = first_of(hand, HandStarted)
    if started is not None and redrawn.dealer in started.players and started.button != redrawn.dealer:
        differences.append(
            f"HandStarted: seat {started.button} has the first button, the draw gives it to seat {redrawn.dealer} (FD-1)"
        )
    return differences


def reshuffle_differences(config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
    """FD-8, CM-18: the N-th reshuffle of the hand puts its cards in the deck's canonical order and
    shuffles them with the stream of purpose ``reshuffle-N``."""
    pack = cards.pack(str(config.get("wild", "none")))
    differences = []
    for number, event in enumerate(all_of(hand, StockReshuffled), start=1):
        if event.number != number:
            differences.append(f"StockReshuffled {event.number}: it is the hand's reshuffle number {number}")
        again = shuffle(in_canonical_order(event.cards, pack), streams(f"reshuffle-{number}"))
        if list(event.stock) != again:
            differences.append(
                f"StockReshuffled {event.number}: the new stock is {cards_text(event.stock)}, the seed's "
                f"reshuffle-{number} of its cards gives {cards_text(again)} (FD-8, CM-18)"
            )
    return differences


def forced_bet_differences(config: Mapping[str, Any], hand: Sequence[Any], started: HandStarted) -> list[str]:
    """FD-2: every player antes ``ante_amount``, or the small and big blind post theirs; a player
    short of it (a tournament player) posts every chip at the deal."""
    forced = first_of(hand, ForcedBetsPosted)
    if forced is None:
        return ["ForcedBetsPosted: the hand records no forced bets (FD-2)"]
    stacks = started.stacks
    if blinds(config):
        small, big = blind_seats(started)
        wanted = [(small, int(config.get("small_blind", 0))), (big, int(config.get("big_blind", 0)))]
        kind = "blinds"
    else:
        wanted = [(seat, int(config.get("ante_amount", 0))) for seat in started.players]
        kind = "ante"
    if stacks:
        wanted = [(seat, min(chips, stacks[seat])) for seat, chips in wanted]
    differences = []
    if stacks:
        # FD-2: a player who cannot post the forced bet sits the hand out (a tournament player
        # short of it posts what they have, but one with no chips is out, FD-13).
        need = 1 if config.get("format") == "tournament" else max(chips for _, chips in wanted_in_full(config))
        for seat in started.players:
            if stacks[seat] < need:
                differences.append(
                    f"HandStarted: seat {seat} is dealt in with {stacks[seat]} chips, short of the forced bet (FD-2)"
                )
    if forced.kind != kind:
        differences.append(f"ForcedBetsPosted: {forced.kind} posted, the table plays {kind} (FD-2)")
    if [tuple(post) for post in forced.posts] != wanted:
        posted = ", ".join(f"seat {seat} {chips}" for seat, chips in forced.posts)
        due = ", ".join(f"seat {seat} {chips}" for seat, chips in wanted)
        differences.append(f"ForcedBetsPosted: {posted or 'nothing'} posted, FD-2 makes it {due}")
    return differences


def wanted_in_full(config: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The forced bets in full: the ante, or both blinds (FD-2)."""
    if blinds(config):
        return [("small", int(config.get("small_blind", 0))), ("big", int(config.get("big_blind", 0)))]
    return [("ante", int(config.get("ante_amount", 0)))]


def _first_round(hand: Sequence[Any]) -> list[PlayerActed]:
    """The betting actions before the first draw (or the end of the hand)."""
    actions = []
    for event in hand:
        if type(event) in (CardsDrawn, StockReshuffled, HandPassed, ShowdownHeld, PotsAwarded):
            break
        if type(event) is PlayerActed:
            actions.append(event)
    return actions


def opening_differences(
    config: Mapping[str, Any], hand: Sequence[Any], started: HandStarted, bets: Betting
) -> list[str]:
    """FD-6 with ``jacks_or_better`` (antes only): the first bet of the first round needs a pair of
    jacks or better in the opener's dealt hand, wild cards counting; a first round played with no bet
    and two or more still in passes the hand, its pot staying for the next deal."""
    if config.get("opening") != "jacks_or_better" or blinds(config):
        return []
    dealt = first_of(hand, CardsDealt)
    forced = first_of(hand, ForcedBetsPosted)
    passed = first_of(hand, HandPassed)
    first = _first_round(hand)
    opener = next((event for event in first if event.to > 0), None)
    differences = []
    wild = str(config.get("wild", "none"))
    if opener is not None and dealt is not None:
        held = dealt.hands[opener.seat]
        if not cards.has_openers(held, wild):
            differences.append(
                f"PlayerActed: seat {opener.seat} opens ({opener.action} to {opener.to}) holding {cards_text(held)}, "
                "without a pair of jacks or better (FD-6)"
            )
    posted = dict(forced.posts) if forced else {}
    stacks = started.stacks
    # FD-20: with fewer than two players able to bet after the antes, the round is not played.
    able = [seat for seat in started.players if not stacks or stacks[seat] > posted.get(seat, 0)]
    folded = {event.seat for event in first if event.action == "fold"}
    in_after = [seat for seat in started.players if seat not in folded]
    should_pass = opener is None and len(in_after) >= 2 and len(able) >= 2
    if should_pass and passed is None:
        differences.append("HandPassed: nobody opened, yet the hand was not passed (FD-6)")
    if passed is not None and not should_pass:
        why = f"seat {opener.seat} opened" if opener is not None else "the first round was not played out"
        differences.append(f"HandPassed: the hand is recorded as passed, but {why} (FD-6)")
    if passed is not None and passed.pot != bets.total:
        differences.append(
            f"HandPassed: a pot of {passed.pot} stays, the forced bets and carried chips make {bets.total} (FD-6)"
        )
    return differences


def draw_differences(config: Mapping[str, Any], hand: Sequence[Any], started: HandStarted) -> list[str]:
    """FD-7, FD-14: in each draw every player still in draws once, in turn from the dealer's left;
    0 to 3 cards (4, or up to 5, by showing an ace under ``ace_rule``), 0 to 5 in triple draw."""
    differences = []
    dealt = first_of(hand, CardsDealt)
    held = {seat: list(dealt.hands[seat]) for seat in started.players} if dealt else {}
    folded: set[int] = set()
    draws: dict[int, list[int]] = {}
    triple = config.get("variant") == TRIPLE_DRAW
    rule = config.get("ace_rule", "none")
    for event in hand:
        if type(event) is PlayerActed and event.action == "fold":
            folded.add(event.seat)
        if type(event) is not CardsDrawn:
            continue
        seats = draws.setdefault(event.draw, [])
        due = [seat for seat in started.players if seat not in folded]
        if len(seats) < len(due) and due[len(seats)] != event.seat:
            differences.append(
                f"CardsDrawn (draw {event.draw}): seat {event.seat} draws, it is seat {due[len(seats)]}'s turn (FD-7)"
            )
        seats.append(event.seat)
        mine = held.get(event.seat, [])
        problem = _draw_problem(event, mine, triple=triple, rule=str(rule))
        if problem:
            differences.append(f"CardsDrawn (draw {event.draw}): seat {event.seat} {problem}")
        held[event.seat] = [card for card in mine if card not in event.discarded] + list(event.received)
    most = 3 if triple else 1
    if any(number not in range(1, most + 1) for number in draws):
        differences.append(f"CardsDrawn: draws numbered {sorted(draws)}, the variant has {most} (FD-7, FD-14)")
    return differences


def _draw_problem(event: CardsDrawn, held: list[str], *, triple: bool, rule: str) -> str | None:
    count, ace = event.count, event.shown_ace
    if triple:
        if count > 5 or ace is not None:
            return f"draws {count}{' showing ' + ace if ace else ''}; triple draw takes 0 to 5 (FD-14)"
        return None
    if count <= 3:
        return None if ace is None else f"shows {ace} to draw only {count} (FD-7)"
    most = {"four_with_ace": 4, "five_with_ace": 5}.get(rule, 3)
    if count > most:
        return f"draws {count}; ace_rule {rule} allows at most {most} (FD-7)"
    if ace is None or ace[0] != "A" or ace not in held:
        return f"draws {count} without showing an ace it holds (FD-7)"
    if rule == "four_with_ace" and ace in event.discarded:
        return f"discards the ace {ace} it showed; four_with_ace keeps it (FD-7)"
    return None


def revalue(
    config: Mapping[str, Any], hand: Sequence[Any], bets: Betting
) -> tuple[dict[str, dict[int, int]], list[str]]:
    """Every shown hand re-valued by the variant: the high value (CM-11..CM-14, wild cards by
    FD-15), the ace-to-five low of high-low (CM-17, FD-17) or triple draw's deuce-to-seven low
    (CM-16, FD-14), each with its category and description. Returns the values by half (``high``,
    ``low``, or ``whole`` for the one that decides a whole pot) and seat, and the differences, the
    players shown included: every player still in, from the dealer's left (FD-9)."""
    held = first_of(hand, ShowdownHeld)
    values: dict[str, dict[int, int]] = {"whole": {}, "high": {}, "low": {}}
    if held is None:
        if len(bets.still_in) > 1 and settlement(hand) is not None:
            return values, [f"ShowdownHeld: none, yet {len(bets.still_in)} players are still in (FD-9)"]
        return values, []
    differences = []
    if tuple(entry.seat for entry in held.hands) != bets.still_in:
        differences.append(
            f"ShowdownHeld: seats {[entry.seat for entry in held.hands]} show, the players still in from the "
            f"dealer's left are {list(bets.still_in)} (FD-9)"
        )
    wild = str(config.get("wild", "none"))
    triple = config.get("variant") == TRIPLE_DRAW
    high_low = bool(config.get("high_low")) and not triple
    for entry in held.hands:
        if triple:
            low = cards.low_value(entry.cards, ace_to_five=False)
            want: tuple[Any, ...] = (None, low, cards.low_category(entry.cards, ace_to_five=False), None)
            values["whole"][entry.seat] = low
        else:
            high = cards.high_value(entry.cards, wild)
            low_part: tuple[Any, ...] = (None, None)
            if high_low:
                low = cards.low_value(entry.cards, ace_to_five=True)
                low_part = (low, cards.low_category(entry.cards, ace_to_five=True))
                values["high"][entry.seat], values["low"][entry.seat] = high, low
            want = (high, low_part[0], cards.high_category(entry.cards, wild), low_part[1])
            values["whole"][entry.seat] = high
        # The descriptions are words, not re-derived: older records hold English, newer ones nothing.
        got = (entry.high, entry.low, entry.category, entry.low_category)
        for name, mine, right in zip(_SHOWN_FIELDS, got, want, strict=True):
            if mine != right:
                differences.append(
                    f"ShowdownHeld: seat {entry.seat}'s {cards_text(entry.cards)} is recorded with {name} "
                    f"{mine!r}, the variant gives {right!r}"
                )
    return values, differences


def expected_pots(bets: Betting) -> tuple[Pot, ...]:
    """FD-11: the pots cut at each contribution level of the players still in, every seat's chips
    (folded ones too) filling them; chips carried from a passed hand belong to the main pot (FD-6)."""
    if not bets.still_in:
        return ()
    pots = side_pots(bets.contributed, bets.still_in)
    if not pots:
        return (Pot(bets.carried, bets.still_in),) if bets.carried else ()
    return (Pot(pots[0].amount + bets.carried, pots[0].eligible), *pots[1:])


def expected_shares(
    config: Mapping[str, Any], bets: Betting, pots: Sequence[Pot], values: dict[str, dict[int, int]]
) -> list[Share] | None:
    """FD-9..FD-11, FD-17: each pot to its best eligible hand(s), odd chips one at a time from the
    dealer's left; in high-low each pot halved, the odd chip to the high half; a pot one player can
    win goes back to them unshown. ``None`` when a hand that could win is not shown."""
    order = bets.still_in
    if len(order) == 1:
        return [(number, "whole", order[0], pot.amount, False) for number, pot in enumerate(pots)]
    high_low = bool(config.get("high_low")) and config.get("variant") != TRIPLE_DRAW
    if any(seat not in values["whole"] for pot in pots if len(pot.eligible) > 1 for seat in pot.eligible):
        return None
    shares: list[Share] = []
    for number, pot in enumerate(pots):
        if len(pot.eligible) == 1 or not high_low:
            wins = award([pot], values["whole"], order)
            shares += [(number, "whole", win.seat, win.chips, win.shown) for win in wins]
            continue
        low_half = pot.amount // 2
        for half, amount in (("high", pot.amount - low_half), ("low", low_half)):
            wins = award([Pot(amount, pot.eligible)], values[half], order)
            shares += [(number, half, win.seat, win.chips, True) for win in wins]
    return shares


def pot_differences(
    config: Mapping[str, Any], hand: Sequence[Any], bets: Betting, values: dict[str, dict[int, int]]
) -> list[str]:
    """The recorded ``PotsAwarded`` against the pots re-cut from the betting and re-awarded; a
    passed hand's pot given back at the table's end (FD-6, FD-10) too."""
    awarded = settlement(hand)
    differences = _returned_differences(hand, bets)
    if awarded is None:
        if first_of(hand, HandPassed) is None and first_of(hand, ShowdownHeld) is not None:
            differences.append("PotsAwarded: the hand's showdown awarded no pot (FD-9)")
        return differences
    pots = expected_pots(bets)
    recorded = [(chips, tuple(eligible)) for chips, eligible in awarded.pots]
    wanted = [(pot.amount, pot.eligible) for pot in pots]
    if recorded != wanted:
        for number in range(max(len(recorded), len(wanted))):
            mine = _pot_words(recorded[number]) if number < len(recorded) else "missing"
            right = _pot_words(wanted[number]) if number < len(wanted) else "no such pot"
            if mine != right:
                differences.append(
                    f"PotsAwarded: {pot_name(number)} is {mine}; the recorded betting makes it {right} (FD-11)"
                )
    shares = expected_shares(config, bets, pots, values)
    if shares is None:
        return differences
    got = [(share.pot, share.half, share.seat, share.chips, share.shown) for share in awarded.shares]
    for key in sorted({(pot, half) for pot, half, *_ in got + shares}):
        mine_text = _shares_words([share for share in got if share[:2] == key])
        right_text = _shares_words([share for share in shares if share[:2] == key])
        if mine_text != right_text:
            number, half = key
            where = pot_name(number) if half == "whole" else f"the {half} half of {pot_name(number)}"
            differences.append(
                f"PotsAwarded: {where} goes to {mine_text}; re-awarded it goes to {right_text} (FD-9, FD-10, FD-17)"
            )
    return differences


def _pot_words(pot: tuple[int, tuple[int, ...]]) -> str:
    return f"{pot[0]} chips for seats {list(pot[1])}"


def _shares_words(shares: list[Share]) -> str:
    if not shares:
        return "nobody"
    return ", ".join(
        f"seat {seat} ({chips} chips{'' if shown else ', unshown'})" for _, _, seat, chips, shown in sorted(shares)
    )


def _returned_differences(hand: Sequence[Any], bets: Betting) -> list[str]:
    """A passed deal's pot given back when the table ends (FD-6): each player paid gets the chips
    they put in over the deals passed (the last ``HandPassed``'s ``stakes``), and the chips of
    players no longer at the table are shared equally among them, odd chips one at a time from
    the button's left (FD-10). Older records without stakes: the hand's players equally."""
    returned = returned_pot(hand)
    if returned is None:
        return []
    passed = first_of(hand, HandPassed)
    started = first_of(hand, HandStarted)
    if passed is None or started is None:
        return ["PotsAwarded: a pot is given back after a hand that was not passed (FD-6)"]
    got = [(item.seat, item.chips) for item in returned.shares]
    if passed.stakes:
        paid = {seat for seat, _ in got}
        seats = len(passed.stakes)
        order = [(started.button + k) % seats for k in range(1, seats + 1) if (started.button + k) % seats in paid]
        takers = [seat for seat in order if passed.stakes[seat]] or order
        rest = passed.pot - sum(passed.stakes[seat] for seat in takers)
        share, odd = divmod(rest, len(takers)) if takers else (0, 0)
        wanted = [(seat, passed.stakes[seat] + share + (1 if k < odd else 0)) for k, seat in enumerate(takers)]
        players = tuple(order)
    else:
        players = started.players
        share, odd = divmod(passed.pot, len(players))
        wanted = [(seat, share + (1 if k < odd else 0)) for k, seat in enumerate(players)]
    wanted = [(seat, chips) for seat, chips in wanted if chips]
    if sorted(got) != sorted(wanted) or [(p[0], tuple(p[1])) for p in returned.pots] != [
        (passed.pot, tuple(seat for seat, _ in wanted) if passed.stakes else players)
    ]:
        return [f"PotsAwarded: the passed pot of {passed.pot} goes back as {got}; FD-6 and FD-10 give {wanted}"]
    return []
