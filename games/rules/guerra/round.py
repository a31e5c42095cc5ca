"""Playing a round of Guerra Chevichona (GC-3..GC-11), and the match's end (GC-12).

Nobody has a choice once a round is ready, so a command plays every round it makes ready to its
end, battles and tie-breaks included, and records the round's events together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import fairness
from games.rules.guerra.cards import canonical, values
from games.rules.guerra.events import (
    AmbushMade,
    BattleCardsLaid,
    BattleGrew,
    BattleWon,
    CardsThrown,
    ExtraCardThrown,
    ForfeitsTaken,
    MatchEnded,
    PileShuffled,
    PlayerOut,
    RoundTaken,
    SkirmishPlayed,
    StalemateDrawn,
)
from games.rules.guerra.state import State, awaited, evolve, players_in

# A battle to fight: the skirmish (from 1) and the seats whose cards tied at the top.
Battle = tuple[int, tuple[int, ...]]


class Round:
    """Emits a command's events and folds each into the state at once, so every decision reads
    the state the previous events made."""

    __slots__ = ("events", "number", "state", "value")

    def __init__(self, state: State):
        self.state = state
        self.events: list[Any] = []
        self.number = state.round_no + 1
        self.value = values(state.match.ace_high)

    def emit(self, event: Any) -> None:
        """Record ``event`` and fold it into the state."""
        self.events.append(event)
        self.state = evolve(event, self.state)

    def pile(self, seat: int) -> tuple[str, ...]:
        """``seat``'s pile now, top first."""
        return self.state.piles[seat]

    def players_in(self) -> list[int]:
        """Seats still in the match now."""
        return players_in(self.state)

    def draw(self, seats: Sequence[int]) -> int:
        """A fair draw among ``seats`` when none of them has a card left (package docstring)."""
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
        """``seat`` is out for ``reason``; what is left of the pile goes to the round's taker."""
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
                best = max(best, self.value[card])
            seats = [play.seat for play in self.state.table[-len(able) :] if self.value[play.cards[0]] == best]
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
                ups.append((seat, self.value[cards[-1]]))
                best = max(best, self.value[cards[-1]])
            leaders = [seat for seat, value in ups if value == best]
            if len(leaders) == 1:
                self.emit(BattleWon(self.number, skirmish, leaders[0], layer, False))
                return leaders[0]
            self.emit(BattleGrew(self.number, skirmish, layer, tuple(leaders)))

    def play(self) -> None:
        """Play the coming round to its end: throws, ambush or skirmishes, battles, tie-breaks."""
        players = self.throw()
        if len(players) == 1:
            self.take(players[0])
            return
        if self.state.size == 3 and self.ambush():
            return
        won, battles = self.skirmishes(players)
        if battles:
            won = self.fight(battles)
            players = self.players_in()
        most = max(won.values())
        leaders = [seat for seat in players if won[seat] == most]
        if len(leaders) == 1:
            self.take(leaders[0])
        else:
            self.take(self.tie_break(leaders, "battles" if battles else "skirmishes"))

    def throw(self) -> list[int]:
        """Players short of the round's cards are out (GC-10; if all are, one drawn stays), then
        the others throw the round's cards (GC-3) unless only one is left. The players in."""
        size = self.state.size
        players = self.players_in()
        short = [seat for seat in players if len(self.pile(seat)) < size]
        if len(short) == len(players):
            keeper = self.draw(players)
            short.remove(keeper)
        for seat in short:
            self.put_out(seat, "short")
        players = self.players_in()
        if len(players) > 1:
            for seat in players:
                self.emit(CardsThrown(self.number, seat, self.pile(seat)[:size]))
        return players

    def ambush(self) -> bool:
        """Whether the 3-card round was won by ambush (GC-9): if so, taken by the ambusher."""
        ambushers = tuple(
            play.seat
            for play in self.state.table
            if self.value[play.cards[0]] == self.value[play.cards[1]] == self.value[play.cards[2]]
        )
        if not ambushers:
            return False
        self.emit(AmbushMade(self.number, ambushers))
        winner = ambushers[0] if len(ambushers) == 1 else self.tie_break(list(ambushers), "ambush")
        self.take(winner, ambush=True)
        return True

    def skirmishes(self, players: list[int]) -> tuple[dict[int, int], list[Battle]]:
        """One skirmish per thrown card (GC-4): the skirmishes each player won outright, and the
        tied ones, which become battles (GC-7)."""
        throws = self.state.table
        won = dict.fromkeys(players, 0)
        battles: list[Battle] = []
        for k in range(self.state.size):
            best = max(self.value[play.cards[k]] for play in throws)
            seats = tuple(play.seat for play in throws if self.value[play.cards[k]] == best)
            card = next(play.cards[k] for play in throws if play.seat == seats[0])
            self.emit(SkirmishPlayed(self.number, k + 1, seats, card))
            if len(seats) == 1:
                won[seats[0]] += 1
            else:
                battles.append((k + 1, seats))
        return won, battles

    def fight(self, battles: list[Battle]) -> dict[int, int]:
        """The battles in skirmish order while two or more players are in; the battles won by each
        player still in, which alone decide the round (GC-8)."""
        won: dict[int, int] = {}
        for skirmish, seats in battles:
            if len(self.players_in()) == 1:
                break
            winner = self.battle(skirmish, seats)
            won[winner] = won.get(winner, 0) + 1
        return {seat: won.get(seat, 0) for seat in self.players_in()}

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
        """The match is over (GC-12): ``winners`` and every pile's size."""
        state = self.state
        sizes = tuple(len(pile) for pile in state.piles)
        self.emit(MatchEnded(state.hand_no, state.match.server_seed, reason, winners, sizes))
