"""Helpers for the widow games' tests: a hand dealt on purpose, the invariants of a playout (chips
by the ledger, cards conserved, views that never leak) checked independently of the views' code."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from typing import Any

from games.engine import decider as contract
from games.engine import presence
from games.engine.codec import decode_event, decode_state, encode_event, encode_state
from games.engine.decider import Context
from games.rules.widow import exchange as widow
from games.rules.widow.events import FirstDealerDrawn, HandEnded, HandStarted
from tests.rules.playout_widow import context, play

TABLE = "00000000-0000-0000-0000-0000000000aa"
# What every seat still in the game may send about its presence, on its turn or not (CM-20).
PRESENT = [{"type": "sit_out"}, {"type": "leave"}]
SEED = bytes(range(32))
CARD_CODES = frozenset(
    [r + s for r in "23456789TJQKA" for s in "cdhs"] + ["X1", "X2"],
)


def ctx(hand_no: int = 1, seats: int = 4, **extra: Any) -> Context:
    """The context of a command when the next hand to deal is ``hand_no``."""
    return context(TABLE, hand_no, seats, extra)


def fold(game: Any, state: Any, events: list[Any]) -> Any:
    """The state after ``events``."""
    for event in events:
        state = game.evolve(state, event)
    return state


def dealt(
    dealer: int,
    order: tuple[int, ...],
    hands: dict[int, str],
    widow_cards: str,
    seats: int,
    *,
    hand_no: int = 1,
    pot: int = 1,
    wild_rank: str = "",
    stock: str = "",
) -> HandStarted:
    """A ``HandStarted`` with the cards chosen by the test (``hands`` as space-separated codes)."""
    by_seat = tuple(tuple(hands[seat].split()) if seat in hands else () for seat in range(seats))
    every = [*widow.cards_in(by_seat), *widow_cards.split(), *stock.split()]
    assert len(every) == len(set(every)), "the test dealt a card twice"
    return HandStarted(
        hand_no=hand_no,
        dealer=dealer,
        order=order,
        commitment="0" * 64,
        next_commitment=None,
        client_seed="|" * (seats - 1),
        pot=pot,
        wild_rank=wild_rank,
        server_seed=SEED.hex(),
        hands=by_seat,
        widow_cards=tuple(widow_cards.split()),
        stock=tuple(stock.split()),
    )


def act(game: Any, state: Any, seat: int, kind: str, hand_no: int = 2, **fields: Any) -> tuple[list[Any], Any]:
    """``seat`` sends ``kind``; returns the events and the state after them."""
    events = game.decide(state, {"type": kind, "seat": seat, **fields}, ctx(hand_no, state.seats))
    return events, fold(game, state, events)


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON-able value."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in CARD_CODES:
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


class Watcher:
    """Folds a playout's events alongside it and checks every invariant at every event:
    the ledger's chip balances equal the state's chips, cards are conserved, and no view or event
    served to a seat holds a card that seat may not see then (WP-9) or the unrevealed seed (CM-10)."""

    def __init__(self, game: Any, seats: int, pack: tuple[str, ...]):
        self.game = game
        self.seats = seats
        self.pack = Counter(pack)
        self.balances: Counter[tuple[Any, ...]] = Counter()
        self.known: list[set[str]] = [set() for _ in range(seats)]
        self.public: set[str] = set()
        self.checked = 0

    def __call__(self, before: Any, event: Any, after: Any) -> None:
        for move in self.game.settlements(before, event):
            assert move.amount > 0, move
            if move.unit == "CHIP":
                self.balances[move.source] -= move.amount
                self.balances[move.destination] += move.amount
        self._check_chips(after)
        self._track(event, after)
        self._check_cards(after)
        self._check_views(event, after)

    def _check_chips(self, state: Any) -> None:
        if not state.started:
            return
        for seat in range(self.seats):
            assert self.balances[("seat", seat)] == state.chips[seat], (seat, self.balances, state.chips)
        assert self.balances[("pot",)] == state.pot
        assert sum(v for k, v in self.balances.items() if k != ("bank",)) == -self.balances[("bank",)]

    def _track(self, event: Any, state: Any) -> None:
        ex = state.exchange
        if type(event) is HandStarted:
            self.public = set()
            self.known = [set() for _ in range(self.seats)]
        if ex is not None:
            for seat in ex.order:
                self.known[seat] |= set(ex.hands[seat])
            if ex.face_up:
                self.public |= set(ex.widow)
        if type(event).__name__ == "ShowdownHeld":
            for hand in event.hands:
                self.public |= set(hand.cards)
            for step in getattr(event, "steps", ()):
                if step.card:
                    self.public.add(step.card)

    def _check_cards(self, state: Any) -> None:
        ex = state.exchange
        if ex is None:
            return
        held = Counter(widow.cards_in(ex.hands)) + Counter(ex.widow) + Counter(getattr(state, "stock", ()))
        if hasattr(state, "stock"):
            assert held == self.pack, "cards are not conserved"
        else:
            assert not held - self.pack, "a card appears twice"

    def _check_views(self, event: Any, state: Any) -> None:
        hand_open = state.exchange is not None and type(event) is not HandEnded
        seed = state.server_seed
        for seat in [None, *range(self.seats)]:
            allowed = self.public | (self.known[seat] if seat is not None else set())
            served = [self.game.view(state, seat)]
            if type(event) is not FirstDealerDrawn:
                served.append(self.game.view_event(event, seat))
            for item in served:
                text = json.dumps(item)
                leaked = cards_in(item) - allowed
                assert not leaked, f"seat {seat} was shown {sorted(leaked)} in {item}"
                if hand_open and seed:
                    assert seed not in text, "the server seed was served before the hand ended"
                self.checked += 1


def seeded_tables(count: int, label: str) -> list[str]:
    """``count`` fake table ids made from a label, for repeatable random playouts."""
    ids = []
    for i in range(count):
        digest = hashlib.sha256(f"{label}{i}".encode()).hexdigest()
        ids.append(f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}")
    return ids


def random_playout(game: Any, config: dict[str, Any], table_id: str, pack: tuple[str, ...], **kwargs: Any):
    """Play one game with random legal moves, every invariant watched; returns state, events, watcher."""
    rng = random.Random(table_id)
    watcher = Watcher(game, config["seats"], pack)

    def choose(state: Any, seat: int) -> dict[str, Any]:
        # A random player who sits out or leaves is a test of its own (CM-20), not of a playout.
        return rng.choice([a for a in game.legal_actions(state, seat) if not presence.is_presence_action(a)])

    state, events = play(game, config, choose, table_id, on_event=watcher, **kwargs)
    return state, events, watcher


def assert_replay_and_round_trip(game: Any, config: dict[str, Any], state: Any, events: list[Any]) -> None:
    """Replay equals the state; every event and the state survive JSON exactly."""
    assert contract.replay(game, config, events) == state
    types = contract.event_types_by_name(game)
    for event in events:
        name, public, secret = encode_event(event)
        again = decode_event(types, name, json.loads(json.dumps(public)), json.loads(json.dumps(secret)))
        assert again == event
    assert decode_state(game.state_type, json.loads(json.dumps(encode_state(state)))) == state


def expected_first_dealer(cards, seats):
    """CM-19 worked by hand: the lowest card deals (aces low); ties draw again in seat order."""
    low = "A23456789TJQK"
    drawing, position = list(range(seats)), 0
    while len(drawing) > 1:
        taken = {seat: low.index(cards[position + k][0]) for k, seat in enumerate(drawing)}
        position += len(drawing)
        drawing = [seat for seat in drawing if taken[seat] == min(taken.values())]
    return drawing[0]
