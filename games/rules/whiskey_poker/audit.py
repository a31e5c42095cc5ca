"""Whiskey Poker's hand audit hooks (``games.engine.audit.AuditHooks``): the shared widow checks,
the best and worst hands re-found, and the showdown as the audit and the hand page list it. Pure:
it reads the hand's recorded events only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import between_hands, presence
from games.engine.audit import NoExports, Streams
from games.engine.card_names import and_list
from games.engine.cards import reduced_pack_ranks
from games.engine.words import N, T, Text
from games.rules.whiskey_poker.cards import NO_WILD
from games.rules.whiskey_poker.events import (
    AntesPaid,
    GameEnded,
    GameStarted,
    LosersPaid,
    MatchEndRequested,
    PlayerCashedOut,
    PointsScored,
    PotAwarded,
    ShowdownHeld,
)
from games.rules.whiskey_poker.state import LOSER_PAYS, POINTS, POT
from games.rules.widow import audit as shared
from games.rules.widow import history
from games.rules.widow.events import HandStarted


def showdown(config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
    """Every shown hand with its category and description and its outcome as the table's scoring
    says (WP-5, WP-7, WP-8); tied hands say in a sentence how the tie is settled, naming the
    players (``config``'s ``player_names``, else "seat 2")."""
    held = shared.first_of(hand, ShowdownHeld)
    if held is None:
        return []
    return showdown_entries(held, str(config.get("scoring") or POT), shared.player_names(config, held.hands))


def showdown_entries(held: ShowdownHeld, scoring: str, names: Sequence[str]) -> list[dict[str, Any]]:
    """The shown hands of ``held`` as the audit and the hand page list them. Under ``loser_pays``
    the hands tied for worst ``pays`` and the others are ``safe``, and no hand wins (WP-7); otherwise
    the best hand ``wins`` (tied, they ``split``, WP-5, WP-8) and the others lose."""

    def named(seats: Sequence[int]) -> Text:
        return and_list([names[seat] if 0 <= seat < len(names) else T("seat {seat}", seat=seat) for seat in seats])

    if scoring == LOSER_PAYS:
        tie = (
            []
            if len(held.worst) < 2
            else [
                _tie(
                    "WP-7",
                    T("{players} tie for the worst hand and each pays one chip to the pool", players=named(held.worst)),
                )
            ]
        )
        return [
            shared.shown_entry(entry, "pays", tie)
            if entry.seat in held.worst
            else shared.shown_entry(entry, "safe", [])
            for entry in held.hands
        ]
    won = "wins" if len(held.best) == 1 else "splits"
    tie = []
    if len(held.best) > 1:
        tie = [
            _tie("WP-8", T("{players} tie for the best hand and each scores a point", players=named(held.best)))
            if scoring == POINTS
            else _tie("WP-5", T("{players} tie for the best hand and split the pot", players=named(held.best)))
        ]
    return [
        shared.shown_entry(entry, won, tie) if entry.seat in held.best else shared.shown_entry(entry, "loses", [])
        for entry in held.hands
    ]


def _tie(rule: str, sentence: Text) -> dict[str, Any]:
    return {"rule": rule, "sentence": sentence}


def outcome_differences(config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
    """Re-decide the showdown from the shown cards: the first dealer re-drawn, every hand re-valued
    (CM-11..CM-14, LV-12, WP-8) and the best and worst hands re-found."""
    held = shared.first_of(hand, ShowdownHeld)
    started = shared.first_of(hand, HandStarted)
    first = shared.first_dealer_differences(hand, streams)
    if held is None or started is None:
        return first  # a hand that ended without a showdown (the match was ended, a player left)
    lowest = reduced_pack_ranks(int(config["seats"]))[0] if config.get("reduced_pack") else "2"
    values, wrong = shared.revalue(
        held.hands, NO_WILD, flush_by_suit=bool(config.get("flush_by_suit")), lowest_rank=lowest
    )
    if wrong:
        return first + wrong
    best = tuple(seat for seat in values if values[seat] == max(values.values()))
    worst = tuple(seat for seat in values if values[seat] == min(values.values()))
    if tuple(held.best) != best or tuple(held.worst) != worst:
        return [
            *first,
            f"ShowdownHeld: best {list(held.best)} and worst {list(held.worst)}, re-valued {list(best)} and {list(worst)}",
        ]
    return first


def history_line(event: Any, names: Sequence[str]) -> Text | None:
    """One line of the hand's history in words, naming the players and every card (the hand is
    over); ``None`` for an event this game does not say (the generic line)."""
    shared_line = history.shared_line(event, names)
    if shared_line is not None:
        return shared_line
    kind = type(event)
    if kind is GameStarted:
        return _started_line(event, names)
    if kind is AntesPaid:
        return T(
            "{players} each put a chip in the pot, which holds {pot}",
            players=history.players(names, event.seats),
            pot=history.chips(event.pot),
        )
    if kind is ShowdownHeld:
        return _showdown_line(event, names)
    if kind is PotAwarded:
        shares = [
            T("{player} takes {chips}", player=history.player(names, seat), chips=history.chips(share))
            for seat, share in event.shares
        ]
        return T("The pot goes to the best hand: {shares}", shares=and_list(shares))
    if kind is LosersPaid:
        return N(
            "{players} has the worst hand and pays a chip to the pool, which holds {pool}",
            "{players} tie for the worst hand and each pays a chip to the pool, which holds {pool}",
            len(event.seats),
            players=history.players(names, event.seats),
            pool=history.chips(event.pool),
        )
    if kind is PointsScored:
        points = [
            N("{player} {count} point", "{player} {count} points", count, player=history.player(names, seat))
            for seat, count in enumerate(event.points)
        ]
        return N(
            "{players} scores a point with the best hand; the points stand at {points}",
            "{players} each score a point with the best hand; the points stand at {points}",
            len(event.seats),
            players=history.players(names, event.seats),
            points=and_list(points),
        )
    if kind is MatchEndRequested:
        return T("The table's owner ends the match once this hand is over")
    if kind is GameEnded:
        return _ended_line(event, names)
    return None


def _started_line(event: GameStarted, names: Sequence[str]) -> Text:
    everyone = history.players(names, event.players)
    if event.scoring == LOSER_PAYS:
        return N(
            "The match begins: {players} each start with {count} chip, a life with no money value",
            "The match begins: {players} each start with {count} chips, lives with no money value",
            event.chips,
            players=everyone,
        )
    if event.scoring == POINTS:
        return T("The match begins: {players} play for points", players=everyone)
    return T("The match begins: {players} each buy {chips}", players=everyone, chips=history.chips(event.chips))


def _showdown_line(held: ShowdownHeld, names: Sequence[str]) -> Text:
    """Every hand shown and described; who holds the best and the worst hand."""
    entries = showdown_entries(held, POT, names)
    return T(
        "Showdown: {hands}. Best hand: {best}; worst hand: {worst}",
        hands=history.shown_hands(entries, names),
        best=history.players(names, held.best),
        worst=history.players(names, held.worst),
    )


def _ended_line(event: GameEnded, names: Sequence[str]) -> Text:
    winners = history.players(names, event.winners) if event.winners else T("nobody")
    line = T("The match is over: {winners} won", winners=winners)
    if event.losers:
        line = T("{line}, {losers} lost", line=line, losers=history.players(names, event.losers))
    cashed = [
        T("{player} cashes out {chips}", player=history.player(names, seat), chips=history.chips(count))
        for seat, count in enumerate(event.cash_out)
        if count
    ]
    if cashed:
        line = T("{line}; {cashed}", line=line, cashed=and_list(cashed))
    return line


class WhiskeyPokerAudit(NoExports):
    """Whiskey Poker's audit hooks."""

    def history_line(
        self, event: Any, actor: str, names: Sequence[str], config: Mapping[str, Any] | None = None
    ) -> str | None:
        """The event in words, naming the players (``names``) and every card; a player sitting
        out, sitting in, leaving or cashed out after leaving too (CM-20)."""
        return (
            presence.history_line(event, names)
            or between_hands.history_line(event)
            or cashed_out_line(event, names)
            or history_line(event, names)
        )

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """The named deck the hand shuffled (CM-3, CM-9): the 52-card or the reduced pack (WP-8)."""
        return shared.deck_name(hand)

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """How the recorded deal differs from dealing ``deck`` in turn order (WX-1, WP-3)."""
        return shared.deal_differences(deck, hand)

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
        """The showdown re-decided from the shown cards."""
        return outcome_differences(config, hand, streams)

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """The shown hands with category, description and outcome."""
        return showdown(config, hand)


def cashed_out_line(event: Any, names: Sequence[str]) -> Text | None:
    """The line of a leaver cashed out when the hand ended (CM-20), or ``None`` for another event."""
    if not isinstance(event, PlayerCashedOut):
        return None
    return N(
        "{player} is cashed out with {count} chip",
        "{player} is cashed out with {count} chips",
        event.chips,
        player=names[event.seat],
    )
