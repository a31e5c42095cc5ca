"""Five-Card Draw tables with hands chosen by the test, for the rule tests (pure, no database).

``table(...)`` starts a real table through the engine. The first button is chosen by picking the
seed tag whose CM-19 draw gives it (the draw itself is the engine's); a hand the test wants dealt
("deal these hands and this stock") replaces the deal's ``CardsDealt``, which is always the last
event of the command that deals, so every event before it (button, forced bets) is the engine's
own. After every event the table checks FD-12 (chips in stacks and the pot add up to the chips in
play)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import fairness
from games.engine.presence import is_presence_action
from games.rules.five_card_draw import DECIDER, cards
from games.rules.five_card_draw.events import CardsDealt, HandStarted
from games.rules.five_card_draw.state import State, chip_counts
from tests.rules.playout_draw import TABLE_ID, context, hand_seed, new_table


def hand(text: str) -> tuple[str, ...]:
    """Card codes from a space-separated string."""
    return tuple(text.split())


def tag_for_button(seats: int, button: int) -> str:
    """A seed tag whose first-dealer draw (CM-19, hand 1's seed) makes ``button`` the first dealer."""
    for number in range(500):
        tag = f"button-{button}-{number}"
        drawn = fairness.first_dealer(cards.pack("none"), list(range(seats)), hand_seed(tag, 1), TABLE_ID, "")
        if drawn.dealer == button:
            return tag
    raise AssertionError(f"no tag makes seat {button} the first dealer")


def rigged_deal(state: State, hands: Mapping[int, str], stock: str) -> CardsDealt:
    """A deal of ``hands`` (by seat) with ``stock`` on top of the stock, the rest of the pack below
    it in canonical order (so no card is made or lost)."""
    settings = state.settings
    by_seat = tuple(hand(hands[seat]) if seat in hands else () for seat in range(settings.seats))
    top = hand(stock)
    used = [card for held in by_seat for card in held] + list(top)
    assert len(used) == len(set(used)), "the test dealt a card twice"
    assert all(len(held) in (0, 5) for held in by_seat), "five cards each"
    rest = tuple(card for card in cards.pack(settings.wild) if card not in used)
    face_up = tuple((held[0],) if settings.shotgun and held else () for held in by_seat)
    return CardsDealt(face_up=face_up, hands=by_seat, stock=top + rest)


def conserved(state: State) -> None:
    """FD-12: the chips in stacks and pots add up to the chips bought in and not cashed out."""
    assert sum(chip_counts(state).values()) == state.in_play
    assert all(chips >= 0 for chips in chip_counts(state).values())


@dataclasses.dataclass
class Table:
    """A table under test: its state, every event so far, and the deals the test chose by hand number."""

    state: State
    tag: str
    buy_ins: dict[int, int] | None
    deals: dict[int, tuple[Mapping[int, str], str]] = dataclasses.field(default_factory=dict)
    log: list[Any] = dataclasses.field(default_factory=list)
    # What each person's wallet pays for, in chips, as the service tells the engine (FD-13).
    wallet_chips: dict[int, int] | None = None

    def command(self, command: Mapping[str, Any]) -> list[Any]:
        """Decide one command with the engine, the chosen deal in place of the shuffled one."""
        ctx = context(self.state, self.tag, self.buy_ins, self.wallet_chips)
        events = DECIDER.decide(self.state, dict(command), ctx)
        started = [event.hand_no for event in events if isinstance(event, HandStarted)]
        if started and started[-1] in self.deals:
            assert isinstance(events[-1], CardsDealt)
            for event in events[:-1]:
                self._fold(event)
            events[-1] = rigged_deal(self.state, *self.deals.pop(started[-1]))
            self._fold(events[-1])
        else:
            for event in events:
                self._fold(event)
        self.log.extend(events)
        return events

    def act(self, seat: int, kind: str, **fields: Any) -> list[Any]:
        """``seat`` does ``kind`` (a betting action, ``draw``, ``timeout``, ``leave``...)."""
        return self.command({"type": kind, "seat": seat, **fields})

    def deal_next(self, hands: Mapping[int, str], stock: str = "") -> None:
        """The next hand dealt deals ``hands`` with ``stock`` on top."""
        self.deals[self.state.hand_no + 1] = (hands, stock)

    def to_act(self) -> int:
        return DECIDER.to_act(self.state)[0]

    def legal(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The seat's turn actions: its legal actions without sitting out, in or leaving (CM-20)."""
        legal = DECIDER.legal_actions(self.state, self.to_act() if seat is None else seat)
        return [option for option in legal if not is_presence_action(option)]

    def check_down(self) -> list[Any]:
        """Everyone checks (or calls) and stands pat until this hand is over."""
        events: list[Any] = []
        hand_no = self.state.hand_no
        while self.state.hand_no == hand_no and not self.state.finished:
            seat = self.to_act()
            kinds = {option["type"] for option in self.legal(seat)}
            kind = next(kind for kind in ("check", "call", "draw") if kind in kinds)
            events += self.act(seat, kind, **({"discard": []} if kind == "draw" else {}))
        return events

    def fold_out(self) -> list[Any]:
        """Every seat to act folds until this hand is over (the last one in wins it)."""
        events: list[Any] = []
        hand_no = self.state.hand_no
        while self.state.hand_no == hand_no and not self.state.finished:
            events += self.act(self.to_act(), "fold")
        return events

    def _fold(self, event: Any) -> None:
        self.state = DECIDER.evolve(self.state, event)
        conserved(self.state)


def table(
    seats: int,
    options: Mapping[str, Any] | None = None,
    *,
    button: int = 0,
    stacks: Sequence[int] | None = None,
    hands: Mapping[int, str] | None = None,
    stock: str = "",
    **money: Any,
) -> Table:
    """A started table whose first button is ``button``; hand 1 deals ``hands`` when given.
    ``stacks`` are the cash buy-ins by seat (100 each by default)."""
    _, state = new_table(seats, options, **money)
    buy_ins = dict(enumerate(stacks if stacks is not None else [100] * seats))
    game = Table(state, tag_for_button(seats, button), buy_ins)
    if hands is not None:
        game.deals[1] = (hands, stock)
    game.command({"type": "start"})
    return game


def of(events: Sequence[Any], kind: type) -> Any:
    """The one event of type ``kind`` among ``events``."""
    found = [event for event in events if isinstance(event, kind)]
    assert len(found) == 1, f"{len(found)} {kind.__name__} events"
    return found[0]


def every(events: Sequence[Any], kind: type) -> list[Any]:
    """The events of type ``kind``."""
    return [event for event in events if isinstance(event, kind)]
