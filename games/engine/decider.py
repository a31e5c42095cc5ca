"""The contract every game implements.

A game is a *Decider*: ``decide`` turns a command into events, ``evolve`` folds one event into the
state, and replay is ``functools.reduce(evolve, events, initial_state(config))``. Everything here
is pure: no Django, no I/O, no clock and no randomness of its own. What the engine may not make
itself (the server seed of a hand that starts, the client seeds, the time) arrives in ``Context``.

Errors are in ``games.engine.errors``, options in ``games.engine.options``, the JSON codec in
``games.engine.codec``, the audit hooks in ``games.engine.audit`` and the registry of games in
``games.engine.registry``.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

from games.engine.audit import AuditHooks
from games.engine.options import Option
from games.engine.presence import EVERYONE_HERE, Presence, is_presence_action

# A bot: what it does from its own seat's view and legal actions, with a seeded ``random.Random``.
Policy = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]], random.Random], dict[str, Any]]


@dataclasses.dataclass(frozen=True, slots=True)
class Context:
    """What a decision may need that the engine cannot make itself.

    ``server_seed`` and ``client_seed`` are present when the command starts a hand (CM-5, CM-6);
    ``next_commitment`` is the commitment of the hand after it. ``now`` is seconds since the epoch,
    given by the caller so that replay and tests never read a clock.
    """

    table_id: str
    now: float = 0.0
    hand_no: int = 0
    server_seed: bytes | None = None
    client_seed: str = ""
    next_commitment: str | None = None
    # Whatever else a game needs from outside (for La Viuda: which seats can afford the widow).
    extra: Mapping[str, Any] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, slots=True)
class Movement:
    """One transfer the ledger must post for an event: ``amount`` of ``unit`` from one account to
    another. Accounts are named by the game in its own words, e.g. ``("seat", 2)``, ``("pot",)``,
    ``("bank",)`` for chips, ``("wallet", 3)`` / ``("escrow",)`` / ``("payout", 3)`` for money
    (the number is a seat). ``unit`` is ``"CHIP"`` or ``"MONEY"`` (the table's currency)."""

    source: tuple[Any, ...]
    destination: tuple[Any, ...]
    amount: int
    unit: str = "CHIP"
    memo: str = ""


@runtime_checkable
class Decider(Protocol):
    """One game. Each package in ``games.rules`` implements this and registers an instance.

    Commands are plain dicts shaped like the API's ``action`` body, with the acting seat added by
    the service: ``{"type": "knock", "seat": 2}``. System commands have no seat:
    ``{"type": "start_hand"}``, ``{"type": "timeout", "seat": 2}``. Events are frozen dataclasses
    named in the past tense, listed in ``event_types``.

    :class:`Rules` gives the optional capabilities their defaults.
    """

    slug: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]]
    event_types: ClassVar[tuple[type, ...]]
    state_type: ClassVar[type]
    # "chips": a table's money buys chips at ``chip_value``; "stake": each player stakes an ``amount``.
    money: ClassVar[str]
    # Commands only the table's owner may send (Whiskey Poker's ``end_match``).
    owner_commands: ClassVar[frozenset[str]]
    # Actions by which a seat buys chips during play with its wallet's money (Five-Card Draw's
    # ``top_up``): the service lowers their ``max`` to what the wallet pays for.
    chip_purchases: ClassVar[frozenset[str]]
    # Combinations of options the game refuses at table creation, in words, for ``GET /games/``.
    refused_combinations: ClassVar[tuple[str, ...]]
    # The hand audit's hooks, or ``None`` for the audit's fallbacks (``games.engine.audit``).
    audit: AuditHooks | None
    # Fields an action may carry beyond those its legal actions list (a bet's ``amount``).
    action_fields: ClassVar[frozenset[str]]
    # The wire contract (``games.engine.contract``): a TypedDict per legal action, discriminated by
    # ``type``, and the TypedDict of the view's top-level keys.
    action_types: ClassVar[tuple[type, ...]]
    view_type: ClassVar[type | None]

    def money_of(self, options: Mapping[str, Any] | None) -> str:
        """``money`` for a table with these options (a game with cash and tournament formats
        takes chips in one and a stake in the other)."""
        ...

    def buy_in_range(self, config: Mapping[str, Any]) -> tuple[int, int] | None:
        """The fewest and most chips a person may buy when they join, or ``None`` when everyone
        gets what the game gives (``buy_in``)."""
        ...

    def configure(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated config (options with defaults, plus ``seats``); ``InvalidOptions`` if refused."""
        ...

    def initial_state(self, config: Mapping[str, Any]) -> Any:
        """The state of a table before its first event."""
        ...

    def decide(self, state: Any, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        """The events a command causes, including automatic consequences; ``IllegalAction`` if refused."""
        ...

    def evolve(self, state: Any, event: Any) -> Any:
        """The state after one recorded event. Never fails on a recorded event."""
        ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (or a spectator, ``None``) may see of the state."""
        ...

    def view_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see of one event (its public fields plus what is private to it)."""
        ...

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        """The commands ``seat`` may send now, each shaped like the API's ``action``."""
        ...

    def to_act(self, state: Any) -> tuple[int, ...]:
        """The seats whose action the game waits for (empty when none)."""
        ...

    def pending_system(self, state: Any) -> dict[str, Any] | None:
        """A system command the service must send now without waiting (``start_hand`` between
        hands, say), or ``None``."""
        ...

    def deadline(self, state: Any, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
        """Seconds until the timed command the state waits for, and that command, or ``None``."""
        ...

    def is_finished(self, state: Any) -> bool:
        """True once the game has ended."""
        ...

    def settlements(self, state: Any, event: Any) -> list[Movement]:
        """The chip and money movements ``event`` implies, given the state just before it."""
        ...

    def hand_no(self, state: Any) -> int:
        """The number of the hand the state is in (0 before the first deal)."""
        ...

    def chip_counts(self, state: Any) -> Mapping[tuple[Any, ...], int] | None:
        """The chips each chip account should hold by the state (for ``reconcile``), or ``None``
        for a game without chips."""
        ...

    def buy_in(self, config: Mapping[str, Any]) -> int | None:
        """What a seat pays at the start, in minor units, or ``None`` for the service's rule (the
        chips' worth at ``chip_value`` plus the stake)."""
        ...

    def bot(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The game's bot: an action chosen from its own seat's view only, so it cannot cheat."""
        ...

    def played_by_bot(self, state: Any) -> frozenset[int]:
        """The seats of players who sat out or left, which the table's bot plays (CM-20)."""
        ...

    def departed(self, state: Any) -> frozenset[int]:
        """The seats whose player left the table (CM-20): they may send nothing more."""
        ...

    def owner_actions(self, state: Any) -> list[dict[str, Any]]:
        """The ``owner_commands`` the table's owner may send now, each shaped like the API's
        ``action``: exactly those ``decide`` would accept (checked as ``decide`` checks them)."""
        ...


def random_legal(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Any legal action, uniformly: the bot of a game without one of its own."""
    return dict(rng.choice(list(legal)))


class Rules:
    """The defaults of a Decider's optional capabilities; a game's class overrides what it has."""

    money: ClassVar[str] = "chips"
    owner_commands: ClassVar[frozenset[str]] = frozenset()
    chip_purchases: ClassVar[frozenset[str]] = frozenset()
    refused_combinations: ClassVar[tuple[str, ...]] = ()
    audit: AuditHooks | None = None
    action_fields: ClassVar[frozenset[str]] = frozenset()
    action_types: ClassVar[tuple[type, ...]] = ()
    view_type: ClassVar[type | None] = None

    def money_of(self, options: Mapping[str, Any] | None) -> str:
        """The game's one kind of money."""
        return self.money

    def buy_in_range(self, config: Mapping[str, Any]) -> tuple[int, int] | None:
        """Everyone gets what the game gives."""
        return None

    def hand_no(self, state: Any) -> int:
        """The ``hand_no`` field every game's state carries."""
        return int(state.hand_no)

    def chip_counts(self, state: Any) -> Mapping[tuple[Any, ...], int] | None:
        """No chips to check."""
        return None

    def buy_in(self, config: Mapping[str, Any]) -> int | None:
        """The service's rule."""
        return None

    def bot(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
        """Any legal action."""
        return random_legal(view, legal, rng)

    def played_by_bot(self, state: Any) -> frozenset[int]:
        """The ``presence`` every game's state keeps (``games.engine.presence``)."""
        presence: Presence = getattr(state, "presence", EVERYONE_HERE)
        return presence.away

    def departed(self, state: Any) -> frozenset[int]:
        """The players who left, as the ``presence`` of the state keeps them."""
        presence: Presence = getattr(state, "presence", EVERYONE_HERE)
        return presence.gone

    def owner_actions(self, state: Any) -> list[dict[str, Any]]:
        """No commands of the owner's."""
        return []


def offered_actions(decider: Decider, state: Any, seat: int | None, *, owner: bool = False) -> list[dict[str, Any]]:
    """Everything a caller may send now, and nothing else: the table view offers this list and the
    service accepts exactly the types it holds, so what is offered is what is accepted.

    ``seat`` is the caller's seat (``None`` when they have none) and ``owner`` whether they own the
    table. A seat its player plays is offered the game's legal actions. A seat the table's bot plays
    (CM-20) is offered only what the game lists about presence, ``sit_in`` and ``leave`` (as the
    game allows leaving): the game's moves for it are the bot's. A seat whose player left
    (``departed``) is offered nothing. The owner, seated or not, is offered the game's ``owner_actions`` as well."""
    offered: list[dict[str, Any]] = []
    if seat is not None and seat not in decider.departed(state):
        legal = decider.legal_actions(state, seat)
        if seat in decider.played_by_bot(state):
            legal = [action for action in legal if is_presence_action(action)]
        offered.extend(legal)
    if owner:
        offered.extend(decider.owner_actions(state))
    return offered


def replay(decider: Decider, config: Mapping[str, Any], events: Iterable[Any], state: Any = None) -> Any:
    """Fold events into a state, from ``initial_state(config)`` unless a state is given."""
    return functools.reduce(decider.evolve, events, decider.initial_state(config) if state is None else state)


def event_types_by_name(decider: Decider) -> dict[str, type]:
    """The decider's event classes by stored type name."""
    return {cls.__name__: cls for cls in decider.event_types}
