"""Five-Card Draw against PokerKit's state machine: the driver shared by the differential test
(``tests/rules/test_draw_pokerkit.py``) and the benchmark (``tests/benchmarks/bench_draw_engine.py``).

A hand is first played through our engine (``record``): a one-hand cash table with the given
stacks, random legal actions, and at every betting decision the offer our engine makes. It is then
replayed through a PokerKit ``State`` built with the same forced bets and stacks (``pokerkit_state``)
by the operations ``operations`` derives from the record: our dealt hands and our draw replacements
go to PokerKit's ``deal_hole`` with explicit cards (PokerKit deals nothing, burns nothing), our
discards to ``stand_pat_or_discard``, our betting actions to ``fold`` / ``check_or_call`` /
``complete_bet_or_raise_to``.

Seat mapping: PokerKit's player ``i`` is our ``order[i]``, the seats dealt in from the button's
left (``HandStarted.players``). With blinds that makes player 0 the small blind and 1 the big blind;
heads up PokerKit reverses the blinds (player 0, the non-button, posts the big blind and player 1,
the button, the small one), which is our FD-2 (heads up the button posts the small blind). The
order of play then agrees too: the first round from the big blind's left (heads up, the button),
later rounds and the draws from the button's left (FD-5, FD-7). With antes, player 0 is the dealer's
left, who acts first (FD-5). Heads up with equal blinds PokerKit would pick the opener by its tie
break, so ``random_table`` keeps the big blind above the small one.

PokerKit plays in its cash-game mode, where folding with nothing to call is allowed (with a
warning, which is silenced): our engine always offers the fold too. Triple draw's hands are
PokerKit's ``StandardLowHand``, deuce-to-seven (CM-16). Where our readings of the rules differ
from PokerKit's, the driver adapts PokerKit (``FIXED_LIMIT_BETS`` on the first street,
``UNCOUNT_SHORT_ALL_IN``, ``_idle_turn``); the test's docstring lists every reading and why.
"""

from __future__ import annotations

import dataclasses
import random
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from pokerkit import (
    Automation,
    BettingStructure,
    Card,
    Deck,
    Mode,
    Opening,
    StandardHighHand,
    StandardLowHand,
    Street,
)
from pokerkit import State as PokerKitState

from games.rules.five_card_draw import DECIDER
from games.rules.five_card_draw.events import (
    CardsDealt,
    CardsDrawn,
    HandStarted,
    PlayerActed,
    PotsAwarded,
    ShowdownHeld,
)
from games.rules.five_card_draw.state import DRAWING, TRIPLE_DRAW, Settings, State
from tests.rules.playout_draw import context, new_table

STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")
_PK_STRUCTURE = {
    "no_limit": BettingStructure.NO_LIMIT,
    "pot_limit": BettingStructure.POT_LIMIT,
    "fixed_limit": BettingStructure.FIXED_LIMIT,
}
# Fixed limit (FD-4): one bet and at most three raises per round, four in all.
FIXED_LIMIT_BETS = 4

Op = tuple[str, tuple[Any, ...]]


@dataclasses.dataclass(frozen=True)
class Table:
    """A one-hand table: our options and every seat's chips."""

    options: dict[str, Any]
    stacks: tuple[int, ...]

    @property
    def seats(self) -> int:
        return len(self.stacks)


def random_table(rng: random.Random, betting: str, variant: str = "standard", *, seats: int | None = None) -> Table:
    """2 to 6 seats, random forced bets and bet sizes, and stacks from the forced bet itself to a
    hundred and fifty units, so short all-ins and side pots are common. Standard draw plays antes
    with anything_opens or blinds, at random; triple draw plays blinds (FD-14)."""
    count = seats if seats is not None else rng.randint(2, 6)
    blinds = variant == TRIPLE_DRAW or rng.random() < 0.5
    options: dict[str, Any] = {"variant": variant, "betting": betting, "format": "cash"}
    if blinds:
        small = rng.randint(1, 5)
        big = rng.randint(small + 1, 3 * small)  # above the small blind: see the module docstring
        options.update(forced_bets="blinds", small_blind=small, big_blind=big)
        forced, unit = big, big
    else:
        ante = rng.randint(1, 5)
        options.update(forced_bets="ante", ante_amount=ante, opening="anything_opens")
        forced, unit = ante, 2 * ante
        if betting != "fixed_limit" and rng.random() < 0.5:
            options["min_bet"] = rng.randint(1, 4 * ante)
            unit = max(unit, options["min_bet"])
    if betting == "fixed_limit":
        small_bet = unit if blinds and rng.random() < 0.7 else rng.randint(1, 2 * unit)
        options.update(small_bet=small_bet, big_bet=rng.choice((2 * small_bet, rng.randint(small_bet, 3 * small_bet))))
        unit = max(unit, small_bet)
    stacks = tuple(
        rng.choice(
            (rng.randint(forced, 3 * unit), rng.randint(3 * unit, 30 * unit), rng.randint(30 * unit, 150 * unit))
        )
        for _ in range(count)
    )
    options.update(min_buy_in=forced, max_buy_in=max(stacks))
    return Table(options, stacks)


# --- what each engine offers ------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Offer:
    """A betting decision as both engines can state it: the seat to act, whether it may fold or
    check, the chips a call puts in, and the smallest and largest "raise to" (or bet, or completion)
    amount, an all-in for less than a full raise included."""

    seat: int
    fold: bool
    check: bool
    call: int | None
    raise_to: tuple[int, int] | None


def our_offer(state: State) -> Offer:
    """What our engine offers the seat to act, from ``DECIDER.legal_actions``."""
    seat = DECIDER.to_act(state)[0]
    legal = {option["type"]: option for option in DECIDER.legal_actions(state, seat)}
    assert state.hand is not None and state.hand.round is not None
    span = legal.get("bet") or legal.get("raise")
    raise_to = (span["min"], span["max"]) if span else None
    all_in = legal.get("all_in")
    if raise_to is None and all_in is not None and all_in["amount"] > state.hand.round.current_bet:
        raise_to = (all_in["amount"], all_in["amount"])
    call = legal.get("call")
    return Offer(seat, "fold" in legal, "check" in legal, call["amount"] if call else None, raise_to)


def their_offer(state: PokerKitState, order: Sequence[int]) -> Offer:
    """What PokerKit offers its actor, mapped to our seat."""
    actor = state.actor_index
    assert actor is not None
    call = state.checking_or_calling_amount
    low = state.min_completion_betting_or_raising_to_amount
    high = state.max_completion_betting_or_raising_to_amount
    return Offer(
        order[actor],
        state.can_fold(),
        call == 0,
        call or None,
        None if low is None or high is None else (low, high),
    )


# --- our side -----------------------------------------------------------------------------------


@dataclasses.dataclass
class Step:
    """One command of the hand: a betting action with the offer it answered, or a draw."""

    command: dict[str, Any]
    events: list[Any]
    offer: Offer | None = None
    raise_to: int | None = None  # the bet a bet, raise or all-in brought the seat to, if it raised


@dataclasses.dataclass
class Hand:
    """One hand played through our engine, all PokerKit needs to replay it, and its outcome."""

    table: Table
    settings: Settings
    tag: str
    order: tuple[int, ...] = ()
    dealt: tuple[tuple[str, ...], ...] = ()
    steps: list[Step] = dataclasses.field(default_factory=list)
    contributed: tuple[int, ...] = ()
    pots: tuple[tuple[int, tuple[int, ...]], ...] = ()
    awarded: PotsAwarded | None = None
    showdown: dict[int, frozenset[str]] = dataclasses.field(default_factory=dict)
    stacks: tuple[int, ...] = ()


Chooser = Callable[[State, int, random.Random], dict[str, Any]]


def choose(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random legal command: folds mostly when facing a bet, all-ins, bets and raises of random
    sizes (the smallest, the largest, or any between), and draws of random cards."""
    legal = {option["type"]: option for option in DECIDER.legal_actions(state, seat)}
    if "draw" in legal:
        assert state.hand is not None
        held = list(state.hand.cards[seat])
        option = legal["draw"]
        return {"type": "draw", "discard": rng.sample(held, rng.randint(option["min"], option["max"])), "seat": seat}
    roll = rng.random()
    if roll < (0.2 if "call" in legal else 0.02):
        return {"type": "fold", "seat": seat}
    span = legal.get("bet") or legal.get("raise")
    if roll < 0.35 and "all_in" in legal:
        return {"type": "all_in", "seat": seat}
    if roll < 0.65 and span is not None:
        low, high = span["min"], span["max"]
        amount = rng.choice((low, high, rng.randint(low, high), rng.randint(low, min(high, 3 * low))))
        return {"type": span["type"], "amount": amount, "seat": seat}
    return {"type": "check" if "check" in legal else "call", "seat": seat}


def record(table: Table, seed: int, chooser: Chooser = choose) -> Hand:
    """Play one hand at ``table`` through our engine with ``chooser`` in every seat."""
    rng = random.Random(seed)
    _, state = new_table(table.seats, table.options)
    hand = Hand(table, state.settings, tag=f"pokerkit-draw-{seed}")
    buy_ins = dict(enumerate(table.stacks))
    state, events = _apply(state, {"type": "start"}, hand, buy_ins)
    for event in events:
        if isinstance(event, HandStarted):
            hand.order = event.players
        elif isinstance(event, CardsDealt):
            hand.dealt = event.hands
    while hand.awarded is None:
        seat = DECIDER.to_act(state)[0]
        assert state.hand is not None
        betting = state.hand.phase != DRAWING
        offer = our_offer(state) if betting else None
        current = state.hand.round.current_bet if state.hand.round is not None else 0
        command = chooser(state, seat, rng)
        state, events = _apply(state, command, hand, buy_ins)
        step = Step(command, events, offer)
        acted = events[0]
        if isinstance(acted, PlayerActed) and acted.to > current:
            step.raise_to = acted.to
        hand.steps.append(step)
    return hand


def _apply(state: State, command: dict[str, Any], hand: Hand, buy_ins: dict[int, int]) -> tuple[State, list[Any]]:
    events = DECIDER.decide(state, command, context(state, hand.tag, buy_ins))
    for event in events:
        state = DECIDER.evolve(state, event)
        if isinstance(event, ShowdownHeld):
            hand.showdown = {shown.seat: frozenset(shown.cards) for shown in event.hands}
        if isinstance(event, PotsAwarded):
            assert state.hand is not None
            hand.contributed = state.hand.contributed
            hand.pots = event.pots
            hand.awarded = event
            hand.stacks = state.stacks
    return state, events


# --- PokerKit's side -----------------------------------------------------------------------------

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PULLING,
)
# The showdown and the chips pushing are left to the caller, who reads the pots before them;
# the benchmark lets PokerKit do them itself.
END_AUTOMATIONS = (Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.CHIPS_PUSHING)


def pokerkit_state(hand: Hand, *, automate_end: bool = False) -> PokerKitState:
    """A PokerKit state for ``hand``: our forced bets, bet sizes and stacks, and streets that burn
    and deal nothing by themselves. The first street deals five down cards, then one street per
    draw (FD-7, FD-14); the bet size per street is ours (``Settings.bet_size``)."""
    settings = hand.settings
    count = len(hand.order)
    blinds = settings.forced_bets == "blinds"
    fixed = settings.betting == "fixed_limit"
    # FD-4 (our reading): with blinds the big blind is the round's bet, so the first round allows
    # three raises over it; PokerKit's own limit games count only the raises, allowing four.
    first_cap = (FIXED_LIMIT_BETS - 1 if blinds else FIXED_LIMIT_BETS) if fixed else None
    streets = [Street(False, (False,) * 5, 0, False, Opening.POSITION, settings.bet_size(0), first_cap)]
    for street in range(1, settings.draws + 1):
        cap = FIXED_LIMIT_BETS if fixed else None
        streets.append(Street(False, (), 0, True, Opening.POSITION, settings.bet_size(street), cap))
    low = settings.variant == TRIPLE_DRAW
    return PokerKitState(
        AUTOMATIONS + (END_AUTOMATIONS if automate_end else ()),
        Deck.STANDARD,
        (StandardLowHand,) if low else (StandardHighHand,),
        tuple(streets),
        _PK_STRUCTURE[settings.betting],
        False,
        0 if blinds else settings.ante,
        (settings.small_blind, settings.big_blind) if blinds else 0,
        0,
        tuple(hand.table.stacks[seat] for seat in hand.order),
        count,
        mode=Mode.CASH_GAME,
    )


def _cards(codes: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card.parse("".join(codes))) if codes else ()


def operations(hand: Hand) -> list[tuple[Op, Offer | None]]:
    """PokerKit's operations replaying ``hand``, each with our offer when it is a betting decision.
    PokerKit takes a draw's discards from everyone before it deals any replacement, so each
    draw's replacements are dealt after its last discard."""
    index = {seat: i for i, seat in enumerate(hand.order)}
    ops: list[tuple[Op, Offer | None]] = [
        (("deal_hole", (_cards(hand.dealt[seat]), i)), None) for seat, i in index.items()
    ]
    pending: list[tuple[int, tuple[Card, ...]]] = []
    for k, step in enumerate(hand.steps):
        drawn = next((event for event in step.events if isinstance(event, CardsDrawn)), None)
        if drawn is not None:
            ops.append((("stand_pat_or_discard", (_cards(drawn.discarded),)), None))
            if drawn.received:
                pending.append((index[drawn.seat], _cards(drawn.received)))
            following = hand.steps[k + 1].events if k + 1 < len(hand.steps) else []
            more = any(isinstance(event, CardsDrawn) and event.draw == drawn.draw for event in following)
            if not more:
                ops += [(("deal_hole", (cards, i)), None) for i, cards in sorted(pending)]
                pending = []
            continue
        acted = step.events[0]
        assert isinstance(acted, PlayerActed)
        if acted.action == "fold":
            op: Op = ("fold", ())
        elif step.raise_to is not None:
            op = ("complete_bet_or_raise_to", (step.raise_to,))
        else:
            op = ("check_or_call", ())
        ops.append((op, step.offer))
    return ops


# The driver's own operation: PokerKit counts a short all-in towards fixed limit's cap of one bet
# and three raises; our reading of FD-4 is that an all-in for less than a full raise is not a
# raise (``Round.raises`` counts the full bets and raises), so the driver takes it off PokerKit's
# count again.
UNCOUNT_SHORT_ALL_IN = "uncount_short_all_in"


def apply(state: PokerKitState, op: Op) -> None:
    """One operation on PokerKit's state."""
    name, args = op
    if name == UNCOUNT_SHORT_ALL_IN:
        state.completion_betting_or_raising_count -= 1
    else:
        getattr(state, name)(*args)


@dataclasses.dataclass
class Outcome:
    """PokerKit's end of the hand, by our seats: its pots as it cut them before the showdown (after
    handing back uncalled bets), the chips it never collected into a pot (the last bet of a player
    everyone folded to), every hand at the showdown, the final stacks, and the operations that
    replayed the hand (the showdown and the chips pushing aside)."""

    pots: list[tuple[int, tuple[int, ...]]]
    uncollected: int
    showdown: dict[int, frozenset[str]]
    stacks: tuple[int, ...]
    ops: list[Op]


def replay(hand: Hand, check: Callable[[Offer, PokerKitState], None] | None = None) -> Outcome:
    """Replay ``hand`` through PokerKit; ``check(our_offer, pokerkit_state)`` at every betting
    decision, before the action."""
    fixed = hand.settings.betting == "fixed_limit"
    done: list[Op] = []

    def run(op: Op) -> None:
        apply(state, op)
        done.append(op)

    with warnings.catch_warnings():
        # A fold with nothing to call (cash-game mode), and a reshuffled card PokerKit would not
        # have dealt itself (FD-8): both are warnings only.
        warnings.simplefilter("ignore")
        state = pokerkit_state(hand)
        for op, offer in operations(hand):
            if offer is None:
                _idle_turn(state, run)
                run(op)
                continue
            if check is not None:
                check(offer, state)
            full = _full_raise_to(state)
            run(op)
            if fixed and op[0] == "complete_bet_or_raise_to" and op[1][0] < full:
                run((UNCOUNT_SHORT_ALL_IN, ()))
        _idle_turn(state, run)
        showdown: dict[int, frozenset[str]] = {}
        pots: list[tuple[int, tuple[int, ...]]] = []
        if state.showdown_index is not None:
            pots = _pots(state, hand.order)
            while state.showdown_index is not None:
                i = state.showdown_index
                showdown[hand.order[i]] = frozenset(repr(card) for card in state.hole_cards[i])
                state.show_or_muck_hole_cards(True)
        elif state.can_push_chips():
            pots = _pots(state, hand.order)
        uncollected = sum(state.bets)
        while state.can_push_chips():
            state.push_chips()
        assert not state.status, "PokerKit's hand is not over"
    stacks = [0] * hand.table.seats
    for i, seat in enumerate(hand.order):
        stacks[seat] = state.stacks[i]
    return Outcome(pots, uncollected, showdown, tuple(stacks), done)


def _pots(state: PokerKitState, order: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """PokerKit's pots now, by our seats (its ``Pot`` objects are emptied as they are pushed)."""
    return [(pot.amount, tuple(sorted(order[i] for i in pot.player_indices))) for pot in state.pots]


def _full_raise_to(state: PokerKitState) -> int:
    """The smallest full completion, bet or raise "to" amount, by PokerKit's own formula, before
    it is capped by the actor's stack."""
    assert state.street is not None
    step = max(state.completion_betting_or_raising_amount, state.street.min_completion_betting_or_raising_amount)
    return step + max(state.bets)


def _idle_turn(state: PokerKitState, run: Callable[[Op], None]) -> None:
    """FD-20: our round ends as soon as fewer than two players can bet and nobody owes a call
    (after a fold with nothing to call); PokerKit still asks the last player who can bet to
    check. Nothing else may be pending."""
    while state.actor_index is not None:
        assert state.checking_or_calling_amount == 0, "PokerKit waits for a bet our engine does not"
        run(("check_or_call", ()))


def run_pokerkit(hand: Hand, ops: Sequence[Op]) -> PokerKitState:
    """The benchmark's replay: the operations alone, PokerKit doing the showdown and the pushing."""
    state = pokerkit_state(hand, automate_end=True)
    for op in ops:
        apply(state, op)
    return state
