"""The contract every game implements, and the registry of games by slug.

A game is a *Decider*: ``decide`` turns a command into events, ``evolve`` folds one event into the
state, and replay is ``functools.reduce(evolve, events, initial_state(config))``. Everything here
is pure: no Django, no I/O, no clock and no randomness of its own. What the engine may not make
itself (the server seed of a hand that starts, the client seeds, the time) arrives in ``Context``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

import msgspec

JSON = Any


class IllegalAction(Exception):
    """A command the rules refuse: a sentence for the player and the actions that are legal now."""

    def __init__(self, message: str, *, legal: Sequence[Mapping[str, Any]] = (), code: str = "illegal_action"):
        super().__init__(message)
        self.message = message
        self.legal = [dict(action) for action in legal]
        self.code = code


class InvalidOptions(ValueError):
    """Table options that are out of range or refused in combination; the message names them."""


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


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    """A table option with its type, default and range or choices, as ``GET /games/`` lists it."""

    name: str
    type: str  # "int", "bool", "choice", "str"
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    help: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "type": self.type, "default": self.default}
        if self.minimum is not None:
            data["min"] = self.minimum
        if self.maximum is not None:
            data["max"] = self.maximum
        if self.choices:
            data["choices"] = list(self.choices)
        if self.help:
            data["help"] = self.help
        return data


def validate_options(specs: Sequence[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and check types and ranges; raise ``InvalidOptions`` naming the bad option."""
    given = dict(given or {})
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise InvalidOptions(f"Unknown option(s): {', '.join(unknown)}. Known: {', '.join(sorted(known))}.")
    result: dict[str, Any] = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        if spec.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptions(f"Option '{spec.name}' must be a whole number, not {value!r}.")
            if (spec.minimum is not None and value < spec.minimum) or (
                spec.maximum is not None and value > spec.maximum
            ):
                raise InvalidOptions(
                    f"Option '{spec.name}' must be between {spec.minimum} and {spec.maximum}, not {value}."
                )
        elif spec.type == "bool":
            if not isinstance(value, bool):
                raise InvalidOptions(f"Option '{spec.name}' must be true or false, not {value!r}.")
        elif spec.type == "choice":
            if value not in spec.choices:
                raise InvalidOptions(f"Option '{spec.name}' must be one of {', '.join(spec.choices)}, not {value!r}.")
        elif spec.type == "str" and not isinstance(value, str):
            raise InvalidOptions(f"Option '{spec.name}' must be a string, not {value!r}.")
        result[spec.name] = value
    return result


@runtime_checkable
class Decider(Protocol):
    """One game. Modules in ``games.rules`` implement this and register an instance.

    Commands are plain dicts shaped like the API's ``action`` body, with the acting seat added by
    the service: ``{"type": "knock", "seat": 2}``. System commands have no seat:
    ``{"type": "start_hand"}``, ``{"type": "timeout", "seat": 2}``. Events are frozen dataclasses
    named in the past tense, registered in ``event_types``.
    """

    slug: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]]
    event_types: ClassVar[tuple[type, ...]]
    state_type: ClassVar[type]

    def configure(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated config (options with defaults, plus ``seats``); ``InvalidOptions`` if refused."""

    def initial_state(self, config: Mapping[str, Any]) -> Any:
        """The state of a table before its first event."""

    def decide(self, state: Any, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        """The events a command causes, including automatic consequences; ``IllegalAction`` if refused."""

    def evolve(self, state: Any, event: Any) -> Any:
        """The state after one recorded event. Never fails on a recorded event."""

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (or a spectator, ``None``) may see of the state."""

    def view_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see of one event (its public fields plus what is private to it)."""

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        """The commands ``seat`` may send now, each shaped like the API's ``action``."""

    def to_act(self, state: Any) -> tuple[int, ...]:
        """The seats whose action the game waits for (empty when none)."""

    def pending_system(self, state: Any) -> dict[str, Any] | None:
        """A system command the service must send now without waiting (``start_hand`` between
        hands, say), or ``None``."""

    def deadline(self, state: Any, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
        """Seconds until the timed command the state waits for, and that command, or ``None``."""

    def is_finished(self, state: Any) -> bool:
        """True once the game has ended."""

    def settlements(self, state: Any, event: Any) -> list[Movement]:
        """The chip and money movements ``event`` implies, given the state just before it."""


class Auditable(Protocol):
    """OPTIONAL hooks a game may add for hand audits (``games.audit``, ``games.verify``,
    ``games.history``). None is required: look each up with :func:`hook`; without one the audit
    falls back (no deck, a ``skip`` verification check, no showdown, generic history lines).

    ``hand`` is always the decoded events of one hand (the game's own event objects, secret fields
    included), in order; ``config`` the table's config (options plus ``seats`` and money terms).
    """

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """The name in ``games.engine.cards.DECKS`` of the canonical deck this hand shuffled with
        purpose ``deck`` (CM-3, CM-9), e.g. ``"english_54"``; ``None`` when the hand dealt no deck.
        ``docs/verify_hand.py`` knows the same names."""

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """Every way the cards that the hand's events record as dealt differ from dealing ``deck``
        (the shuffle recomputed from the revealed seed, top card first) in the game's deal order.
        Empty when they agree. Each entry is a sentence naming the event and the place, e.g.
        ``"HandStarted: seat 2 holds Kd, the deck deals 7c (deck position 5)"``."""

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Callable[[str], Any]) -> list[str]:
        """Re-decide what the hand's recorded outcome rests on, from its events alone: every random
        choice besides the deck recomputed with ``streams`` (``streams(purpose)`` is the hand's
        :class:`games.engine.fairness.Stream` for that purpose, CM-7, CM-18), and whatever the game
        can re-evaluate (hand values, tie-breaks, who took the pot). Differences as sentences naming
        the event; empty when everything agrees."""

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """One dict per seat shown at the end of the hand: ``seat`` (int), ``cards`` (codes),
        ``category`` (e.g. ``"full house"``, or ``None``), ``description`` (a sentence),
        ``outcome`` (``"wins"``, ``"splits"``, ``"pays"``, ``"safe"``, ``"loses"``, ``"out"``) and
        ``tie_break`` (a list of steps, each a dict with at least ``rule`` and ``sentence``; empty
        when no tie had to be broken). Empty list when nothing is shown."""

    def history_line(self, event: Any, actor: str) -> str | None:
        """One line of the plain-text hand history for ``event`` (``actor`` is the name of who
        caused it: a username, ``"bot (seat 2)"`` or ``"dealer"``), or ``None`` for the generic
        line. The hand is over, so the line may show what was secret during it."""

    def phh(self, config: Mapping[str, Any], hand: Sequence[Any], players: Sequence[str]) -> str | None:
        """The hand in the Poker Hand History format (PHH, TOML text) for poker games where it fits,
        or ``None``; ``players`` are the seats' names in seat order."""


AUDIT_HOOKS = ("audit_deck", "audit_deal", "audit_outcome", "showdown", "history_line", "phh")


def hook(decider: Any, name: str) -> Callable[..., Any] | None:
    """The game's optional audit hook ``name`` (one of :data:`AUDIT_HOOKS`), or ``None``."""
    if name not in AUDIT_HOOKS:
        raise ValueError(f"{name!r} is not an audit hook; known: {', '.join(AUDIT_HOOKS)}")
    return getattr(decider, name, None)


# --- events and state as JSON --------------------------------------------------------------

SECRET = {"secret": True}


def secret_field(**kwargs: Any) -> Any:
    """A dataclass field kept in the event's ``secret`` part (seeds, hidden cards)."""
    return dataclasses.field(metadata=SECRET, **kwargs)


def event_type(event: Any) -> str:
    """The stored type name of an event: its class name."""
    return type(event).__name__


@functools.cache
def _secret_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls) if f.metadata.get("secret"))


def encode_event(event: Any) -> tuple[str, dict[str, JSON], dict[str, JSON]]:
    """Split an event into its type, its public data and its secret data, as JSON values."""
    data = msgspec.to_builtins(event)
    secrets = _secret_names(type(event))
    public = {k: v for k, v in data.items() if k not in secrets}
    secret = {k: v for k, v in data.items() if k in secrets}
    return event_type(event), public, secret


def decode_event(
    types: Mapping[str, type], type_name: str, data: Mapping[str, JSON], secret: Mapping[str, JSON] | None = None
) -> Any:
    """Rebuild an event from its stored parts."""
    cls = types[type_name]
    return msgspec.convert({**data, **(secret or {})}, type=cls)


def encode_state(state: Any) -> JSON:
    """State as JSON values, exact enough that ``decode_state`` gives an equal state."""
    return msgspec.to_builtins(state)


def decode_state(state_type: type, data: JSON) -> Any:
    """Rebuild a state from ``encode_state``'s output."""
    return msgspec.convert(data, type=state_type)


def replay(decider: Decider, config: Mapping[str, Any], events: Iterable[Any], state: Any = None) -> Any:
    """Fold events into a state, from ``initial_state(config)`` unless a state is given."""
    return functools.reduce(decider.evolve, events, decider.initial_state(config) if state is None else state)


# --- the registry ---------------------------------------------------------------------------

_REGISTRY: dict[str, Decider] = {}


def register(decider: Decider) -> Decider:
    """Make a game available by its slug. Registering the same slug again replaces it (tests)."""
    _REGISTRY[decider.slug] = decider
    return decider


def unregister(slug: str) -> None:
    """Remove a game (tests that register a small one clean up after themselves)."""
    _REGISTRY.pop(slug, None)


def get(slug: str) -> Decider:
    """The game with this slug; ``KeyError`` if there is none."""
    return _REGISTRY[slug]


def all_games() -> list[Decider]:
    """Every registered game, by slug."""
    return [_REGISTRY[slug] for slug in sorted(_REGISTRY)]


def event_types_by_name(decider: Decider) -> dict[str, type]:
    """The decider's event classes by stored type name."""
    return {cls.__name__: cls for cls in decider.event_types}
