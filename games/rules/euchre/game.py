"""The Euchre Decider: commands in, events out, and the views each seat may see."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from games.engine.codec import encode_event
from games.engine.decider import Context, Movement, Rules
from games.engine.errors import IllegalAction, InvalidOptions
from games.engine.fairness import commitment, shuffled
from games.engine.options import Option, validate_options
from games.rules.euchre import bot
from games.rules.euchre.audit import EuchreAudit
from games.rules.euchre.cards import DECK, deal_hands, draw_first_dealer, parse_card, trick_winner
from games.rules.euchre.events import (
    EVENT_TYPES,
    AceNoFaceDeclared,
    CardPlayed,
    ClaimDeclined,
    DealerDiscarded,
    DealPatternChosen,
    EuchreState,
    FarmersHandSwapped,
    HandEnded,
    HandStarted,
    MatchStarted,
    MatchWon,
    Passed,
    TrickTaken,
    TrumpMade,
)
from games.rules.euchre.fold import active_count, evolve
from games.rules.euchre.play import (
    legal_actions,
    makers_of,
    parse_suit,
    partner,
    refusal,
    timeout_action,
    to_act,
)

OPTIONS = (
    Option("turn_seconds", "int", 60, 5, 3600, help="Seconds a seat has to act before EU-22 plays for it."),
    Option("target_points", "int", 10, 1, 100, help="Points that win the match (EU-14)."),
    Option("deal_pattern", "choice", "2-3", choices=("2-3", "3-2"), help="Packets of the deal (EU-3)."),
    Option("stick_the_dealer", "bool", False, help="The dealer may not pass in the second round (EU-15)."),
    Option("farmers_hand", "bool", False, help="A hand of nines and tens may swap with the kitty (EU-16)."),
    Option("ace_no_face", "bool", False, help="An ace with only nines and tens may ask for a redeal (EU-17)."),
    Option("no_trump", "bool", False, help="A stuck dealer may call no trump; needs stick_the_dealer (EU-18)."),
    Option("cutthroat", "bool", False, help="3 or 4 players, each on their own (EU-19)."),
)


def _fold(state: EuchreState, events: list[Any]) -> EuchreState:
    for event in events:
        state = evolve(event, state)
    return state


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


def _hand_points(state: EuchreState) -> tuple[int, tuple[int, ...]]:
    """The makers' tricks and each seat's points for a played hand (EU-12, EU-13, EU-18, EU-19)."""
    maker_tricks = sum(state.tricks_won[seat] for seat in state.makers)
    lone = state.alone and not state.cutthroat
    if maker_tricks >= 3:
        value = (4 if lone else 2) if maker_tricks == 5 else 1
        return maker_tricks, tuple(value if seat in state.makers else 0 for seat in range(state.seats))
    return maker_tricks, tuple(0 if seat in state.makers else 2 for seat in range(state.seats))


def _match_winners(state: EuchreState, scores: tuple[int, ...]) -> tuple[int, ...]:
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
        maker_tricks, points = _hand_points(state)
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
    winners = _match_winners(state, scores)
    if winners:
        return [ended, MatchWon(winners=winners, scores=scores)]
    # A redeal keeps the dealer (EU-17); a played or thrown-in hand passes the deal left (EU-2, EU-5).
    dealer = state.dealer if outcome == "redeal" else (state.dealer + 1) % state.seats
    return [ended, _deal(evolve(ended, state), ctx, dealer)]


def _start(state: EuchreState, ctx: Context) -> list[Any]:
    if state.phase != "waiting":
        raise IllegalAction("The match has already started.")
    if ctx.server_seed is None:
        raise ValueError("Starting deals hand 1: the context must carry its server_seed.")
    cards = shuffled(DECK, ctx.server_seed, ctx.table_id, 1, ctx.client_seed, "first-dealer")
    dealer, draws = draw_first_dealer(cards, state.seats)
    started = MatchStarted(seats=state.seats, dealer=dealer, draws=draws)
    return [started, _deal(evolve(started, state), ctx, dealer)]


def _make_trump(state: EuchreState, seat: int, command: dict[str, Any]) -> TrumpMade:
    kind = command["type"]
    alone = bool(command.get("alone", False))
    first_round = kind in ("order_up", "pick_up")
    suit = state.turned_card[1] if first_round else parse_suit(command.get("suit"))
    mate = partner(state, seat)
    sitting_out = mate if alone and mate is not None else -1
    return TrumpMade(
        seat=seat,
        round=state.bidding_round,
        suit=None if kind == "call_no_trump" else suit,
        alone=alone,
        makers=makers_of(state, seat),
        sitting_out=sitting_out,
        # The dealer sitting out behind a lone partner leaves the turned card on the kitty (EU-7).
        dealer_picks_up=first_round and sitting_out != state.dealer,
    )


def _act(state: EuchreState, seat: int, command: dict[str, Any], ctx: Context) -> list[Any]:
    kind = command["type"]
    if kind == "keep_hand":
        return [ClaimDeclined(seat=seat)]
    if kind == "farmers_swap":
        given = tuple(parse_card(card) or "" for card in command["cards"])
        return [FarmersHandSwapped(seat=seat, shown=state.hands[seat], given=given, taken=state.kitty[1:4])]
    if kind == "ace_no_face":
        declared = AceNoFaceDeclared(seat=seat, shown=state.hands[seat])
        return [declared, *_end_hand(evolve(declared, state), ctx, "redeal")]
    if kind == "pass":
        passed = Passed(seat=seat, round=state.bidding_round)
        if seat == state.dealer and state.bidding_round == 2:
            return [passed, *_end_hand(evolve(passed, state), ctx, "thrown_in")]
        return [passed]
    if kind in ("order_up", "pick_up", "name_trump", "call_no_trump"):
        return [_make_trump(state, seat, command)]
    if kind == "discard":
        return [DealerDiscarded(seat=seat, card=parse_card(command["card"]) or "")]
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


def _plays_json(plays: tuple[tuple[int, str], ...]) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": card} for seat, card in plays]


class Euchre(Rules):
    """Euchre in partnerships or cutthroat, with its house rules as table options."""

    slug: ClassVar[str] = "euchre"
    name: ClassVar[str] = "Euchre"
    # A stake per player (``amount``); the winning side shares the prize.
    money: ClassVar[str] = "stake"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES
    state_type: ClassVar[type] = EuchreState
    audit = EuchreAudit()

    def configure(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated options plus ``seats``; partnerships need 4 players, cutthroat 3 or 4 (EU-1,
        EU-19), and no trump needs stick the dealer (EU-18)."""
        config = validate_options(OPTIONS, options)
        if config["cutthroat"] and seats not in (3, 4):
            raise InvalidOptions(f"Option 'cutthroat' plays with 3 or 4 players, not {seats}.")
        if not config["cutthroat"] and seats != 4:
            raise InvalidOptions(f"Euchre in partnerships needs 4 players, not {seats}; option 'cutthroat' allows 3.")
        if config["no_trump"] and not config["stick_the_dealer"]:
            raise InvalidOptions("Option 'no_trump' needs option 'stick_the_dealer'.")
        return {**config, "seats": seats}

    def initial_state(self, config: Mapping[str, Any]) -> EuchreState:
        """The table before ``start``; money facts (``stake``, ``currency``) come from the service."""
        seats = config["seats"]
        return EuchreState(
            seats=seats,
            target_points=config["target_points"],
            stick_the_dealer=config["stick_the_dealer"],
            farmers_hand=config["farmers_hand"],
            ace_no_face=config["ace_no_face"],
            no_trump=config["no_trump"],
            cutthroat=config["cutthroat"],
            stake=int(config.get("stake") or 0),
            currency=config.get("currency"),
            deal_patterns=(config["deal_pattern"],) * seats,
            scores=(0,) * seats,
        )

    def decide(self, state: EuchreState, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        """The events ``command`` causes, dealing the next hand with ``ctx``'s seed when one ends."""
        command = dict(command)
        kind = command.get("type")
        if kind == "start":
            return _start(state, ctx)
        seat = command.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        if kind == "set_deal_pattern":
            pattern = command.get("pattern")
            if state.phase == "finished" or pattern not in ("2-3", "3-2"):
                raise IllegalAction("Choose a deal pattern '2-3' or '3-2' while the match is on.")
            return [DealPatternChosen(seat=seat, pattern=pattern)]
        if kind == "timeout":
            if seat not in to_act(state):
                raise IllegalAction(f"Seat {seat} is not awaited; nothing timed out.", code="stale_timeout")
            command = {**timeout_action(state, seat), "seat": seat}
        sentence = refusal(state, seat, command)
        if sentence is not None:
            raise IllegalAction(sentence, legal=legal_actions(state, seat))
        return _act(state, seat, command, ctx)

    def evolve(self, state: EuchreState, event: Any) -> EuchreState:
        """The state after one recorded event."""
        return evolve(event, state)

    def view(self, state: EuchreState, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees (EU-20): its own cards, the turned card, the tricks and who won them;
        never another hand, the kitty or the dealer's discard. A spectator gets ``seat`` None."""
        seated = seat is not None and 0 <= seat < state.seats
        data: dict[str, Any] = {
            "game": "euchre",
            "phase": state.phase,
            "seats": state.seats,
            "seat": seat if seated else None,
            "cutthroat": state.cutthroat,
            "target_points": state.target_points,
            "hand_no": state.hand_no,
            "commitment": state.commitment,
            "dealer": state.dealer,
            "deal_patterns": list(state.deal_patterns),
            "first_dealer_draws": _plays_json(state.first_dealer_draws),
            "scores": list(state.scores),
            "turn": state.turn,
            "to_act": list(to_act(state)),
            "turned_card": state.turned_card or None,
            "turned_down": state.turned_down,
            "picked_up": state.picked_up,
            "bidding_round": state.bidding_round,
            "bids": [{"seat": bidder, "bid": bid} for bidder, bid in state.bids],
            "shown": [{"seat": shower, "cards": list(cards)} for shower, cards in state.shown],
            "trump": state.trump,
            "no_trump": state.maker >= 0 and state.trump is None,
            "maker": state.maker,
            "makers": list(state.makers),
            "alone": state.alone,
            "sitting_out": state.sitting_out,
            "trick": _plays_json(state.trick),
            "tricks": [
                {"plays": _plays_json(plays), "winner": winner}
                for plays, winner in zip(state.tricks, state.trick_winners)
            ],
            "tricks_won": list(state.tricks_won),
            "hand_sizes": [len(hand) for hand in state.hands],
            "winners": list(state.winners),
        }
        if seated and state.hands:
            data["hand"] = list(state.hands[seat])  # type: ignore[index]
            if seat == state.dealer and state.discard:
                data["discard"] = state.discard
        return data

    def view_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        """The event's public fields, plus what is private to ``seat``: its own dealt cards, its own
        farmer's swap, the dealer's own discard."""
        type_name, public, _ = encode_event(event)
        data = {"type": type_name, **msgspec.json.decode(msgspec.json.encode(public))}
        if seat is None:
            return data
        if isinstance(event, HandStarted) and 0 <= seat < event.seats:
            hands, _ = deal_hands(event.deck, event.dealer, event.seats, event.pattern)
            data["hand"] = list(hands[seat])
        elif isinstance(event, FarmersHandSwapped) and seat == event.seat:
            data["given"], data["taken"] = list(event.given), list(event.taken)
        elif isinstance(event, DealerDiscarded) and seat == event.seat:
            data["card"] = event.card
        return data

    def legal_actions(self, state: EuchreState, seat: int) -> list[dict[str, Any]]:
        """The commands ``seat`` may send now (none for a seat sitting out)."""
        return legal_actions(state, seat)

    def to_act(self, state: EuchreState) -> tuple[int, ...]:
        """The seat awaited, if any."""
        return to_act(state)

    def pending_system(self, state: EuchreState) -> dict[str, Any] | None:
        """Nothing: ``decide`` chains every consequence itself."""
        return None

    def deadline(self, state: EuchreState, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
        """The turn timer of the seat awaited (EU-22)."""
        awaited = to_act(state)
        if not awaited:
            return None
        return float(config.get("turn_seconds", 60)), {"type": "timeout", "seat": awaited[0]}

    def is_finished(self, state: EuchreState) -> bool:
        """True once a side (or a cutthroat player) has won the match."""
        return state.phase == "finished"

    def settlements(self, state: EuchreState, event: Any) -> list[Movement]:
        """Stakes to escrow when the match starts; the prize to the winners' pending payouts when it
        ends, shared equally, the remainder to the lowest winning seat (EU-21). No chips move."""
        if state.stake <= 0:
            return []
        if isinstance(event, MatchStarted):
            return [
                Movement(("wallet", seat), ("escrow",), state.stake, "MONEY", "stake") for seat in range(state.seats)
            ]
        if isinstance(event, MatchWon):
            winners = sorted(event.winners)
            share, remainder = divmod(state.stake * state.seats, len(winners))
            return [
                Movement(("escrow",), ("payout", seat), share + (remainder if i == 0 else 0), "MONEY", "prize")
                for i, seat in enumerate(winners)
            ]
        return []

    def bot(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The game's bot (``bot.choose``), from its own seat's view only."""
        return bot.choose(view, legal, rng)


DECIDER = Euchre()
