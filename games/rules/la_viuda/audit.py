"""La Viuda's hand audit hooks (``games.engine.audit.AuditHooks``): the shared widow checks, and
the worst hand re-found with LV-7's tie-break re-run from the hand's streams. Pure: it reads the
hand's recorded events only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import hands as poker
from games.engine import presence
from games.engine.audit import NoExports, Streams
from games.engine.words import T, Text
from games.rules.la_viuda import tiebreak
from games.rules.la_viuda.events import (
    GameEnded,
    GameStarted,
    ShowdownHeld,
    WidowBought,
    WidowDeclined,
    WidowOffered,
    WorstHandPaid,
)
from games.rules.widow import audit as shared
from games.rules.widow import history
from games.rules.widow.events import HandStarted


def showdown(config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
    """Every shown hand with its category and description: the worst hand ``pays``, the others
    are ``safe``; the hands tied for worst carry LV-7's tie-break steps (LV-13), each said in a
    sentence naming the players (``config``'s ``player_names``, else "seat 2")."""
    held = shared.first_of(hand, ShowdownHeld)
    if held is None:
        return []
    return showdown_entries(held, shared.player_names(config, held.hands))


def showdown_entries(held: ShowdownHeld, names: Sequence[str]) -> list[dict[str, Any]]:
    """The shown hands of ``held`` as the audit and the hand page list them (LV-6, LV-7, LV-13)."""
    wild = poker.wild_set(held.wild_rank)
    cards = {entry.seat: entry.cards for entry in held.hands}
    sentences = tiebreak.explain(held.steps, cards, wild, names)
    steps = [
        {"rule": step.rule, "step": step.step, "still_tied": list(step.still_tied), "sentence": sentence}
        for step, sentence in zip(held.steps, sentences)
    ]
    return [
        shared.shown_entry(
            entry,
            "pays" if entry.seat == held.loser else "safe",
            steps if entry.seat in held.tied and len(held.tied) > 1 else [],
            wild,
        )
        for entry in held.hands
    ]


def outcome_differences(config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
    """Re-decide the showdown from the shown cards: the first dealer re-drawn, every hand re-valued
    with the hand's wild cards (LV-5, LV-12), the worst hand re-found and LV-7's tie-break re-run
    with the hand's streams (colour card, manotazo)."""
    held = shared.first_of(hand, ShowdownHeld)
    started = shared.first_of(hand, HandStarted)
    first = shared.first_dealer_differences(hand, streams)
    if held is None or started is None:
        return first  # a hand that ended without a showdown (a player left)
    wild = poker.wild_set(held.wild_rank)
    values, wrong = shared.revalue(held.hands, wild, flush_by_suit=bool(config.get("flush_by_suit")), lowest_rank="2")
    if wrong:
        return first + wrong
    return first + _loser_differences(held, started, values, wild, streams)


def _loser_differences(
    held: ShowdownHeld, started: HandStarted, values: Mapping[int, int], wild: frozenset[str], streams: Streams
) -> list[str]:
    """LV-6, LV-7: the hands tied for worst and the one that pays, re-found from the values."""
    differences = []
    worst = min(values.values())
    tied = tuple(seat for seat in values if values[seat] == worst)
    if tuple(held.tied) != tied:
        differences.append(f"ShowdownHeld: tied for worst {list(held.tied)}, re-valued {list(tied)}")
    loser = tied[0]
    if len(tied) > 1:
        cards = {entry.seat: entry.cards for entry in held.hands}
        again = tiebreak.la_viuda_tie_break(
            [(seat, cards[seat]) for seat in tied], wild, started.order, stock=started.stock, streams=streams
        )
        loser = again.losers[0]
        if [_decided(step) for step in again.steps] != [_decided(step) for step in held.steps]:
            differences.append("ShowdownHeld: LV-7's tie-break steps re-run from the seed differ from the record")
    if held.loser != loser:
        differences.append(f"ShowdownHeld: seat {held.loser} recorded as paying, re-decided seat {loser}")
    return differences


def _decided(step: tiebreak.TieBreakStep) -> tuple[Any, ...]:
    """What a tie-break step decided and drew, the part the seed and the cards fix."""
    return (step.step, step.rule, tuple(step.still_tied), step.card, tuple(step.draws))


def history_line(event: Any, names: Sequence[str]) -> Text | None:
    """One line of the hand's history in words, naming the players and every card (the hand is
    over); ``None`` for an event this game does not say (the generic line)."""
    shared_line = history.shared_line(event, names)
    if shared_line is not None:
        return shared_line
    kind = type(event)
    if kind is GameStarted:
        return T(
            "The game begins: {players} each buy {chips}, and La Viuda's chip goes into the pot",
            players=history.players(names, event.players),
            chips=history.chips(event.chips_per_player),
        )
    if kind is ShowdownHeld:
        return _showdown_line(event, names)
    if kind is WorstHandPaid:
        return T(
            "{player} has the worst hand and pays a chip into the pot, keeping {left}; the pot holds {pot}",
            player=history.player(names, event.seat),
            left=history.chips(event.chips_left),
            pot=history.chips(event.pot),
        )
    if kind is WidowOffered:
        return T(
            "{player} has paid their last chip and may buy La Viuda, at twice the price of a chip",
            player=history.player(names, event.seat),
        )
    if kind is WidowBought:
        return T("{player} buys La Viuda and plays on with its chip", player=history.player(names, event.seat))
    if kind is WidowDeclined:
        who = history.player(names, event.seat)
        if event.reason == "expired":
            return T("{player} does not answer in time and so does not buy La Viuda", player=who)
        if event.reason == "cannot_afford":
            return T("{player} cannot afford La Viuda", player=who)
        if event.reason == "away":
            return T("{player} is away, and the bot does not buy La Viuda with their money", player=who)
        return T("{player} does not buy La Viuda", player=who)
    if kind is GameEnded:
        return T(
            "{player} is the last player with chips and wins the game and the prize",
            player=history.player(names, event.winner),
        )
    return None


def _showdown_line(held: ShowdownHeld, names: Sequence[str]) -> Text:
    """The showdown: every hand shown and described, then, for a tie for worst, each LV-7 step."""
    entries = showdown_entries(held, names)
    line = T("Showdown: {hands}", hands=history.shown_hands(entries, names))
    if len(held.tied) < 2:
        return line
    line = T(
        "{line}. {players} tie for the worst hand, and the tie-break settles it step by step.",
        line=line,
        players=history.players(names, held.tied),
    )
    steps = next(entry["tie_break"] for entry in entries if entry["tie_break"])
    for step in steps:
        line = T("{line} {step}", line=line, step=step["sentence"])
    return line


class LaViudaAudit(NoExports):
    """La Viuda's audit hooks."""

    def history_line(
        self, event: Any, actor: str, names: Sequence[str], config: Mapping[str, Any] | None = None
    ) -> str | None:
        """The event in words, naming the players (``names``) and every card; a player sitting
        out, sitting in or leaving too (CM-20)."""
        return presence.history_line(event, names) or history_line(event, names)

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """The named deck the hand shuffled (CM-3, CM-9): the 54-card La Viuda pack."""
        return shared.deck_name(hand)

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """How the recorded deal differs from dealing ``deck`` in turn order (WX-1, LV-4)."""
        return shared.deal_differences(deck, hand)

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
        """The showdown re-decided from the shown cards, LV-7's draws recomputed from the seed."""
        return outcome_differences(config, hand, streams)

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """The shown hands with category, description, outcome and tie-break steps (LV-13)."""
        return showdown(config, hand)
