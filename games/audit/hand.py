"""Who may audit a table, one finished hand as recorded, and the deck it shuffled.

A hand is finished when its server seed is revealed (``HandSeed.revealed_at``) or its table has
finished; until then nobody, staff included, gets its audit. Players who sat at the table, staff
and members of the ``auditors`` group may read a table's finished hands. Hand 1's audit also holds
the table's opening events (``hand_no`` 0)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from games.engine import registry
from games.engine.audit import AuditHooks
from games.engine.cards import DECKS, named_deck
from games.engine.codec import decode_event
from games.engine.decider import event_types_by_name
from games.engine.fairness import shuffled
from games.engine.words import T
from games.errors import Conflict, Forbidden, NotFound
from games.models import Event, HandSeed, Seat, Table

AUDITORS = "auditors"


def may_audit(user, table: Table) -> bool:
    """Staff, auditors, and whoever sat at the table."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.groups.filter(name=AUDITORS).exists():
        return True
    return Seat.objects.filter(table=table, user=user).exists()


def check_may_audit(user, table: Table) -> None:
    """Refuse (403) anyone who may not read the table's hands."""
    if not may_audit(user, table):
        raise Forbidden(
            T("Only the players who sat at this table, staff and auditors can read its hands."), code="not_your_hand"
        )


@dataclasses.dataclass(frozen=True, slots=True)
class Hand:
    """One hand of a table as recorded: its seed row and its event rows, decoded too."""

    table: Table
    hand_no: int
    seed: HandSeed
    rows: list[Event]
    events: list[Any]  # None where a row does not decode

    @property
    def decoded(self) -> list[Any]:
        """The events that decode, for the game's hooks."""
        return [event for event in self.events if event is not None]

    @property
    def server_seed(self) -> bytes:
        return bytes(self.seed.server_seed)

    @property
    def decider(self):
        return registry.get(self.table.game)

    @property
    def hooks(self) -> AuditHooks | None:
        """The game's audit hooks, or ``None`` for a game audited by the fallbacks alone."""
        return self.decider.audit


@dataclasses.dataclass(frozen=True, slots=True)
class Deck:
    """The deck a hand shuffled: its name in ``DECKS`` and the shuffle recomputed from the revealed
    seed, top card first; ``name`` is ``None`` (and ``cards`` empty) when nothing tells the deck."""

    name: str | None
    cards: list[str]


def finished_hand(table: Table, hand_no: int) -> Hand:
    """The finished hand ``hand_no``: 404 if it was never dealt, 409 while it is in progress."""
    seed = HandSeed.objects.filter(table=table, hand_no=hand_no).first()
    # The table's opening events (buy-ins, the first-dealer draw from hand 1's stream, CM-19) come
    # before any hand: they belong to hand 1's audit.
    hands = [0, 1] if hand_no == 1 else [hand_no]
    rows = (
        list(Event.objects.filter(table=table, era=table.era, hand_no__in=hands).order_by("seq")) if hand_no > 0 else []
    )
    if not any(row.hand_no == hand_no for row in rows):
        rows = []
    if seed is None or not rows:
        raise NotFound(T("Table {table} has no hand {hand}.", table=str(table.pk), hand=hand_no), code="no_such_hand")
    # A finished table has no hand in progress, even one its last events never revealed (CM-10).
    if seed.revealed_at is None and table.status != Table.Status.FINISHED:
        raise Conflict(
            T(
                "Hand {hand} is still in progress; its audit opens when the hand is over and its seed is revealed.",
                hand=hand_no,
            ),
            code="hand_in_progress",
        )
    types = event_types_by_name(registry.get(table.game))
    return Hand(table=table, hand_no=hand_no, seed=seed, rows=rows, events=[_decoded(types, row) for row in rows])


def _decoded(types: dict[str, type], row: Event) -> Any:
    # A row changed behind the store's back may no longer decode; verification names it.
    try:
        return decode_event(types, row.type, row.data, row.secret)
    except Exception:
        return None


def recorded_deck(hand: Hand) -> tuple[Event, list[str]] | None:
    """The fallback for a game without audit hooks: the first event of the hand whose secret part
    holds the shuffled deck as ``deck`` (a list of card codes, top first), and that deck."""
    for row in hand.rows:
        deck = row.secret.get("deck")
        if isinstance(deck, list) and deck and all(isinstance(card, str) for card in deck):
            return row, deck
    return None


def deck_named_by_cards(cards: Sequence[str]) -> str | None:
    """The named deck (``games.engine.cards.DECKS``) holding exactly ``cards``."""
    wanted = sorted(cards)
    return next((name for name, pack in DECKS.items() if sorted(pack) == wanted), None)


def deck_of(hand: Hand) -> Deck:
    """The deck the game says the hand shuffled (its ``audit_deck`` hook, else the deck a ``deck``
    secret field holds), shuffled from the revealed seed (CM-7..CM-9). An audit computes it once
    and hands it to every check that needs it."""
    if hand.hooks is None:
        found = recorded_deck(hand)
        name = deck_named_by_cards(found[1]) if found else None
    else:
        name = hand.hooks.audit_deck(hand.table.config, hand.decoded)
    if not name:
        return Deck(None, [])
    cards = shuffled(
        named_deck(name), hand.server_seed, str(hand.table.pk), hand.hand_no, hand.seed.client_seed, "deck"
    )
    return Deck(name, cards)


def last_hand_no(table: Table) -> int:
    """The number of the table's last hand (0 before the first)."""
    return (
        Event.objects.filter(table=table, era=table.era).order_by("-seq").values_list("hand_no", flat=True).first() or 0
    )


def seat_names(table: Table) -> list[dict[str, Any]]:
    """Each seat of the table by number: its player's name (``None`` for a bot) and whether a bot sits."""
    return [
        {"seat": seat.number, "player": seat.user.get_username() if seat.user else None, "bot": seat.is_bot}
        for seat in Seat.objects.filter(table=table).select_related("user").order_by("number")
    ]
