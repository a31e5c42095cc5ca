"""Guerra Chevichona: the many-player War (rules GC-1..GC-13).

Nobody has a choice to make: a round is played as soon as every player still in has sent ``throw``
(or the turn timer throws for the absent ones, or ``auto_play`` plays it), and ``decide`` then
plays the whole round, battles and tie-breaks included, in one go. A round's events are therefore
always recorded together, after the round is over.

Readings the rules leave open, chosen here and stated once:

- The deal (GC-2) gives card ``j`` of the shuffled deck to seat ``j mod n``; each pile keeps the
  dealt order, the first card dealt to a seat on top, so seat ``i``'s pile is ``deck[i::n]``.
- Within a battle layer (GC-5) the cards go seat by seat, each seat's face-down cards before its
  face-up one.
- A player who is out cannot take the round: a pitched battle (GC-8) counts the battles won by
  players still in. Whenever only one player is left in a round, that player takes it at once.
- Forfeited piles (GC-5, GC-10) go under the taker's pile in the order they were forfeited.
- Stalemate: when every player who must still put down a card (a round's throw, a battle layer, an
  extra card) has none, one of the contenders is drawn with the match's fair stream, purpose
  ``stalemate-N`` for the N-th such draw (CM-7, CM-8); the others are out. Without it the cards
  on the table would belong to nobody and the match could not end.
- A turn timeout throws for every player still awaited (the timer restarts at each throw).
- Players with no card left when a round is over are out at once (``no_cards``); players with some
  cards but fewer than the next round asks for are out when that round is played (GC-10) and are
  not awaited for it.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.engine import fairness
from games.engine.audit import NoExports
from games.engine.cards import JOKERS, RANK_VALUE, spanish_deck, spanish_rank
from games.engine.cards import deck as english_deck
from games.engine.codec import encode_event, secret_field
from games.engine.decider import Context, Movement, Rules
from games.engine.errors import IllegalAction, InvalidOptions
from games.engine.options import Option, validate_options
from games.rules.guerra import bot

# --- cards (GC-1) -----------------------------------------------------------------------------

JOKER_VALUE = 99  # above every rank of every deck; X1 and X2 equal each other

DECKS = ("english", "spanish_40", "spanish_48")


def match_deck(name: str, jokers: bool) -> tuple[str, ...]:
    """The canonical order of a match's deck (GC-1, CM-3)."""
    if name == "english":
        return english_deck(jokers=jokers)
    if name == "spanish_40":
        return spanish_deck(40, jokers)
    if name == "spanish_48":
        return spanish_deck(48, jokers)
    raise ValueError(f"unknown deck {name!r}")


# Spanish and English codes overlap ("2c" is a two in both decks), and their values agree.
VALUE: dict[str, int] = {card: RANK_VALUE[card[0]] for card in english_deck()}
VALUE.update({card: spanish_rank(card) for card in spanish_deck(48)})
VALUE.update(dict.fromkeys(JOKERS, JOKER_VALUE))

# Canonical positions for CM-18, per deck family (the 40-card deck keeps the 48-card deck's order).
_CANONICAL = {
    "english": {card: i for i, card in enumerate(english_deck(jokers=True))},
    "spanish": {card: i for i, card in enumerate(spanish_deck(48, jokers=True))},
}


def canonical(cards: Sequence[str], deck_name: str) -> list[str]:
    """``cards`` in their deck's canonical order, as a later shuffle starts from (CM-18)."""
    index = _CANONICAL["english" if deck_name == "english" else "spanish"]
    return sorted(cards, key=index.__getitem__)


def deal(cards: Sequence[str], seats: int) -> tuple[tuple[str, ...], ...]:
    """Deal ``cards`` one at a time from seat 0 (GC-2); each pile is top first, in dealt order."""
    return tuple(tuple(cards[seat::seats]) for seat in range(seats))


# --- events -----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class MatchStarted:
    """The deck was shuffled and dealt (GC-2). The whole match is hand 1 of the fair stream."""

    hand_no: int
    table_id: str
    commitment: str
    next_commitment: str | None
    client_seed: str
    seats: int
    deck: str
    jokers: bool
    pile_sizes: tuple[int, ...]
    server_seed: str = secret_field()
    cards: tuple[str, ...] = secret_field()  # the shuffled deck, top first


@dataclasses.dataclass(frozen=True, slots=True)
class ThrowSent:
    """A player (or the timer, for an absent one) asked to throw in the coming round."""

    round_no: int
    seat: int
    by_timeout: bool


@dataclasses.dataclass(frozen=True, slots=True)
class CardsThrown:
    """A player threw the round's 2 or 3 cards face up, from the top of their pile (GC-3)."""

    round_no: int
    seat: int
    cards: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerOut:
    """A player is out; what is left of their pile goes to the taker of the round (GC-10, GC-11).

    ``reason``: ``short`` (cannot throw the round's cards), ``no_extra`` (no card for a tie-break),
    ``no_battle_cards`` (nothing to put down in a battle), ``no_cards`` (emptied by the round just
    taken), ``left`` (left the table; the pile goes to the next round's taker).
    """

    round_no: int
    seat: int
    reason: str
    count: int
    cards: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class AmbushMade:
    """Three cards of one rank in a 3-card round: the round is won by ambush (GC-9)."""

    round_no: int
    seats: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class SkirmishPlayed:
    """Skirmish ``skirmish`` (from 1): ``seats`` had its highest ``card`` (GC-4); two or more make
    it a battle (GC-7)."""

    round_no: int
    skirmish: int
    seats: tuple[int, ...]
    card: str


@dataclasses.dataclass(frozen=True, slots=True)
class BattleCardsLaid:
    """One player's layer of a battle: cards face down, then one face up (GC-7, GC-11)."""

    round_no: int
    skirmish: int
    layer: int
    seat: int
    face_up: str
    down_count: int
    face_down: tuple[str, ...] = secret_field()  # shown by RoundTaken once the round is over


@dataclasses.dataclass(frozen=True, slots=True)
class BattleGrew:
    """The face-up cards of a layer tied at the top among ``seats``: another layer (GC-7)."""

    round_no: int
    skirmish: int
    layer: int
    seats: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class BattleWon:
    """The battle of skirmish ``skirmish`` was won by ``seat`` (``by_draw``: a stalemate draw)."""

    round_no: int
    skirmish: int
    seat: int
    layers: int
    by_draw: bool


@dataclasses.dataclass(frozen=True, slots=True)
class ExtraCardThrown:
    """A tied player threw one extra card face up (GC-6 ``skirmishes``, GC-8 ``battles``, GC-9
    ``ambush``)."""

    round_no: int
    seat: int
    card: str
    tie: str


@dataclasses.dataclass(frozen=True, slots=True)
class StalemateDrawn:
    """Nobody left to break a tie had a card: ``seat`` was drawn among ``seats`` (fair stream)."""

    round_no: int
    purpose: str
    seats: tuple[int, ...]
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoundTaken:
    """``seat`` took every card of the round and put them under their pile in GC-5 order.

    ``revealed`` shows the battles' face-down cards now that the round is over (GC-13), as
    ``(skirmish, layer, seat, cards)``.
    """

    round_no: int
    seat: int
    count: int
    next_size: int
    revealed: tuple[tuple[int, int, int, tuple[str, ...]], ...]
    cards: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class PileShuffled:
    """The ambush winner's pile was shuffled (GC-9, CM-18) with ``purpose``."""

    round_no: int
    seat: int
    purpose: str
    count: int
    cards: tuple[str, ...] = secret_field()  # the new pile, top first


@dataclasses.dataclass(frozen=True, slots=True)
class ForfeitsTaken:
    """The last player in took the piles of those who left (no round was needed)."""

    seat: int
    count: int
    cards: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is over (GC-12); the seed of hand 1 is revealed (CM-10).

    ``reason``: ``all_cards`` (one player holds every card) or ``max_rounds`` (most cards win).
    """

    hand_no: int
    server_seed: str
    reason: str
    winners: tuple[int, ...]
    pile_sizes: tuple[int, ...]


EVENT_TYPES: tuple[type, ...] = (
    MatchStarted,
    ThrowSent,
    CardsThrown,
    PlayerOut,
    AmbushMade,
    SkirmishPlayed,
    BattleCardsLaid,
    BattleGrew,
    BattleWon,
    ExtraCardThrown,
    StalemateDrawn,
    RoundTaken,
    PileShuffled,
    ForfeitsTaken,
    MatchEnded,
)

# --- state ------------------------------------------------------------------------------------


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


@dataclasses.dataclass(frozen=True, slots=True)
class Match:
    """What is fixed for the whole match: the table's options and, once dealt, hand 1's fair
    values (kept for the ambush and stalemate streams; the state itself is never shown)."""

    deck: str = "english"
    jokers: bool = False
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
    until it is taken."""

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
    last_round: LastRound | None = None
    finished: bool = False
    winners: tuple[int, ...] = ()
    end_reason: str = ""


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


# --- evolve -----------------------------------------------------------------------------------


def evolve(state: State, event: Any) -> State:
    """The state after one recorded event; never re-checks the rules."""
    return _apply(event, state)


@functools.singledispatch
def _apply(event: Any, state: State) -> State:
    raise TypeError(f"not a Guerra event: {event!r}")


@_apply.register
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


@_apply.register
def _(event: ThrowSent, state: State) -> State:
    return _replace(state, thrown=_put(state.thrown, event.seat, True))


@_apply.register
def _(event: CardsThrown, state: State) -> State:
    pile = state.piles[event.seat]
    return _replace(
        state,
        piles=_put(state.piles, event.seat, pile[len(event.cards) :]),
        table=(*state.table, Play(event.seat, "throw", event.cards)),
    )


@_apply.register
def _(event: PlayerOut, state: State) -> State:
    return _replace(
        state,
        piles=_put(state.piles, event.seat, ()),
        out=_put(state.out, event.seat, event.reason),
        thrown=_put(state.thrown, event.seat, False),
        forfeited=state.forfeited + event.cards,
    )


@_apply.register
def _(event: AmbushMade, state: State) -> State:
    return _replace(state, ambush=event.seats)


@_apply.register
def _(event: SkirmishPlayed, state: State) -> State:
    return _replace(state, skirmishes=(*state.skirmishes, event.seats))


@_apply.register
def _(event: BattleCardsLaid, state: State) -> State:
    cards = (*event.face_down, event.face_up)
    pile = state.piles[event.seat]
    return _replace(
        state,
        piles=_put(state.piles, event.seat, pile[len(cards) :]),
        table=(*state.table, Play(event.seat, "battle", cards, event.skirmish, event.layer)),
    )


@_apply.register
def _(event: BattleGrew, state: State) -> State:
    return state


@_apply.register
def _(event: BattleWon, state: State) -> State:
    return _replace(state, battles=(*state.battles, (event.skirmish, event.seat)))


@_apply.register
def _(event: ExtraCardThrown, state: State) -> State:
    pile = state.piles[event.seat]
    return _replace(
        state,
        piles=_put(state.piles, event.seat, pile[1:]),
        table=(*state.table, Play(event.seat, "extra", (event.card,))),
    )


@_apply.register
def _(event: StalemateDrawn, state: State) -> State:
    return _replace(state, stalemates=state.stalemates + 1)


@_apply.register
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
        ambushes=state.ambushes + (1 if state.ambush else 0),
        last_round=last,
    )


@_apply.register
def _(event: PileShuffled, state: State) -> State:
    return _replace(state, piles=_put(state.piles, event.seat, event.cards))


@_apply.register
def _(event: ForfeitsTaken, state: State) -> State:
    return _replace(
        state,
        piles=_put(state.piles, event.seat, state.piles[event.seat] + event.cards),
        forfeited=(),
    )


@_apply.register
def _(event: MatchEnded, state: State) -> State:
    return _replace(state, finished=True, winners=event.winners, end_reason=event.reason)


# --- legality (shared by decide and legal_actions) ----------------------------------------------


def _players_in(state: State) -> list[int]:
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


def _match_refusal(state: State) -> str | None:
    if not state.hand_no:
        return "The match has not started."
    if state.finished:
        return "The match is over."
    return None


def _throw_refusal(state: State, seat: Any) -> str | None:
    refusal = _match_refusal(state) or _seat_refusal(state, seat)
    if refusal:
        return refusal
    if state.thrown[seat]:
        return "You have already thrown for this round."
    if len(state.piles[seat]) < state.size:
        return f"You have {len(state.piles[seat])} card(s) for a {state.size}-card round; you will be out when it is played."
    return None


def _leave_refusal(state: State, seat: Any) -> str | None:
    return _match_refusal(state) or _seat_refusal(state, seat)


def _seat_refusal(state: State, seat: Any) -> str | None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats:
        return f"There is no seat {seat!r} at this table."
    if state.out[seat]:
        return "You are out of the match."
    return None


# --- playing a round (GC-3..GC-11) --------------------------------------------------------------


class _Round:
    """Emits a command's events and folds each into the state at once, so every decision reads
    the state the previous events made."""

    __slots__ = ("events", "number", "state")

    def __init__(self, state: State):
        self.state = state
        self.events: list[Any] = []
        self.number = state.round_no + 1

    def emit(self, event: Any) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    def pile(self, seat: int) -> tuple[str, ...]:
        return self.state.piles[seat]

    def players_in(self) -> list[int]:
        return _players_in(self.state)

    def draw(self, seats: Sequence[int]) -> int:
        """A fair draw among ``seats`` when none of them has a card left (module docstring)."""
        state = self.state
        purpose = f"stalemate-{state.stalemates + 1}"
        index = fairness.pick(
            len(seats),
            bytes.fromhex(state.match.server_seed),
            state.match.table_id,
            state.hand_no,
            state.match.client_seed,
            purpose,
        )
        self.emit(StalemateDrawn(self.number, purpose, tuple(seats), seats[index]))
        return seats[index]

    def put_out(self, seat: int, reason: str) -> None:
        cards = self.pile(seat)
        self.emit(PlayerOut(self.number, seat, reason, len(cards), cards))

    def tie_break(self, seats: list[int], tie: str) -> int:
        """Extra cards among ``seats`` until one is highest (GC-6, GC-8, GC-9, GC-10)."""
        while True:
            able = [seat for seat in seats if self.pile(seat)]
            if not able:
                winner = self.draw(seats)
                able = [winner]
            for seat in seats:
                if seat not in able:
                    self.put_out(seat, "no_extra")
            if len(able) == 1:
                return able[0]
            best = -1
            for seat in able:
                card = self.pile(seat)[0]
                self.emit(ExtraCardThrown(self.number, seat, card, tie))
                best = max(best, VALUE[card])
            seats = [play.seat for play in self.state.table[-len(able) :] if VALUE[play.cards[0]] == best]
            if len(seats) == 1:
                return seats[0]

    def battle(self, skirmish: int, tied: Sequence[int]) -> int:
        """Layers of three face down and one face up from every player still in (GC-7, GC-11)."""
        leaders = [seat for seat in tied if not self.state.out[seat]] or self.players_in()
        layer = 0
        while True:
            players = self.players_in()
            able = [seat for seat in players if self.pile(seat)]
            by_draw = not able
            if by_draw:
                able = [self.draw(leaders)]
            for seat in players:
                if seat not in able:
                    self.put_out(seat, "no_battle_cards")
            if len(able) == 1:
                self.emit(BattleWon(self.number, skirmish, able[0], layer, by_draw))
                return able[0]
            layer += 1
            best = -1
            ups: list[tuple[int, int]] = []
            for seat in able:
                cards = self.pile(seat)[:4]
                self.emit(BattleCardsLaid(self.number, skirmish, layer, seat, cards[-1], len(cards) - 1, cards[:-1]))
                ups.append((seat, VALUE[cards[-1]]))
                best = max(best, VALUE[cards[-1]])
            leaders = [seat for seat, value in ups if value == best]
            if len(leaders) == 1:
                self.emit(BattleWon(self.number, skirmish, leaders[0], layer, False))
                return leaders[0]
            self.emit(BattleGrew(self.number, skirmish, layer, tuple(leaders)))

    def play(self) -> None:
        """Play the coming round to its end: throws, ambush or skirmishes, battles, tie-breaks."""
        size = self.state.size
        players = self.players_in()
        short = [seat for seat in players if len(self.pile(seat)) < size]
        if len(short) == len(players):
            keeper = self.draw(players)
            short.remove(keeper)
        for seat in short:
            self.put_out(seat, "short")
        players = self.players_in()
        if len(players) == 1:
            self.take(players[0])
            return
        for seat in players:
            self.emit(CardsThrown(self.number, seat, self.pile(seat)[:size]))
        throws = self.state.table
        if size == 3:
            ambushers = tuple(
                play.seat for play in throws if VALUE[play.cards[0]] == VALUE[play.cards[1]] == VALUE[play.cards[2]]
            )
            if ambushers:
                self.emit(AmbushMade(self.number, ambushers))
                winner = ambushers[0] if len(ambushers) == 1 else self.tie_break(list(ambushers), "ambush")
                self.take(winner, ambush=True)
                return
        won = dict.fromkeys(players, 0)
        battles: list[tuple[int, tuple[int, ...]]] = []
        for k in range(size):
            best = max(VALUE[play.cards[k]] for play in throws)
            seats = tuple(play.seat for play in throws if VALUE[play.cards[k]] == best)
            card = next(play.cards[k] for play in throws if play.seat == seats[0])
            self.emit(SkirmishPlayed(self.number, k + 1, seats, card))
            if len(seats) == 1:
                won[seats[0]] += 1
            else:
                battles.append((k + 1, seats))
        if battles:
            won = {}
            for skirmish, seats in battles:
                if len(self.players_in()) == 1:
                    break
                winner = self.battle(skirmish, seats)
                won[winner] = won.get(winner, 0) + 1
            players = self.players_in()
            won = {seat: won.get(seat, 0) for seat in players}
        most = max(won.values())
        leaders = [seat for seat in players if won[seat] == most]
        if len(leaders) == 1:
            self.take(leaders[0])
        else:
            self.take(self.tie_break(leaders, "battles" if battles else "skirmishes"))

    def take(self, taker: int, ambush: bool = False) -> None:
        """The taker puts the round's cards under their pile in GC-5 order; then an ambush
        winner's pile is shuffled (GC-9) and emptied players are out."""
        state = self.state
        throws = [play for play in state.table if play.kind == "throw"]
        cards = [play.cards[k] for k in range(state.size) for play in throws]
        for play in state.table:
            if play.kind != "throw":
                cards.extend(play.cards)
        cards.extend(state.forfeited)
        plain = state.size == 2 and len(throws) == len(state.table)
        revealed = tuple(
            (play.skirmish, play.layer, play.seat, play.cards[:-1])
            for play in state.table
            if play.kind == "battle" and len(play.cards) > 1
        )
        self.emit(RoundTaken(self.number, taker, len(cards), 3 if plain else 2, revealed, tuple(cards)))
        if ambush:
            purpose = f"ambush-{self.state.ambushes}"
            state = self.state
            pile = fairness.shuffled(
                canonical(state.piles[taker], state.match.deck),
                bytes.fromhex(state.match.server_seed),
                state.match.table_id,
                state.hand_no,
                state.match.client_seed,
                purpose,
            )
            self.emit(PileShuffled(self.number, taker, purpose, len(pile), tuple(pile)))
        for seat in self.players_in():
            if not self.pile(seat):
                self.put_out(seat, "no_cards")

    def advance(self, force: bool = False) -> None:
        """Play every round that is ready (``force``: the coming one in any case) and end the
        match when it is over (GC-12)."""
        while not self.state.finished:
            state = self.state
            players = self.players_in()
            if len(players) <= 1:
                if players and state.forfeited:
                    cards = state.forfeited
                    self.emit(ForfeitsTaken(players[0], len(cards), cards))
                self.end("all_cards", tuple(players))
                return
            if state.round_no >= state.match.max_rounds:
                most = max(len(state.piles[seat]) for seat in players)
                self.end("max_rounds", tuple(seat for seat in players if len(state.piles[seat]) == most))
                return
            if awaited(state) and not force:
                return
            force = False
            self.number = state.round_no + 1
            self.play()

    def end(self, reason: str, winners: tuple[int, ...]) -> None:
        state = self.state
        sizes = tuple(len(pile) for pile in state.piles)
        self.emit(MatchEnded(state.hand_no, state.match.server_seed, reason, winners, sizes))


# --- the Decider --------------------------------------------------------------------------------


def _play_view(play: Play, round_over: bool) -> dict[str, Any]:
    if play.kind != "battle":
        return {"seat": play.seat, "kind": play.kind, "cards": list(play.cards)}
    data: dict[str, Any] = {
        "seat": play.seat,
        "kind": "battle",
        "skirmish": play.skirmish,
        "layer": play.layer,
        "face_up": play.cards[-1],
        "face_down_count": len(play.cards) - 1,
    }
    if round_over:
        data["face_down"] = list(play.cards[:-1])
    return data


class Guerra(NoExports, Rules):
    """Guerra Chevichona as a Decider (see the module docstring)."""

    slug: ClassVar[str] = "guerra"
    name: ClassVar[str] = "Guerra Chevichona"
    # A stake per player (``amount``), not chips: the cards are what the players win and lose.
    money: ClassVar[str] = "stake"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "deck", "choice", "english", choices=DECKS, help="52 English cards or a 40- or 48-card Spanish deck (GC-1)."
        ),
        Option("jokers", "bool", False, help="Add X1 and X2, above every card (GC-1)."),
        Option(
            "max_rounds",
            "int",
            2000,
            minimum=10,
            maximum=100_000,
            help="Most cards win after this many rounds (GC-12).",
        ),
        Option(
            "turn_seconds", "int", 60, minimum=5, maximum=3600, help="The server throws for absent players (GC-12)."
        ),
        Option("auto_play", "bool", False, help="The server plays every round every round_seconds."),
        Option("round_seconds", "int", 2, minimum=0, maximum=3600, help="Seconds between rounds with auto_play."),
    )
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES
    state_type: ClassVar[type] = State

    @property
    def audit(self) -> Any:  # the hooks below, until they move to guerra/audit.py
        return self

    def configure(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated options with defaults, plus ``seats`` (GC-1: 2 to 8 players)."""
        if isinstance(seats, bool) or not isinstance(seats, int) or not self.min_players <= seats <= self.max_players:
            raise InvalidOptions(f"Guerra Chevichona is for 2 to 8 players, not {seats!r} (seats).")
        config = validate_options(self.options, options)
        config["seats"] = seats
        return config

    def initial_state(self, config: Mapping[str, Any]) -> State:
        """A table before the deal; ``stake`` (minor units per player) comes from the service."""
        match = Match(
            deck=config.get("deck", "english"),
            jokers=config.get("jokers", False),
            max_rounds=config.get("max_rounds", 2000),
            auto_play=config.get("auto_play", False),
            stake=config.get("stake", 0) or 0,
        )
        return State(seats=config["seats"], match=match)

    def decide(self, state: State, command: Mapping[str, Any], ctx: Context) -> list[Any]:
        """The events of ``start``, ``throw``, ``timeout``, ``play_round`` or ``leave``, with every
        round they make ready played to its end and the match's end."""
        kind = command.get("type")
        seat = command.get("seat")
        if kind == "start":
            return self._start(state, ctx)
        play = _Round(state)
        if kind == "throw":
            self._refuse(state, seat, _throw_refusal(state, seat))
            play.emit(ThrowSent(state.round_no + 1, seat, False))
            play.advance()
        elif kind == "timeout":
            refusal = _match_refusal(state)
            waiting = awaited(state)
            if not refusal and not waiting:
                refusal = "No player is awaited."
            self._refuse(state, seat, refusal)
            for absent in waiting:
                play.emit(ThrowSent(state.round_no + 1, absent, True))
            play.advance()
        elif kind == "play_round":
            refusal = _match_refusal(state)
            if not refusal and not state.match.auto_play:
                refusal = "Rounds play themselves only with auto_play."
            self._refuse(state, seat, refusal)
            play.advance(force=True)
        elif kind == "leave":
            self._refuse(state, seat, _leave_refusal(state, seat))
            play.put_out(seat, "left")
            play.advance()
        else:
            self._refuse(state, seat, f"Unknown action {kind!r}; Guerra Chevichona knows throw and leave.")
        return play.events

    def _refuse(self, state: State, seat: Any, refusal: str | None) -> None:
        if refusal:
            legal = self.legal_actions(state, seat) if _seat_ok(state, seat) else []
            raise IllegalAction(refusal, legal=legal)

    def _start(self, state: State, ctx: Context) -> list[Any]:
        if state.hand_no:
            raise IllegalAction("The match has already started.")
        if ctx.server_seed is None or ctx.hand_no != 1:
            raise IllegalAction("Starting the match needs the seed of hand 1 (GC-2).", code="missing_seed")
        cards = fairness.shuffled(
            match_deck(state.match.deck, state.match.jokers),
            ctx.server_seed,
            ctx.table_id,
            ctx.hand_no,
            ctx.client_seed,
            "deck",
        )
        piles = deal(cards, state.seats)
        started = MatchStarted(
            hand_no=ctx.hand_no,
            table_id=ctx.table_id,
            commitment=fairness.commitment(ctx.server_seed),
            next_commitment=ctx.next_commitment,
            client_seed=ctx.client_seed,
            seats=state.seats,
            deck=state.match.deck,
            jokers=state.match.jokers,
            pile_sizes=tuple(len(pile) for pile in piles),
            server_seed=ctx.server_seed.hex(),
            cards=tuple(cards),
        )
        play = _Round(state)
        play.emit(started)
        play.advance()
        return play.events

    def evolve(self, state: State, event: Any) -> State:
        """The state after one recorded event."""
        return evolve(state, event)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Pile sizes, who is in, the cards on the table face up and the last round (GC-13);
        never a pile's order, nor a face-down card of a round not yet over."""
        last = state.last_round
        data: dict[str, Any] = {
            "status": "finished" if state.finished else "running" if state.hand_no else "waiting",
            "seat": seat,
            "deck": state.match.deck,
            "jokers": state.match.jokers,
            "max_rounds": state.match.max_rounds,
            "auto_play": state.match.auto_play,
            "rounds_played": state.round_no,
            "next_round_size": state.size,
            "players": [
                {
                    "seat": i,
                    "cards": len(state.piles[i]) if state.piles else 0,
                    "out": (state.out[i] or None) if state.out else None,
                    "thrown": state.thrown[i] if state.thrown else False,
                }
                for i in range(state.seats)
            ],
            "awaiting": list(awaited(state)),
            "forfeited_cards": len(state.forfeited),
            "table": [_play_view(play, round_over=False) for play in state.table],
            "last_round": None,
            "ambushes": state.ambushes,
            "winners": list(state.winners),
            "end_reason": state.end_reason or None,
            "hand_no": state.hand_no,
            "commitment": state.match.commitment or None,
            "next_commitment": state.match.next_commitment,
            "client_seed": state.match.client_seed if state.hand_no else None,
            "server_seed": state.match.server_seed if state.finished else None,
        }
        if last is not None:
            data["last_round"] = {
                "round_no": last.round_no,
                "size": last.size,
                "plays": [_play_view(play, round_over=True) for play in last.plays],
                "skirmishes": [{"skirmish": k + 1, "highest": list(seats)} for k, seats in enumerate(last.skirmishes)],
                "battles": [{"skirmish": k, "winner": winner} for k, winner in last.battles],
                "ambush": list(last.ambush),
                "taker": last.taker,
                "cards_taken": last.count,
            }
        return data

    def view_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        """An event's public fields: nobody sees a deal, a forfeited pile or a shuffled pile, and
        battles' face-down cards only in ``RoundTaken`` (GC-13)."""
        type_name, public, _secret = encode_event(event)
        return {"type": type_name, **public}

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """``throw`` while awaited for the coming round, ``leave`` while in."""
        if not _seat_ok(state, seat):
            return []
        actions: list[dict[str, Any]] = []
        if _throw_refusal(state, seat) is None:
            actions.append({"type": "throw"})
        if _leave_refusal(state, seat) is None:
            actions.append({"type": "leave"})
        return actions

    def to_act(self, state: State) -> tuple[int, ...]:
        """The seats the coming round waits for."""
        return awaited(state)

    def pending_system(self, state: State) -> dict[str, Any] | None:
        """None: ``decide`` plays every consequence itself."""
        return None

    def deadline(self, state: State, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
        """With ``auto_play``, the next round after ``round_seconds``; else the turn timer
        (``turn_seconds``) of the first awaited player, which throws for every absent one."""
        if not state.hand_no or state.finished:
            return None
        if state.match.auto_play:
            return float(config.get("round_seconds", 2)), {"type": "play_round"}
        waiting = awaited(state)
        if not waiting:
            return None
        return float(config.get("turn_seconds", 60)), {"type": "timeout", "seat": waiting[0]}

    def is_finished(self, state: State) -> bool:
        """True once the match has ended (GC-12)."""
        return state.finished

    def settlements(self, state: State, event: Any) -> list[Movement]:
        """Stakes to escrow at the start; the escrow to the winner or winners at the end, split
        equally with the remainder to the lowest seat (GC-12). Cards are not chips."""
        if not state.match.stake:
            return []
        if isinstance(event, MatchStarted):
            return [
                Movement(("wallet", seat), ("escrow",), state.match.stake, "MONEY", "stake")
                for seat in range(state.seats)
            ]
        if isinstance(event, MatchEnded):
            return [
                Movement(("escrow",), ("payout", seat), amount, "MONEY", "prize")
                for seat, amount in split(state.match.stake * state.seats, event.winners)
            ]
        return []

    def bot(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The game's bot (``bot.choose``): it throws whenever the round awaits it."""
        return bot.choose(view, legal, rng)

    # --- optional audit hooks (games.engine.decider.Auditable); the whole match is hand 1 ---

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """The deck ``MatchStarted`` shuffled, by its name in ``games.engine.cards.DECKS``."""
        started = next((event for event in hand if isinstance(event, MatchStarted)), None)
        if started is None:
            return None
        name = {"english": "english_52", "spanish_40": "spanish_40", "spanish_48": "spanish_48"}[started.deck]
        if started.jokers:
            name = "english_54" if started.deck == "english" else f"{name}_jokers"
        return name

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """``MatchStarted`` recorded the whole shuffled deck; the piles are dealt one card at a time (GC-2)."""
        started = next((event for event in hand if isinstance(event, MatchStarted)), None)
        if started is None:
            return ["no MatchStarted event in the hand"]
        differences = [
            f"MatchStarted: deck position {i} is {card}, the recomputed deck has {deck[i] if i < len(deck) else None}"
            for i, card in enumerate(started.cards)
            if i >= len(deck) or card != deck[i]
        ]
        if len(started.cards) != len(deck):
            differences.append(f"MatchStarted: {len(started.cards)} cards dealt, the deck has {len(deck)}")
        sizes = tuple(len(pile) for pile in deal(deck, started.seats))
        if sizes != started.pile_sizes:
            differences.append(f"MatchStarted: pile sizes {started.pile_sizes}, dealing the deck gives {sizes}")
        return differences

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Any) -> list[str]:
        """Every stalemate draw and ambush reshuffle recomputed from the seed (CM-8, CM-18, GC-9),
        and the winners re-decided from the final piles (GC-12)."""
        started = next((event for event in hand if isinstance(event, MatchStarted)), None)
        if started is None:
            return ["no MatchStarted event in the hand"]
        differences = []
        for event in hand:
            if isinstance(event, StalemateDrawn):
                drawn = event.seats[streams(event.purpose).uniform(len(event.seats))]
                if drawn != event.seat:
                    differences.append(
                        f"StalemateDrawn ({event.purpose}): seat {event.seat} recorded, the seed draws {drawn}"
                    )
            elif isinstance(event, PileShuffled):
                again = fairness.shuffle(canonical(event.cards, started.deck), streams(event.purpose))
                if tuple(again) != event.cards:
                    differences.append(
                        f"PileShuffled ({event.purpose}): the pile is not the seed's shuffle of its cards"
                    )
        ended = next((event for event in hand if isinstance(event, MatchEnded)), None)
        if ended is not None:
            out = {event.seat for event in hand if isinstance(event, PlayerOut)}
            inside = [seat for seat in range(started.seats) if seat not in out]
            most = max((ended.pile_sizes[seat] for seat in inside), default=0)
            winners = tuple(seat for seat in inside if ended.pile_sizes[seat] == most)
            if ended.reason == "all_cards":
                winners = tuple(inside)
            if tuple(ended.winners) != winners:
                differences.append(f"MatchEnded: winners {list(ended.winners)}, the final piles make {list(winners)}")
            if sum(ended.pile_sizes) != len(started.cards):
                differences.append(
                    f"MatchEnded: {sum(ended.pile_sizes)} cards in the piles, {len(started.cards)} dealt"
                )
        return differences

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """Every seat's pile at the end (GC-12): who took every card, or most cards, and who was out."""
        ended = next((event for event in hand if isinstance(event, MatchEnded)), None)
        if ended is None:
            return []
        out = {event.seat: event.reason for event in hand if isinstance(event, PlayerOut)}
        draws = [
            {"rule": "stalemate", "sentence": f"Seat {e.seat} was drawn among seats {list(e.seats)} ({e.purpose})."}
            for e in hand
            if isinstance(e, StalemateDrawn)
        ]
        shown = []
        for seat, size in enumerate(ended.pile_sizes):
            if seat in ended.winners:
                outcome = "wins" if len(ended.winners) == 1 else "splits"
            else:
                outcome = "out" if seat in out else "loses"
            reason = f", out ({out[seat]})" if seat in out else ""
            shown.append(
                {
                    "seat": seat,
                    "cards": [],
                    "category": None,
                    "description": f"{size} card(s) at the end ({ended.reason}){reason}",
                    "outcome": outcome,
                    "tie_break": draws if seat in ended.winners else [],
                }
            )
        return shown

    def history_line(self, event: Any, actor: str) -> str | None:
        """Rounds in words: throws, battles and who took the cards."""
        if isinstance(event, CardsThrown):
            return f"Round {event.round_no}: seat {event.seat} throws {' '.join(event.cards)}"
        if isinstance(event, BattleCardsLaid):
            down = " ".join(event.face_down) or "nothing"
            return f"Round {event.round_no}: battle {event.skirmish}.{event.layer}, seat {event.seat} lays {down} face down and {event.face_up} face up"
        if isinstance(event, RoundTaken):
            return f"Round {event.round_no}: seat {event.seat} takes {event.count} cards"
        if isinstance(event, MatchEnded):
            return f"Match over ({event.reason}): winners {list(event.winners)}, piles {list(event.pile_sizes)}"
        return None


def split(total: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """``total`` shared equally by ``winners``; the remainder goes to the lowest seat (GC-12)."""
    seats = sorted(winners)
    share, remainder = divmod(total, len(seats))
    return [(seat, share + (remainder if i == 0 else 0)) for i, seat in enumerate(seats)]


def _seat_ok(state: State, seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.seats


DECIDER = Guerra()
