"""Guerra Chevichona's state and ``evolve``, which folds one recorded event into it without
re-checking the rules, plus the two facts about a state that every module asks: who is still in
and whom the coming round waits for."""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Mapping
from typing import Any

from games.engine import presence
from games.engine.presence import EVERYONE_HERE, LeftTable, Presence, SatIn, SatOut
from games.rules.guerra.cards import deal
from games.rules.guerra.events import (
    AmbushMade,
    BattleCardsLaid,
    BattleGrew,
    BattleWon,
    CardsThrown,
    ExtraCardThrown,
    ForfeitsTaken,
    MatchEnded,
    MatchStarted,
    PileShuffled,
    PlayerOut,
    RoundTaken,
    SkirmishPlayed,
    StalemateDrawn,
    ThrowSent,
)


@dataclasses.dataclass(frozen=True, slots=True)
class Play:
    """Cards one player put on the table in the round: ``throw`` (face up), ``battle`` (face down
    then the face-up last one) or ``extra`` (one card face up)."""

    seat: int
    kind: str
    cards: tuple[str, ...]
    skirmish: int = 0
    layer: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class LastRound:
    """What the previous round showed, for the view."""

    round_no: int
    size: int
    plays: tuple[Play, ...]
    skirmishes: tuple[tuple[int, ...], ...]
    battles: tuple[tuple[int, int], ...]
    ambush: tuple[int, ...]
    taker: int
    count: int
    draws: tuple[tuple[tuple[int, ...], int], ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Match:
    """What is fixed for the whole match: the table's options and, once dealt, hand 1's fair
    values (kept for the ambush and stalemate streams; the state itself is never shown)."""

    deck: str = "english"
    jokers: bool = False
    ace_high: bool = False
    max_rounds: int = 2000
    auto_play: bool = False
    stake: int = 0
    table_id: str = ""
    commitment: str = ""
    next_commitment: str | None = None
    client_seed: str = ""
    server_seed: str = ""  # hex; secret until the match ends


@dataclasses.dataclass(frozen=True, slots=True)
class State:
    """A match. ``piles`` are top first; ``out`` is ``""`` for a player still in, else the reason;
    ``size`` is the size of the coming round; ``table`` and ``forfeited`` hold a round's cards
    until it is taken; ``presence`` says which seats the table's bot plays (CM-20)."""

    seats: int
    match: Match = Match()
    hand_no: int = 0
    piles: tuple[tuple[str, ...], ...] = ()
    out: tuple[str, ...] = ()
    thrown: tuple[bool, ...] = ()
    round_no: int = 0
    size: int = 2
    table: tuple[Play, ...] = ()
    forfeited: tuple[str, ...] = ()
    skirmishes: tuple[tuple[int, ...], ...] = ()
    battles: tuple[tuple[int, int], ...] = ()
    ambush: tuple[int, ...] = ()
    ambushes: int = 0
    stalemates: int = 0
    draws: tuple[tuple[tuple[int, ...], int], ...] = ()  # this round's stalemate draws (GC-14)
    last_round: LastRound | None = None
    finished: bool = False
    winners: tuple[int, ...] = ()
    end_reason: str = ""
    presence: Presence = EVERYONE_HERE


_FIELD_NAMES = tuple(field.name for field in dataclasses.fields(State))
_FIELD_INDEX = {name: index for index, name in enumerate(_FIELD_NAMES)}
_FIELD_VALUES = operator.attrgetter(*_FIELD_NAMES)


def _replace(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` for State, faster: ``evolve`` copies the state once per event and a
    match has hundreds of events, while the library function re-inspects the fields each call."""
    values = list(_FIELD_VALUES(state))
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return State(*values)


def _put(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def initial_state(config: Mapping[str, Any]) -> State:
    """A table before the deal; ``stake`` (minor units per player) comes from the service."""
    match = Match(
        deck=config.get("deck", "english"),
        jokers=config.get("jokers", False),
        ace_high=config.get("ace_high", False),
        max_rounds=config.get("max_rounds", 2000),
        auto_play=config.get("auto_play", False),
        stake=config.get("stake", 0) or 0,
    )
    return State(seats=config["seats"], match=match)


def players_in(state: State) -> list[int]:
    """Seats not out of the match, in seat order."""
    return [seat for seat in range(state.seats) if not state.out[seat]]


def awaited(state: State) -> tuple[int, ...]:
    """Seats the coming round waits for: still in, not yet thrown, able to throw it (GC-10)."""
    if not state.hand_no or state.finished:
        return ()
    return tuple(
        seat
        for seat in range(state.seats)
        if not state.out[seat] and not state.thrown[seat] and len(state.piles[seat]) >= state.size
    )


# --- evolve -----------------------------------------------------------------------------------


@functools.singledispatch
def evolve(event: Any, state: State) -> State:
    """The state after one recorded event; never re-checks the rules."""
    raise TypeError(f"not a Guerra event: {event!r}")


@evolve.register
def _(event: MatchStarted, state: State) -> State:
    match = dataclasses.replace(
        state.match,
        table_id=event.table_id,
        commitment=event.commitment,
        next_commitment=event.next_commitment,
        client_seed=event.client_seed,
        server_seed=event.server_seed,
    )
    return _replace(
        state,
        match=match,
        hand_no=event.hand_no,
        piles=deal(event.cards, event.seats),
        out=("",) * event.seats,
        thrown=(False,) * event.seats,
    )


@evolve.register
def _(event: ThrowSent, state: State) -> State:
    return _replace(state, thrown=_put(state.thrown, event.seat, True))


@evolve.register
def _(event: CardsThrown, state: State) -> State:
    pile = state.piles[event.seat]
    return _replace(
        state,
        piles=_put(state.piles, event.seat, pile[len(event.cards) :]),
        table=(*state.table, Play(event.seat, "throw", event.cards)),
    )


@evolve.register
def _(event: PlayerOut, state: State) -> State:
    return _replace(
        state,
        piles=_put(state.piles, event.seat, ()),
        out=_put(state.out, event.seat, event.reason),
        thrown=_put(state.thrown, event.seat, False),
        forfeited=state.forfeited + event.cards,
    )


@evolve.register
def _(event: AmbushMade, state: State) -> State:
    return _replace(state, ambush=event.seats)


@evolve.register
def _(event: SkirmishPlayed, state: State) -> State:
    return _replace(state, skirmishes=(*state.skirmishes, event.seats))


@evolve.register
def _(event: BattleCardsLaid, state: State) -> State:
    cards = (*event.face_down, event.face_up)
    pile = state.piles[event.seat]
    return _replace(
        state,
        piles=_put(state.piles, event.seat, pile[len(cards) :]),
        table=(*state.table, Play(event.seat, "battle", cards, event.skirmish, event.layer)),
    )


@evolve.register
def _(event: BattleGrew, state: State) -> State:
    return state


@evolve.register
def _(event: BattleWon, state: State) -> State:
    return _replace(state, battles=(*state.battles, (event.skirmish, event.seat)))


@evolve.register
def _(event: ExtraCardThrown, state: State) -> State:
    pile = state.piles[event.seat]
    return _replace(
        state,
        piles=_put(state.piles, event.seat, pile[1:]),
        table=(*state.table, Play(event.seat, "extra", (event.card,))),
    )


@evolve.register
def _(event: StalemateDrawn, state: State) -> State:
    return _replace(state, stalemates=state.stalemates + 1, draws=(*state.draws, (event.seats, event.seat)))


@evolve.register
def _(event: RoundTaken, state: State) -> State:
    last = LastRound(
        round_no=event.round_no,
        size=state.size,
        plays=state.table,
        skirmishes=state.skirmishes,
        battles=state.battles,
        ambush=state.ambush,
        taker=event.seat,
        count=event.count,
        draws=state.draws,
    )
    return _replace(
        state,
        piles=_put(state.piles, event.seat, state.piles[event.seat] + event.cards),
        thrown=(False,) * state.seats,
        round_no=event.round_no,
        size=event.next_size,
        table=(),
        forfeited=(),
        skirmishes=(),
        battles=(),
        ambush=(),
        draws=(),
        ambushes=state.ambushes + (1 if state.ambush else 0),
        last_round=last,
    )


@evolve.register
def _(event: PileShuffled, state: State) -> State:
    return _replace(state, piles=_put(state.piles, event.seat, event.cards))


@evolve.register
def _(event: ForfeitsTaken, state: State) -> State:
    return _replace(
        state,
        piles=_put(state.piles, event.seat, state.piles[event.seat] + event.cards),
        forfeited=(),
    )


@evolve.register
def _(event: MatchEnded, state: State) -> State:
    return _replace(state, finished=True, winners=event.winners, end_reason=event.reason)


@evolve.register
def _(event: SatOut | SatIn | LeftTable, state: State) -> State:
    return _replace(state, presence=presence.evolve(state.presence, event))
