"""Euchre's audit hooks (``games.engine.decider.Auditable``): the deck a hand shuffled, its deal
checked against the recomputed deck (EU-3), its tricks and points re-decided (EU-8..EU-13), the
hand as the audit shows it and its history in words. Pure: it reads the hand's recorded events only.

A hand's events run from its ``HandStarted`` to its ``HandEnded`` (and ``MatchWon`` after the last
hand); hand 1 also holds the table's ``MatchStarted`` with the first-dealer draw (CM-19).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine.audit import NoExports
from games.engine.fairness import shuffle
from games.rules.euchre.cards import DECK, SUIT_NAMES, deal_hands, draw_first_dealer, effective_suit, trick_winner
from games.rules.euchre.events import (
    AceNoFaceDeclared,
    CardPlayed,
    ClaimDeclined,
    DealerDiscarded,
    DealPatternChosen,
    FarmersHandSwapped,
    HandEnded,
    HandStarted,
    MatchStarted,
    MatchWon,
    Passed,
    TrickTaken,
    TrumpMade,
)

DECK_NAME = "euchre_24"


def _first(hand: Sequence[Any], kind: type) -> Any:
    return next((event for event in hand if isinstance(event, kind)), None)


def _cards(cards: Sequence[str]) -> str:
    return " ".join(cards) or "nothing"


def deck_name(hand: Sequence[Any]) -> str | None:
    """``euchre_24`` when the hand dealt (EU-2: every variant shuffles the same 24 cards)."""
    return DECK_NAME if _first(hand, HandStarted) is not None else None


# --- the deal ----------------------------------------------------------------------------------


def deal_differences(deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
    """Every way the hand's events differ from dealing ``deck`` in EU-3's packets: the deck
    ``HandStarted`` recorded, its turned card, and every card the events later show a seat holding
    (a farmer's hand or ace-no-face shown, the dealer's pick-up and discard, the cards played, the
    hands and kitty ``HandEnded`` reveals) followed from that deal."""
    started = _first(hand, HandStarted)
    if started is None:
        return ["no HandStarted event in the hand"]
    differences = [
        f"HandStarted: deck position {i} is {card}, the seed gives {deck[i] if i < len(deck) else None}"
        for i, card in enumerate(started.deck)
        if i >= len(deck) or card != deck[i]
    ]
    if len(started.deck) != len(deck):
        differences.append(f"HandStarted: {len(started.deck)} cards recorded, the deck has {len(deck)}")
    dealt, kitty = deal_hands(tuple(deck), started.dealer, started.seats, started.pattern)
    if started.turned_card != kitty[0]:
        differences.append(
            f"HandStarted: the turned card is {started.turned_card}, "
            f"the deck turns up {kitty[0]} (deck position {len(deck) - len(kitty)})"
        )
    return differences + _holding_differences(hand, started, dealt, kitty)


def _holding_differences(
    hand: Sequence[Any], started: HandStarted, dealt: tuple[tuple[str, ...], ...], kitty: tuple[str, ...]
) -> list[str]:
    """Follow each seat's cards and the kitty from the deal through the hand's events (EU-3, EU-4,
    EU-16): each event must only show cards its seat holds then."""
    held = [list(cards) for cards in dealt]
    kitty_now = list(kitty)
    differences = []

    def take(event: Any, seat: int, card: str, verb: str) -> None:
        if card in held[seat]:
            held[seat].remove(card)
        else:
            differences.append(
                f"{type(event).__name__}: seat {seat} {verb} {card}, which the deal did not leave it "
                f"(dealt {_cards(dealt[seat])}; holding {_cards(held[seat])})"
            )

    for event in hand:
        shown = isinstance(event, FarmersHandSwapped | AceNoFaceDeclared)
        if shown and tuple(event.shown) != tuple(held[event.seat]):
            differences.append(
                f"{type(event).__name__}: seat {event.seat} shows {_cards(event.shown)}, "
                f"the deal gave it {_cards(held[event.seat])}"
            )
        if isinstance(event, FarmersHandSwapped):
            if tuple(event.taken) != tuple(kitty_now[1:4]):
                differences.append(
                    f"FarmersHandSwapped: seat {event.seat} takes {_cards(event.taken)}, "
                    f"the kitty's cards after the turned one are {_cards(kitty_now[1:4])} (EU-16)"
                )
            for card in event.given:
                take(event, event.seat, card, "gives")
            held[event.seat] += event.taken
            kitty_now = [kitty_now[0], *event.given, *kitty_now[4:]]
        elif isinstance(event, TrumpMade) and event.dealer_picks_up:
            held[started.dealer].append(kitty_now.pop(0))
        elif isinstance(event, DealerDiscarded):
            take(event, event.seat, event.card, "discards")
        elif isinstance(event, CardPlayed):
            take(event, event.seat, event.card, "plays")
        elif isinstance(event, HandEnded):
            for seat, cards in enumerate(event.hands):
                if seat < len(held) and Counter(cards) != Counter(held[seat]):
                    differences.append(
                        f"HandEnded: seat {seat} is revealed holding {_cards(cards)}, "
                        f"the deal and the hand's plays leave it {_cards(held[seat])}"
                    )
            if tuple(event.kitty) != tuple(kitty_now):
                differences.append(
                    f"HandEnded: the kitty is revealed as {_cards(event.kitty)}, the deal leaves {_cards(kitty_now)}"
                )
            discards = [e.card for e in hand if isinstance(e, DealerDiscarded)]
            if event.discard != (discards[-1] if discards else ""):
                differences.append(
                    f"HandEnded: the discard is revealed as {event.discard or 'none'}, "
                    f"DealerDiscarded shows {discards[-1] if discards else 'none'}"
                )
    return differences


# --- the outcome -------------------------------------------------------------------------------


def _makers(seat: int, cutthroat: bool) -> tuple[int, ...]:
    return (seat,) if cutthroat else tuple(sorted((seat, (seat + 2) % 4)))


def hand_points(makers: Sequence[int], maker_tricks: int, alone: bool, seats: int, cutthroat: bool) -> tuple[int, ...]:
    """Each seat's points for a played hand (EU-13, EU-19): 1 for 3 or 4 tricks, 2 for a march,
    4 for a lone march (not in cutthroat); euchred makers give every other seat 2."""
    if maker_tricks >= 3:
        value = (4 if alone and not cutthroat else 2) if maker_tricks == 5 else 1
        return tuple(value if seat in makers else 0 for seat in range(seats))
    return tuple(0 if seat in makers else 2 for seat in range(seats))


def outcome_differences(config: Mapping[str, Any], hand: Sequence[Any], streams: Callable[[str], Any]) -> list[str]:
    """Re-decide what the hand's result rests on: the first-dealer draw from its stream (CM-19), the
    makers and the seat sitting out (EU-6, EU-7, EU-19), every trick's plays, order and winner
    (EU-9..EU-11), the points (EU-12, EU-13) and the match's winners (EU-14)."""
    differences = first_dealer_differences(hand, streams)
    started = _first(hand, HandStarted)
    if started is None:
        return differences
    cutthroat = bool(config.get("cutthroat"))
    made = _first(hand, TrumpMade)
    if made is not None:
        differences += _trump_differences(made, started, cutthroat)
    winners, trick_differences = _replay_tricks(hand, started, made)
    differences += trick_differences
    ended = _first(hand, HandEnded)
    if ended is not None:
        differences += _score_differences(hand, ended, started, made, winners, cutthroat)
    won = _first(hand, MatchWon)
    if won is not None and ended is not None:
        differences += _match_differences(config, won, ended, cutthroat)
    return differences


def first_dealer_differences(hand: Sequence[Any], streams: Callable[[str], Any]) -> list[str]:
    """CM-19 re-drawn from hand 1's stream, purpose ``first-dealer``: the 24 cards shuffled, one to
    each seat from seat 0, the lowest (aces low) deals, seats tied for lowest draw again."""
    started = _first(hand, MatchStarted)
    if started is None:
        return []
    dealer, draws = draw_first_dealer(shuffle(DECK, streams("first-dealer")), started.seats)
    differences = []
    if tuple(tuple(draw) for draw in started.draws) != draws:
        differences.append(f"MatchStarted: draws {list(started.draws)}, the seed draws {list(draws)} (CM-19)")
    if started.dealer != dealer:
        differences.append(f"MatchStarted: seat {started.dealer} deals first, the seed makes seat {dealer} (CM-19)")
    return differences


def _trump_differences(made: TrumpMade, started: HandStarted, cutthroat: bool) -> list[str]:
    differences = []
    turned_suit = started.turned_card[1]
    if made.round == 1 and made.suit != turned_suit:
        differences.append(f"TrumpMade: ordered up {made.suit}, the turned card is {started.turned_card} (EU-4)")
    if made.round == 2 and made.suit == turned_suit:
        differences.append(f"TrumpMade: named {made.suit}, the turned-down card's suit (EU-5)")
    makers = _makers(made.seat, cutthroat)
    if tuple(made.makers) != makers:
        differences.append(f"TrumpMade: makers {list(made.makers)}, seat {made.seat}'s side is {list(makers)} (EU-6)")
    sitting_out = (made.seat + 2) % 4 if made.alone and not cutthroat else -1
    if made.sitting_out != sitting_out:
        differences.append(f"TrumpMade: seat {made.sitting_out} sits out, EU-7 gives {sitting_out}")
    picks_up = made.round == 1 and sitting_out != started.dealer
    if made.dealer_picks_up != picks_up:
        differences.append(
            f"TrumpMade: the dealer {'picks' if made.dealer_picks_up else 'does not pick'} up the turned card, "
            f"EU-4 and EU-7 say it {'does' if picks_up else 'does not'}"
        )
    return differences


def _next_seat(seat: int, seats: int, sitting_out: int) -> int:
    following = (seat + 1) % seats
    return (following + 1) % seats if following == sitting_out else following


def _replay_tricks(hand: Sequence[Any], started: HandStarted, made: TrumpMade | None) -> tuple[list[int], list[str]]:
    """Each trick re-played from the ``CardPlayed`` events: clockwise from the leader (EU-9), suit
    followed when it can be (EU-10, with the hands the recorded deal gives), won by EU-8 and EU-11."""
    differences: list[str] = []
    winners: list[int] = []
    if made is None:
        return winners, differences
    seats, trump, out = started.seats, made.suit, made.sitting_out
    held = [list(cards) for cards in deal_hands(started.deck, started.dealer, seats, started.pattern)[0]]
    kitty = list(deal_hands(started.deck, started.dealer, seats, started.pattern)[1])
    leader = _next_seat(started.dealer, seats, out)
    trick: list[tuple[int, str]] = []
    for event in hand:
        if isinstance(event, FarmersHandSwapped):
            held[event.seat] = [card for card in held[event.seat] if card not in event.given] + list(event.taken)
        elif isinstance(event, TrumpMade) and event.dealer_picks_up:
            held[started.dealer].append(kitty[0])
        elif isinstance(event, DealerDiscarded) and event.card in held[event.seat]:
            held[event.seat].remove(event.card)
        elif isinstance(event, CardPlayed):
            due = leader if not trick else _next_seat(trick[-1][0], seats, out)
            number = len(winners) + 1
            if event.seat != due:
                differences.append(
                    f"CardPlayed: seat {event.seat} plays {event.card} to trick {number}, seat {due} was due (EU-9, EU-11)"
                )
            if trick:
                led = effective_suit(trick[0][1], trump)
                followers = [card for card in held[event.seat] if effective_suit(card, trump) == led]
                if effective_suit(event.card, trump) != led and followers:
                    differences.append(
                        f"CardPlayed: seat {event.seat} plays {event.card} to trick {number} on a "
                        f"{SUIT_NAMES[led]} lead while holding {_cards(followers)} (EU-10)"
                    )
            if event.card in held[event.seat]:
                held[event.seat].remove(event.card)
            trick.append((event.seat, event.card))
        elif isinstance(event, TrickTaken):
            number = len(winners) + 1
            if event.trick_no != number:
                differences.append(f"TrickTaken: numbered {event.trick_no}, it is trick {number}")
            if tuple(tuple(play) for play in event.plays) != tuple(trick):
                differences.append(
                    f"TrickTaken (trick {number}): plays {list(event.plays)}, the CardPlayed events show {trick}"
                )
            active = seats - (1 if out >= 0 else 0)
            if len(trick) != active:
                differences.append(
                    f"TrickTaken (trick {number}): {len(trick)} cards played, {active} players in the hand"
                )
            winner = trick_winner(tuple(trick), trump) if trick else event.winner
            if event.winner != winner:
                differences.append(
                    f"TrickTaken (trick {number}): seat {event.winner} recorded as winner, EU-8 and EU-11 give seat "
                    f"{winner} ({_cards([card for _, card in trick])}, trump {SUIT_NAMES.get(trump or '', 'none')})"
                )
            winners.append(winner)
            leader, trick = winner, []
    return winners, differences


def _score_differences(
    hand: Sequence[Any],
    ended: HandEnded,
    started: HandStarted,
    made: TrumpMade | None,
    winners: list[int],
    cutthroat: bool,
) -> list[str]:
    seats = started.seats
    differences = []
    if made is not None:
        outcome = "played"
    elif _first(hand, AceNoFaceDeclared) is not None:
        outcome = "redeal"
    else:
        outcome = "thrown_in"
    if ended.outcome != outcome:
        differences.append(f"HandEnded: outcome {ended.outcome!r}, the hand's events make it {outcome!r}")
    if outcome == "played":
        if len(winners) != 5:
            differences.append(f"HandEnded: the hand ended after {len(winners)} tricks, not 5 (EU-11, EU-12)")
        maker_tricks = sum(1 for winner in winners if winner in made.makers)
        points = hand_points(made.makers, maker_tricks, made.alone, seats, cutthroat)
        if tuple(ended.makers) != tuple(made.makers):
            differences.append(f"HandEnded: makers {list(ended.makers)}, TrumpMade made {list(made.makers)}")
        if ended.maker_tricks != maker_tricks:
            differences.append(
                f"HandEnded: the makers took {ended.maker_tricks} tricks, the tricks re-played give {maker_tricks} (EU-12)"
            )
    else:
        points = (0,) * seats
    if tuple(ended.points) != points:
        differences.append(f"HandEnded: points {list(ended.points)}, EU-13 gives {list(points)}")
    # Hand 1 starts from nothing; later hands' earlier scores are in earlier hands' audits.
    if _first(hand, MatchStarted) is not None and tuple(ended.scores) != tuple(ended.points):
        differences.append(
            f"HandEnded: scores {list(ended.scores)} after the first hand, its points are {list(ended.points)}"
        )
    return differences


def _match_differences(config: Mapping[str, Any], won: MatchWon, ended: HandEnded, cutthroat: bool) -> list[str]:
    differences = []
    if tuple(won.scores) != tuple(ended.scores):
        differences.append(f"MatchWon: scores {list(won.scores)}, HandEnded left {list(ended.scores)}")
    top = max(ended.scores)
    target = int(config.get("target_points", 10))
    leaders = tuple(seat for seat, score in enumerate(ended.scores) if score == top)
    winners = leaders if top >= target and not (cutthroat and len(leaders) > 1) else ()
    if tuple(won.winners) != winners:
        differences.append(
            f"MatchWon: winners {list(won.winners)}, scores {list(ended.scores)} against target {target} give {list(winners)} (EU-14, EU-19)"
        )
    return differences


# --- the showdown and the history --------------------------------------------------------------


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def showdown(config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
    """Every seat once the hand is over (EU-20 reveals all): the cards it played in trick order (a
    seat sitting out: the hand it laid aside), its side (category ``makers``, ``defenders`` or
    ``sitting out``) and whether its side scored (``wins``) or not (``loses``). A hand thrown in
    (EU-5) or redealt (EU-17) shows every seat's five cards, all ``safe``: nobody scored."""
    ended = _first(hand, HandEnded)
    started = _first(hand, HandStarted)
    if ended is None or started is None:
        return []
    if ended.outcome != "played":
        why = "thrown in (EU-5)" if ended.outcome == "thrown_in" else "redealt by the same dealer (EU-17)"
        return [
            {
                "seat": seat,
                "cards": list(cards),
                "category": None,
                "description": f"the hand was {why}; nobody scored",
                "outcome": "safe",
                "tie_break": [],
            }
            for seat, cards in enumerate(ended.hands)
        ]
    made = _first(hand, TrumpMade)
    taken = Counter(event.winner for event in hand if isinstance(event, TrickTaken))
    played: dict[int, list[str]] = {seat: [] for seat in range(started.seats)}
    for event in hand:
        if isinstance(event, CardPlayed):
            played[event.seat].append(event.card)
    discard = next((event for event in hand if isinstance(event, DealerDiscarded)), None)
    side_tricks = sum(taken[seat] for seat in ended.makers)
    maker_points = max((ended.points[seat] for seat in ended.makers), default=0)
    if maker_points:
        result = f"the makers took {_plural(side_tricks, 'trick')} and scored {maker_points}"
    else:
        defender_points = max(ended.points, default=0)
        result = f"the makers took {_plural(side_tricks, 'trick')}, euchred: the defenders scored {defender_points}"
    trump = "no trump" if made is None or made.suit is None else f"{SUIT_NAMES[made.suit]} trump"
    shown = []
    for seat in range(started.seats):
        out = made is not None and seat == made.sitting_out
        if out:
            category, cards, own = "sitting out", list(ended.hands[seat]), "sat out behind a lone partner"
        else:
            category = "makers" if seat in ended.makers else "defenders"
            cards, own = played[seat], f"took {_plural(taken[seat], 'trick')}"
            if made is not None and seat == made.seat:
                own = f"made {trump}{' alone' if made.alone else ''}, {own}"
        if discard is not None and seat == discard.seat:
            own += f", discarded {discard.card}"
        shown.append(
            {
                "seat": seat,
                "cards": cards,
                "category": category,
                "description": f"{own}; {result}",
                "outcome": "wins" if ended.points[seat] > 0 else "loses",
                "tie_break": [],
            }
        )
    return shown


def history_line(event: Any, actor: str) -> str | None:
    """One readable line per event: bids, plays and tricks in words, every card shown (the hand is over)."""
    if isinstance(event, MatchStarted):
        draws = ", ".join(f"seat {seat} {card}" for seat, card in event.draws)
        return f"Match starts with {event.seats} players; seat {event.dealer} deals first (drew {draws or 'nothing'})"
    if isinstance(event, DealPatternChosen):
        return f"{actor} deals {event.pattern} from now on"
    if isinstance(event, HandStarted):
        hands, kitty = deal_hands(event.deck, event.dealer, event.seats, event.pattern)
        dealt = "; ".join(f"seat {seat} {_cards(cards)}" for seat, cards in enumerate(hands))
        return (
            f"Hand {event.hand_no}: seat {event.dealer} deals {event.pattern} and turns up {event.turned_card}; "
            f"{dealt}; kitty {_cards(kitty)}"
        )
    if isinstance(event, ClaimDeclined):
        return f"{actor} keeps the hand"
    if isinstance(event, FarmersHandSwapped):
        return f"{actor} shows a farmer's hand {_cards(event.shown)} and swaps {_cards(event.given)} for {_cards(event.taken)}"
    if isinstance(event, AceNoFaceDeclared):
        return f"{actor} shows ace-no-face {_cards(event.shown)}; the same dealer deals again"
    if isinstance(event, Passed):
        return f"{actor} passes (round {event.round})"
    if isinstance(event, TrumpMade):
        if event.suit is None:
            verb = "calls no trump"
        elif event.round == 1:
            verb = f"orders up {SUIT_NAMES[event.suit]}"
        else:
            verb = f"names {SUIT_NAMES[event.suit]}"
        return f"{actor} {verb}{' alone' if event.alone else ''}"
    if isinstance(event, DealerDiscarded):
        return f"{actor} discards {event.card}"
    if isinstance(event, CardPlayed):
        return f"{actor} plays {event.card}"
    if isinstance(event, TrickTaken):
        plays = ", ".join(f"seat {seat} {card}" for seat, card in event.plays)
        return f"Trick {event.trick_no}: seat {event.winner} takes it ({plays})"
    if isinstance(event, HandEnded):
        if event.outcome == "thrown_in":
            return f"Hand {event.hand_no} is thrown in: everyone passed twice"
        if event.outcome == "redeal":
            return f"Hand {event.hand_no} is redealt"
        return (
            f"Hand {event.hand_no} over: makers {list(event.makers)} took {_plural(event.maker_tricks, 'trick')}; "
            f"points {list(event.points)}, scores {list(event.scores)}"
        )
    if isinstance(event, MatchWon):
        return f"Match won by seats {list(event.winners)} with scores {list(event.scores)}"
    return None


class EuchreAudit(NoExports):
    """Euchre's audit hooks (``games.engine.audit.AuditHooks``); no PHH export: Euchre is no poker game."""

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """``euchre_24``: the deck every hand shuffles (EU-2, CM-9)."""
        return deck_name(hand)

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """How the recorded deal and the cards the hand's events show differ from dealing ``deck`` (EU-3)."""
        return deal_differences(deck, hand)

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Any) -> list[str]:
        """The first dealer re-drawn (CM-19), the tricks re-played and the points re-scored (EU-8..EU-14)."""
        return outcome_differences(config, hand, streams)

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """Every seat's cards, side and result once the hand is over (EU-20)."""
        return showdown(config, hand)

    def history_line(self, event: Any, actor: str) -> str | None:
        """The event in words: "alice orders up hearts", "bot (seat 2) plays Jh"."""
        return history_line(event, actor)
