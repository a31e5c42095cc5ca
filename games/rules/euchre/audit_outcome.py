"""Euchre's outcome re-decided from a hand's events alone (``AuditHooks.audit_outcome``): the
first-dealer draw (CM-19), the makers and who sits out (EU-4..EU-7, EU-19), every trick re-played
(EU-8..EU-11), the points (EU-12, EU-13) and the match's winners (EU-14). Deliberately written
apart from ``decide``: the audit re-derives the rules rather than trusting the code that recorded them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine.fairness import shuffle
from games.rules.euchre.cards import (
    DECK,
    SUIT_NAMES,
    cards_text,
    deal_hands,
    draw_first_dealer,
    effective_suit,
    trick_winner,
)
from games.rules.euchre.events import (
    AceNoFaceDeclared,
    CardPlayed,
    DealerDiscarded,
    FarmersHandSwapped,
    HandEnded,
    HandStarted,
    MatchStarted,
    MatchWon,
    TrickTaken,
    TrumpMade,
    first_event,
)


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
    started = first_event(hand, HandStarted)
    if started is None:
        return differences
    cutthroat = bool(config.get("cutthroat"))
    made = first_event(hand, TrumpMade)
    if made is not None:
        differences += _trump_differences(made, started, cutthroat)
    winners, trick_differences = _replay_tricks(hand, started, made)
    differences += trick_differences
    ended = first_event(hand, HandEnded)
    if ended is not None:
        differences += _score_differences(hand, ended, started, made, winners, cutthroat)
    won = first_event(hand, MatchWon)
    if won is not None and ended is not None:
        differences += _match_differences(config, won, ended, cutthroat)
    return differences


def first_dealer_differences(hand: Sequence[Any], streams: Callable[[str], Any]) -> list[str]:
    """CM-19 re-drawn from hand 1's stream, purpose ``first-dealer``: the 24 cards shuffled, one to
    each seat from seat 0, the lowest (aces low) deals, seats tied for lowest draw again."""
    started = first_event(hand, MatchStarted)
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


@dataclasses.dataclass
class _TrickReplay:
    """The tricks re-played event by event: the cards each seat holds, the trick on the table, the
    winners so far and every difference found. Mutable: it accumulates as the events go by."""

    seats: int
    dealer: int
    trump: str | None
    sitting_out: int
    held: list[list[str]]
    kitty: list[str]
    leader: int
    trick: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    winners: list[int] = dataclasses.field(default_factory=list)
    differences: list[str] = dataclasses.field(default_factory=list)

    def swap(self, event: FarmersHandSwapped) -> None:
        """A farmer's hand swaps three cards with the kitty (EU-16)."""
        self.held[event.seat] = [card for card in self.held[event.seat] if card not in event.given] + list(event.taken)

    def pick_up(self, event: TrumpMade) -> None:
        """The dealer takes the turned card (EU-4)."""
        if event.dealer_picks_up:
            self.held[self.dealer].append(self.kitty[0])

    def discard(self, event: DealerDiscarded) -> None:
        """The dealer lays one card aside (EU-4)."""
        if event.card in self.held[event.seat]:
            self.held[event.seat].remove(event.card)

    def play(self, event: CardPlayed) -> None:
        """A card played: by the seat due (EU-9, EU-11), following suit when it can (EU-10)."""
        due = self.leader if not self.trick else _next_seat(self.trick[-1][0], self.seats, self.sitting_out)
        number = len(self.winners) + 1
        if event.seat != due:
            self.differences.append(
                f"CardPlayed: seat {event.seat} plays {event.card} to trick {number}, seat {due} was due (EU-9, EU-11)"
            )
        if self.trick:
            self._check_followed(event, number)
        if event.card in self.held[event.seat]:
            self.held[event.seat].remove(event.card)
        self.trick.append((event.seat, event.card))

    def _check_followed(self, event: CardPlayed, number: int) -> None:
        trump = self.trump
        led = effective_suit(self.trick[0][1], trump)
        followers = [card for card in self.held[event.seat] if effective_suit(card, trump) == led]
        if effective_suit(event.card, trump) != led and followers:
            self.differences.append(
                f"CardPlayed: seat {event.seat} plays {event.card} to trick {number} on a "
                f"{SUIT_NAMES[led]} lead while holding {cards_text(followers)} (EU-10)"
            )

    def take(self, event: TrickTaken) -> None:
        """A trick taken: numbered in order, with the plays shown, won by EU-8 and EU-11."""
        number = len(self.winners) + 1
        trick = self.trick
        if event.trick_no != number:
            self.differences.append(f"TrickTaken: numbered {event.trick_no}, it is trick {number}")
        if tuple(tuple(play) for play in event.plays) != tuple(trick):
            self.differences.append(
                f"TrickTaken (trick {number}): plays {list(event.plays)}, the CardPlayed events show {trick}"
            )
        active = self.seats - (1 if self.sitting_out >= 0 else 0)
        if len(trick) != active:
            self.differences.append(
                f"TrickTaken (trick {number}): {len(trick)} cards played, {active} players in the hand"
            )
        winner = trick_winner(tuple(trick), self.trump) if trick else event.winner
        if event.winner != winner:
            self.differences.append(
                f"TrickTaken (trick {number}): seat {event.winner} recorded as winner, EU-8 and EU-11 give seat "
                f"{winner} ({cards_text([card for _, card in trick])}, trump {SUIT_NAMES.get(self.trump or '', 'none')})"
            )
        self.winners.append(winner)
        self.leader, self.trick = winner, []


_REPLAY_STEPS: dict[type, Callable[[_TrickReplay, Any], None]] = {
    FarmersHandSwapped: _TrickReplay.swap,
    TrumpMade: _TrickReplay.pick_up,
    DealerDiscarded: _TrickReplay.discard,
    CardPlayed: _TrickReplay.play,
    TrickTaken: _TrickReplay.take,
}


def _replay_tricks(hand: Sequence[Any], started: HandStarted, made: TrumpMade | None) -> tuple[list[int], list[str]]:
    """Each trick re-played from the ``CardPlayed`` events: clockwise from the leader (EU-9), suit
    followed when it can be (EU-10, with the hands the recorded deal gives), won by EU-8 and EU-11."""
    if made is None:
        return [], []
    seats = started.seats
    dealt, kitty = deal_hands(started.deck, started.dealer, seats, started.pattern)
    replay = _TrickReplay(
        seats=seats,
        dealer=started.dealer,
        trump=made.suit,
        sitting_out=made.sitting_out,
        held=[list(cards) for cards in dealt],
        kitty=list(kitty),
        leader=_next_seat(started.dealer, seats, made.sitting_out),
    )
    for event in hand:
        step = _REPLAY_STEPS.get(type(event))
        if step is not None:
            step(replay, event)
    return replay.winners, replay.differences


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
    elif first_event(hand, AceNoFaceDeclared) is not None:
        outcome = "redeal"
    else:
        outcome = "thrown_in"
    if ended.outcome != outcome:
        differences.append(f"HandEnded: outcome {ended.outcome!r}, the hand's events make it {outcome!r}")
    # ``made`` is there exactly when the outcome is "played".
    if made is not None:
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
    if first_event(hand, MatchStarted) is not None and tuple(ended.scores) != tuple(ended.points):
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
