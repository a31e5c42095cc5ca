"""Guerra Chevichona's audit hooks (``games.engine.audit.AuditHooks``). The whole match is hand 1:
its deck is the one ``MatchStarted`` recorded, its outcome the stalemate draws, the ambush
reshuffles and the winners. Pure: it reads the match's recorded events only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import fairness
from games.engine.audit import NoExports, Streams
from games.engine.presence import LeftTable, SatIn, SatOut
from games.engine.words import N, T, Text
from games.rules.guerra.cards import canonical, deal
from games.rules.guerra.events import (
    MatchEnded,
    MatchStarted,
    PileShuffled,
    PlayerOut,
    StalemateDrawn,
)
from games.rules.guerra.words import history_line, lot_sentence, out_sentence, seat_names


class GuerraAudit(NoExports):
    """The audit hooks of Guerra Chevichona; PHH does not fit War (``NoExports``)."""

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

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
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
        out = {event.seat: event for event in hand if isinstance(event, PlayerOut)}
        names = seat_names(len(ended.pile_sizes))
        # GC-14: every round settled by lot, why, and who was drawn, in the winners' tie-break.
        draws = [
            {
                "rule": "GC-14",
                "purpose": e.purpose,
                "sentence": T(
                    "Round {round}: {sentence}", round=e.round_no, sentence=lot_sentence(e.seats, e.seat, names)
                ),
            }
            for e in hand
            if isinstance(e, StalemateDrawn)
        ]
        shown = []
        for seat, size in enumerate(ended.pile_sizes):
            if seat in ended.winners:
                outcome = "wins" if len(ended.winners) == 1 else "splits"
            else:
                outcome = "out" if seat in out else "loses"
            description = N("{count} card at the end of the match.", "{count} cards at the end of the match.", size)
            if seat in out:
                gone = out[seat]
                description = T(
                    "{cards} Out in round {round}: {why}",
                    cards=description,
                    round=gone.round_no,
                    why=out_sentence(gone.reason, names[seat], gone.count),
                )
            shown.append(
                {
                    "seat": seat,
                    "cards": [],
                    "category": None,
                    "description": description,
                    "outcome": outcome,
                    "tie_break": draws if seat in ended.winners else [],
                }
            )
        return shown

    def history_line(
        self, event: Any, actor: str, names: Sequence[str], config: Mapping[str, Any] | None = None
    ) -> str | None:
        """Every event of the match in words, players by name and cards by the match's deck
        (``words.history_line``)."""
        if isinstance(event, SatOut | SatIn | LeftTable):
            return presence_line(event, names)
        return history_line(event, names, str((config or {}).get("deck", "english")).startswith("spanish"))


def presence_line(event: SatOut | SatIn | LeftTable, names: Sequence[str]) -> Text:
    """CM-20 in words: who sat out or in, or left the match to the bot."""
    player = names[event.seat] if event.seat < len(names) else T("seat {seat}", seat=event.seat)
    if isinstance(event, SatOut):
        return T("{player} sits out: the bot throws for them", player=player)
    if isinstance(event, SatIn):
        return T("{player} sits in again and throws for themselves", player=player)
    return T(
        "{player} leaves the match: the bot throws for them to the end, and the result stays theirs",
        player=player,
    )
