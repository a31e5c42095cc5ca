"""Commands in, events out: the deal, the claims, the bidding and the play, each hand scored and
the next one dealt in the same decision (``pending_system`` is never needed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import presence
from games.engine.decider import Context
from games.engine.fairness import commitment, shuffled
from games.rules.euchre import presence as seating
from games.rules.euchre.cards import DECK, deal_hands, draw_first_dealer, parse_card, trick_winner
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
from games.rules.euchre.legal import makers_of, parse_suit, partner, refusal, timeout_action
from games.rules.euchre.state import EuchreState, active_count, evolve


def decide(state: EuchreState, command: Mapping[str, Any], ctx: Context) -> list[Any]:
    """The events ``command`` causes, dealing the next hand with ``ctx``'s seed when one ends; the
    judge's refusal (``legal.refusal``) if it refuses the command."""
    command = dict(command)
    kind = command.get("type")
    refused = refusal(state, command.get("seat"), command)
    if refused is not None:
        raise refused
    if kind == "start":
        return _start(state, ctx)
    # Let through, so the command's seat is one at the table.
    seat: int = command["seat"]
    if kind == "set_deal_pattern":
        return [DealPatternChosen(seat=seat, pattern=command["pattern"])]
    if kind in presence.COMMANDS:
        # Any seat, whoever's turn it is (CM-20); the bot plays an away seat's turn at once.
        return seating.events(state, seat, command)
    if kind == "timeout":
        command = {**timeout_action(state, seat), "seat": seat}
    return ACTS[command["type"]](state, seat, command, ctx)


# --- the deal and the end of a hand ------------------------------------------------------------


def _start(state: EuchreState, ctx: Context) -> list[Any]:
    """The first dealer drawn (CM-19) and hand 1 dealt."""
    if ctx.server_seed is None:
        raise ValueError("Starting deals hand 1: the context must carry its server_seed.")
    cards = shuffled(DECK, ctx.server_seed, ctx.table_id, 1, ctx.client_seed, "first-dealer")
    dealer, draws = draw_first_dealer(cards, state.seats)
    started = MatchStarted(seats=state.seats, dealer=dealer, draws=draws)
    return [started, _deal(evolve(started, state), ctx, dealer)]


def _deal(state: EuchreState, ctx: Context, dealer: int) -> HandStarted:
    """Shuffle and deal the next hand with the seed the service passed for it (EU-2, CM-7..CM-9)."""
    hand_no = state.hand_no + 1
    if ctx.server_seed is None:
        raise ValueError(f"Hand {hand_no} is due: the context must carry its server_seed.")
    if ctx.hand_no not in (0, hand_no):
        raise ValueError(f"Hand {hand_no} is due but the context carries the seed of hand {ctx.hand_no}.")
    cards = tuple(shuffled(DECK, ctx.server_seed, ctx.table_id, hand_no, ctx.client_seed, "deck"))
    pattern = state.deal_patterns[dealer]
    _, kitty = deal_hands(cards, dealer, state.seats, pattern)
    return HandStarted(
        hand_no=hand_no,
        seats=state.seats,
        dealer=dealer,
        pattern=pattern,
        commitment=commitment(ctx.server_seed),
        next_commitment=ctx.next_commitment,
        client_seed=ctx.client_seed,
        turned_card=kitty[0],
        server_seed=ctx.server_seed.hex(),
        deck=cards,
    )


def hand_points(state: EuchreState) -> tuple[int, tuple[int, ...]]:
    """The makers' tricks and each seat's points for a played hand (EU-12, EU-13, EU-18, EU-19)."""
    maker_tricks = sum(state.tricks_won[seat] for seat in state.makers)
    lone = state.alone and not state.cutthroat
    if maker_tricks >= 3:
        value = (4 if lone else 2) if maker_tricks == 5 else 1
        return maker_tricks, tuple(value if seat in state.makers else 0 for seat in range(state.seats))
    return maker_tricks, tuple(0 if seat in state.makers else 2 for seat in range(state.seats))


def match_winners(state: EuchreState, scores: tuple[int, ...]) -> tuple[int, ...]:
    """Who won once a hand is scored (EU-14); in cutthroat the highest score past the target, a
    tie for it plays on (EU-19)."""
    top = max(scores)
    if top < state.target_points:
        return ()
    leaders = tuple(seat for seat in range(state.seats) if scores[seat] == top)
    if state.cutthroat and len(leaders) > 1:
        return ()
    return leaders


def _end_hand(state: EuchreState, ctx: Context, outcome: str) -> list[Any]:
    """Score (a played hand), reveal the seed and hidden cards, then deal on or end the match."""
    if outcome == "played":
        maker_tricks, points = hand_points(state)
    else:
        maker_tricks, points = 0, (0,) * state.seats
    scores = tuple(score + gain for score, gain in zip(state.scores, points))
    ended = HandEnded(
        hand_no=state.hand_no,
        outcome=outcome,
        makers=state.makers,
        maker_tricks=maker_tricks,
        points=points,
        scores=scores,
        server_seed=state.server_seed,
        hands=state.hands,
        kitty=state.kitty,
        discard=state.discard,
    )
    winners = match_winners(state, scores)
    if winners:
        return [ended, MatchWon(winners=winners, scores=scores)]
    # A redeal keeps the dealer (EU-17); a played or thrown-in hand passes the deal left (EU-2, EU-5).
    dealer = state.dealer if outcome == "redeal" else (state.dealer + 1) % state.seats
    return [ended, _deal(evolve(ended, state), ctx, dealer)]


# --- the acts, once legal ----------------------------------------------------------------------


def _keep_hand(state: EuchreState, seat: int, command: dict[str, Any], ctx: Context) -> list[Any]:
    return [ClaimDeclined(seat=seat)]


def _farmers_swap(state: EuchreState, seat: int, command: dict[str, Any], ctx: Context) -> list[Any]:
    """The three cards after the turned one come up from the kitty (EU-16)."""
    given = tuple(parse_card(card) or "" for card in command["cards"])
    return [FarmersHandSwapped(seat=seat, shown=state.hands[seat], given=given, taken=state.kitty[1:4])]


def _ace_no_face(state: EuchreState, seat: int, command: dict[str, Any], ctx: Context) -> list[Any]:
    """The same dealer deals again (EU-17)."""
    declared = AceNoFaceDeclared(seat=seat, shown=state.hands[seat])
    return [declared, *_end_hand(evolve(declared, state), ctx, "redeal")]


def _pass(state: EuchreState, seat: int, command: dict[str, Any], ctx: Context) -> list[Any]:
    """The dealer passing in the second round throws the hand in (EU-5)."""
    passed = Passed(seat=seat, round=state.bidding_round)
    if seat == state.dealer and state.bidding_round == 2:
        return [passed, *_end_hand(evolve(passed, state), ctx, "thrown_in")]
    return [passed]


def _make_trump(state: EuchreState, seat: int, command: dict[str, Any], ctx: Context) -> list[Any]:
    """Ordering up, picking up, naming or no trump (EU-4..EU-7, EU-18, EU-19)."""
    kind = command["type"]
    alone = bool(command.get("alone", False))
    first_round = kind in ("order_up", "pick_up")
    suit = state.turned_card[1] if first_round else parse_suit(command.get("suit"))
    mate = partner(state, seat)
    sitting_out = mate if alone and mate is not None else -1
    made = TrumpMade(
        seat=seat,
        round=state.bidding_round,
        suit=None if kind == "call_no_trump" else suit,
        alone=alone,
        makers=makers_of(state, seat),
        sitting_out=sitting_out,
        # The dealer sitting out behind a lone partner leaves the turned card on the kitty (EU-7).
        dealer_picks_up=first_round and sitting_out != state.dealer,
    )
    return [made]


def _discard(state: EuchreState, seat: int, command: dict[str, Any], ctx: Context) -> list[Any]:
    return [DealerDiscarded(seat=seat, card=parse_card(command["card"]) or "")]


def _play(state: EuchreState, seat: int, command: dict[str, Any], ctx: Context) -> list[Any]:
    """A card played; the last card of a trick takes it (EU-11), the fifth trick ends the hand."""
    played = CardPlayed(seat=seat, card=parse_card(command["card"]) or "")
    events: list[Any] = [played]
    after = evolve(played, state)
    if len(after.trick) < active_count(after):
        return events
    taken = TrickTaken(trick_no=len(after.tricks) + 1, winner=trick_winner(after.trick, after.trump), plays=after.trick)
    events.append(taken)
    after = evolve(taken, after)
    if len(after.tricks) == 5:
        events += _end_hand(after, ctx, "played")
    return events


ACTS = {
    "keep_hand": _keep_hand,
    "farmers_swap": _farmers_swap,
    "ace_no_face": _ace_no_face,
    "pass": _pass,
    "order_up": _make_trump,
    "pick_up": _make_trump,
    "name_trump": _make_trump,
    "call_no_trump": _make_trump,
    "discard": _discard,
    "play": _play,
}
