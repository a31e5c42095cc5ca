"""Five-Card Draw's events. Secret fields (``secret_field``) are the server seed, the cards dealt
and drawn, the discards and the stock: each player sees only their own cards (FD-19), everyone
sees the rest; the audit sees everything once the hand is over."""

from __future__ import annotations

import dataclasses

from games.engine import between_hands, presence
from games.engine.codec import secret_field


@dataclasses.dataclass(frozen=True, slots=True)
class TableStarted:
    """The players sat down with their chips (FD-13): ``stacks`` by seat (0 for an empty seat).
    Cash: bought at ``chip_value`` each; tournament: ``starting_stack`` each for the ``stake``."""

    players: tuple[int, ...]
    stacks: tuple[int, ...]
    format: str
    chip_value: int
    stake: int
    currency: str | None


@dataclasses.dataclass(frozen=True, slots=True)
class FirstDealerDrawn:
    """CM-19 (FD-1): one card to each seat in seat order, again for the seats tied for lowest;
    ``draws`` is every card taken as ``(seat, card)``, from their own shuffle, so public."""

    draws: tuple[tuple[int, str], ...]
    dealer: int


@dataclasses.dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand began (FD-1): the button, the seats dealt in from the button's left, and the fair
    deal's commitments (CM-5, CM-6). The server seed stays secret until ``HandEnded``. ``stacks``
    by seat are the chips each seat had at the deal, before the forced bets (what a hand history
    starts from)."""

    hand_no: int
    button: int
    players: tuple[int, ...]
    commitment: str
    next_commitment: str | None
    client_seed: str
    server_seed: str = secret_field()
    stacks: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class ForcedBetsPosted:
    """FD-2: the antes (``kind`` ``"ante"``) or the blinds (``"blinds"``) as ``(seat, chips)``;
    ``carried`` chips were already in the pot from hands nobody opened (FD-6)."""

    kind: str
    posts: tuple[tuple[int, int], ...]
    carried: int


@dataclasses.dataclass(frozen=True, slots=True)
class CardsDealt:
    """FD-3, FD-16: five cards to each player dealt in, one at a time from the first of
    ``players``. ``face_up`` by seat is what everyone sees (the shotgun card); ``hands`` by seat
    (empty for a seat not dealt in) and the ``stock`` are secret."""

    face_up: tuple[tuple[str, ...], ...]
    hands: tuple[tuple[str, ...], ...] = secret_field()
    stock: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerActed:
    """A betting action (FD-4): ``action`` is fold, check, call, bet, raise or all_in; ``chips``
    what it put in the pot, ``to`` the seat's whole bet this round after it, ``timeout`` true when
    the turn timer acted (FD-21)."""

    seat: int
    action: str
    chips: int
    to: int
    timeout: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class StockReshuffled:
    """FD-8: the stock ran out during a draw; the discards and folded hands so far, except the
    cards the drawing ``seat`` has just discarded in this draw (its discards of earlier draws are
    among them), were shuffled (CM-18, purpose ``reshuffle-{number}``) into a new stock of
    ``size`` cards."""

    number: int
    seat: int
    size: int
    cards: tuple[str, ...] = secret_field()
    stock: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class CardsDrawn:
    """FD-7: ``seat`` discarded ``count`` cards and took as many from the stock (``count`` 0 is
    standing pat); ``shown_ace`` is the ace shown to discard four or five (public). Which cards
    went and came stays secret, and the discards stay secret for good."""

    seat: int
    draw: int
    count: int
    shown_ace: str | None
    timeout: bool
    discarded: tuple[str, ...] = secret_field()
    received: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class HandPassed:
    """FD-6: nobody opened; the hands are dead and the ``pot`` stays for the next deal. ``stakes``
    by seat are the chips each seat has put into that pot over every deal passed so far (what
    each gets back if the pot is paid without a showdown); empty in older records."""

    pot: int
    stakes: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown at the showdown (FD-9): its cards, its value for each half played (``high``
    the high value; ``low`` the ace-to-five low in high-low, or in triple draw the deuce-to-seven
    value, ``high`` then ``None``) and its category codes. ``description`` and ``low_description``
    held English words in records made before hands were described when shown; new records leave
    them empty, and views and audits describe the hand from its values."""

    seat: int
    cards: tuple[str, ...]
    high: int | None
    low: int | None
    category: str
    description: str
    low_category: str | None = None
    low_description: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class ShowdownHeld:
    """The players still in showed their hands (FD-9), in order from the dealer's left. ``wild`` is
    the table's ``wild`` option (FD-15), so that every reader's words can say what each wild card
    stands for; empty in records made before it was kept."""

    hands: tuple[ShownHand, ...]
    wild: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class PotShare:
    """Chips of one pot (0 the main pot) going to ``seat``: ``half`` is ``"high"``, ``"low"`` or
    ``"whole"``; ``shown`` false when taken without a showdown (FD-9, FD-11). ``returned`` names
    chips that come back rather than being won: ``"uncalled_bet"``, a pot made of nothing but the
    seat's own bet that no other hand could win (FD-11); ``"passed_deals"``, the pot of deals
    nobody opened paid back when the table ends (FD-6); empty for a pot won."""

    pot: int
    seat: int
    chips: int
    half: str
    shown: bool
    returned: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class PotsAwarded:
    """FD-9..FD-11, FD-17: every pot as ``(chips, eligible seats)`` and every share of it."""

    pots: tuple[tuple[int, tuple[int, ...]], ...]
    shares: tuple[PotShare, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over; its server seed is revealed so anyone can check the deal (CM-10)."""

    hand_no: int
    server_seed: str


@dataclasses.dataclass(frozen=True, slots=True)
class LeaveRequested:
    """A cash player asked to leave (FD-13): their chips are cashed out when the hand is over."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerLeft:
    """A player left the table between hands with ``chips`` cashed out at ``chip_value``
    (FD-13); ``reason`` is ``"left"`` or ``"no_chips"``."""

    seat: int
    chips: int
    chip_value: int
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class ChipsToppedUp:
    """A cash player bought ``chips`` more while not in a hand (FD-13), at ``chip_value`` each,
    paid as a buy-in is; their stack stays at most ``max_buy_in``."""

    seat: int
    chips: int
    chip_value: int


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerEliminated:
    """A tournament player has no chips left (FD-13); ``place`` counts from the last (``n`` for
    the first out of ``n``)."""

    seat: int
    place: int


@dataclasses.dataclass(frozen=True, slots=True)
class TableEndRequested:
    """The table's owner ended the cash table: it ends when the hand is over (FD-13)."""


@dataclasses.dataclass(frozen=True, slots=True)
class TableEnded:
    """The table is over (FD-13). Cash: ``cash_out`` chips by seat paid at ``chip_value``.
    Tournament: the ``winners`` (one) take the ``prize``, every stake."""

    reason: str
    winners: tuple[int, ...]
    cash_out: tuple[int, ...]
    chip_value: int
    prize: int


EVENT_TYPES: tuple[type, ...] = (
    TableStarted,
    FirstDealerDrawn,
    HandStarted,
    ForcedBetsPosted,
    CardsDealt,
    PlayerActed,
    StockReshuffled,
    CardsDrawn,
    HandPassed,
    ShowdownHeld,
    PotsAwarded,
    HandEnded,
    LeaveRequested,
    PlayerLeft,
    PlayerEliminated,
    TableEndRequested,
    TableEnded,
    ChipsToppedUp,
    # CM-20: sitting out, sitting in and leaving, the same events in every game.
    *presence.EVENT_TYPES,
    # CM-21: a cash table waits for a person dealt in, and ends once it has waited too long.
    *between_hands.EVENT_TYPES,
)
