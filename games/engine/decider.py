"""The contract every game implements.

A game is a *Decider*: ``decide`` turns a command into events, ``evolve`` folds one event into the
state, and replay is ``functools.reduce(evolve, events, initial_state(config))``. Each game is one
:class:`Game` value holding its facts and its modules' functions, the shared capabilities as
defaults, built once in its package's ``game`` module. Everything here
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
from typing import Any

from games.engine.audit import AuditHooks
from games.engine.errors import IllegalAction
from games.engine.options import Option
from games.engine.presence import EVERYONE_HERE, Presence, is_presence_action
from games.engine.sentences import PRESENCE, Describe

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


def random_legal(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Any legal action, uniformly: the bot of a game without one of its own."""
    return dict(rng.choice(list(legal)))


def _nothing(_: Any) -> None:
    """No answer: no system command due (``decide`` chains every consequence itself), no chips to
    check, no span of buy-ins (everyone gets what the game gives), the service's buy-in rule."""
    return None


def _no_owner_actions(state: Any) -> list[dict[str, Any]]:
    """No commands of the owner's."""
    return []


def _hand_no(state: Any) -> int:
    """The ``hand_no`` field every game's state carries."""
    return int(state.hand_no)


def _finished(state: Any) -> bool:
    """The ``finished`` flag of the state."""
    return bool(state.finished)


def _played_by_bot(state: Any) -> frozenset[int]:
    """The ``presence`` every game's state keeps (``games.engine.presence``)."""
    presence: Presence = getattr(state, "presence", EVERYONE_HERE)
    return presence.away


def _departed(state: Any) -> frozenset[int]:
    """The players who left, as the ``presence`` of the state keeps them."""
    presence: Presence = getattr(state, "presence", EVERYONE_HERE)
    return presence.gone


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class Game:
    """One game, as a value. Each package in ``games.rules`` builds one from its modules' functions
    and ``games.rules`` registers it; a field with a default is a capability most games share.

    Commands are plain dicts shaped like the API's ``action`` body, with the acting seat added by
    the service: ``{"type": "knock", "seat": 2}``. System commands have no seat:
    ``{"type": "start_hand"}``, ``{"type": "timeout", "seat": 2}``. Events are frozen dataclasses
    named in the past tense, listed in ``event_types``.

    A game is the same value for its whole life and is compared by identity (``eq=False``), as
    the registry hands out the one it holds.
    """

    slug: str
    name: str
    # Slugs the game had before (a table stored or a request sent with one): taken on input, and
    # answered with ``slug``.
    former_slugs: tuple[str, ...] = ()
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    event_types: tuple[type, ...]
    state_type: type

    # Validated config (options with defaults, plus ``seats``); ``InvalidOptions`` if refused.
    configure: Callable[[int, Mapping[str, Any] | None], dict[str, Any]]
    # The state of a table before its first event, from its config.
    initial_state: Callable[[Mapping[str, Any]], Any]
    # ``decide(state, command, ctx)``: the events a command causes, including automatic
    # consequences; ``IllegalAction`` if refused.
    decide: Callable[[Any, Mapping[str, Any], Context], list[Any]]
    # ``fold(event, state)``: the state after one recorded event, never failing on one. It is the
    # game's ``state.evolve``, one ``functools.singledispatch`` over its events, hence the event
    # first; ``evolve`` takes them in the order ``replay`` folds with.
    fold: Callable[[Any, Any], Any]
    # ``view(state, seat)``: what ``seat`` (or a spectator, ``None``) may see of the state.
    view: Callable[[Any, int | None], dict[str, Any]]
    # ``view_event(event, seat)``: what ``seat`` may see of one event (its public fields plus what
    # is private to it).
    view_event: Callable[[Any, int | None], dict[str, Any]]
    # ``legal_actions(state, seat)``: the commands ``seat`` may send now, each shaped like the
    # API's ``action``.
    legal_actions: Callable[[Any, int], list[dict[str, Any]]]
    # The seats whose action the game waits for (empty when none).
    to_act: Callable[[Any], tuple[int, ...]]
    # ``deadline(state, config)``: seconds until the timed command the state waits for, and that
    # command, or ``None``.
    deadline: Callable[[Any, Mapping[str, Any]], tuple[float, dict[str, Any]] | None]
    # ``settlements(state, event)``: the chip and money movements ``event`` implies, given the
    # state just before it.
    settlements: Callable[[Any, Any], list[Movement]]

    # "chips": a table's money buys chips at ``chip_value``; "stake": each player stakes an ``amount``.
    money: str = "chips"
    # ``money`` for a table with these options, for a game with cash and tournament formats that
    # takes chips in one and a stake in the other; ``None``: always ``money`` (see ``money_of``).
    money_by_options: Callable[[Mapping[str, Any] | None], str] | None = None
    # Commands only the table's owner may send (Whiskey Poker's ``end_match``).
    owner_commands: frozenset[str] = frozenset()
    # Actions by which a seat buys chips during play with its wallet's money (Five-Card Draw's
    # ``top_up``): the service lowers their ``max`` to what the wallet pays for.
    chip_purchases: frozenset[str] = frozenset()
    # Combinations of options the game refuses at table creation, in words, for ``GET /games/``.
    refused_combinations: tuple[str, ...] = ()
    # The hand audit's hooks, or ``None`` for the audit's fallbacks (``games.engine.audit``).
    audit: AuditHooks | None = None
    # Fields an action may carry beyond those its legal actions list (a bet's ``amount``).
    action_fields: frozenset[str] = frozenset()
    # The wire contract (``games.engine.contract``): a TypedDict per legal action, discriminated by
    # ``type``, and the TypedDict of the view's top-level keys.
    action_types: tuple[type, ...] = ()
    view_type: type | None = None
    # What ``view_event`` adds to an event's public fields, by event type: a TypedDict of the keys
    # a seat may see of its own (its dealt cards) or words said for it; a key the event already has
    # is replaced, a new one is optional (another seat does not get it).
    event_extras: Mapping[str, type] = dataclasses.field(default_factory=dict)

    # The fewest and most chips a person may buy when they join, or ``None`` when everyone gets
    # what the game gives (``buy_in``).
    buy_in_range: Callable[[Mapping[str, Any]], tuple[int, int] | None] = _nothing
    # A system command the service must send now without waiting (``start_hand`` between hands,
    # say), or ``None``.
    pending_system: Callable[[Any], dict[str, Any] | None] = _nothing
    # True once the game has ended.
    is_finished: Callable[[Any], bool] = _finished
    # The number of the hand the state is in (0 before the first deal).
    hand_no: Callable[[Any], int] = _hand_no
    # The chips each chip account should hold by the state (for ``reconcile``), or ``None`` for a
    # game without chips.
    chip_counts: Callable[[Any], Mapping[tuple[Any, ...], int] | None] = _nothing
    # What a seat pays at the start, in minor units, or ``None`` for the service's rule (the chips'
    # worth at ``chip_value`` plus the stake).
    buy_in: Callable[[Mapping[str, Any]], int | None] = _nothing
    # The game's bot: an action chosen from its own seat's view only, so it cannot cheat.
    bot: Policy = random_legal
    # The seats of players who sat out or left, which the table's bot plays (CM-20).
    played_by_bot: Callable[[Any], frozenset[int]] = _played_by_bot
    # The seats whose player left the table (CM-20): they may send nothing more.
    departed: Callable[[Any], frozenset[int]] = _departed
    # The ``owner_commands`` the table's owner may send now, each shaped like the API's
    # ``action``: exactly those ``decide`` would accept (checked as ``decide`` checks them).
    owner_actions: Callable[[Any], list[dict[str, Any]]] = _no_owner_actions
    # ``refusal(state, seat, command, extra)``: the game's one judge of a command, the refusal
    # ``decide`` would raise (an ``IllegalAction`` with its words and code, returned, not raised) or
    # ``None`` when ``decide`` accepts it; ``legal_actions`` lists the candidates it lets through.
    # ``extra`` is what ``Context.extra`` tells ``decide`` (what each wallet pays for, say). The
    # service asks it rather than running ``decide`` to find out; ``None`` for a game without one,
    # whose ``decide`` the service runs and throws the events away.
    refusal: Callable[[Any, int | None, Mapping[str, Any], Mapping[str, Any]], IllegalAction | None] | None = None
    # Each event type's sentence for players, from the event as the viewer is served it
    # (``games.engine.sentences``); the presence events' by default. An event type not listed reads
    # "<player> acts".
    sentences: Mapping[str, Describe] = dataclasses.field(default_factory=lambda: dict(PRESENCE))

    def evolve(self, state: Any, event: Any) -> Any:
        """The state after one recorded event: ``fold`` in the order ``replay`` reduces with."""
        return self.fold(event, state)

    def money_of(self, options: Mapping[str, Any] | None) -> str:
        """``money`` for a table with these options (``money_by_options`` when the game has it)."""
        return self.money if self.money_by_options is None else self.money_by_options(options)


# The name the event-sourcing pattern gives a game, which the service's annotations keep.
Decider = Game


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
