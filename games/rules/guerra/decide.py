"""Guerra Chevichona's commands: ``start``, ``throw``, ``sit_out``, ``sit_in`` and ``leave`` from
the players, ``timeout`` and ``play_round`` from the server's timers. ``legal.refusal`` judges each
and ``decide`` raises its refusal; whatever a command makes ready is played by ``round.Round``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.engine import fairness
from games.engine.decider import Context
from games.engine.errors import IllegalAction
from games.engine.words import T
from games.rules.guerra.cards import deal, match_deck
from games.rules.guerra.events import MatchStarted, ThrowSent
from games.rules.guerra.legal import presence_events, refusal
from games.rules.guerra.round import Round
from games.rules.guerra.state import State, awaited


def decide(state: State, command: Mapping[str, Any], ctx: Context) -> list[Any]:
    """The events of ``start``, ``throw``, ``timeout``, ``play_round``, ``sit_out``, ``sit_in`` or
    ``leave``, with every round they make ready played to its end and the match's end; the
    judge's refusal (``legal.refusal``) if it refuses the command."""
    kind = command.get("type")
    refused = refusal(state, command.get("seat"), command)
    if refused is not None:
        raise refused
    if kind == "start":
        return start(state, ctx)
    play = Round(state)
    ACTS[str(kind)](play, command)
    return play.events


def start(state: State, ctx: Context) -> list[Any]:
    """Shuffle and deal the deck with the seed of hand 1 (GC-2, CM-5); the whole match is hand 1."""
    if ctx.server_seed is None or ctx.hand_no != 1:
        raise IllegalAction(T("Starting the match needs the seed of hand 1."), code="missing_seed")
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
    play = Round(state)
    play.emit(started)
    play.advance()
    return play.events


def _throw(play: Round, command: Mapping[str, Any]) -> None:
    play.emit(ThrowSent(play.state.round_no + 1, command["seat"], False))
    play.advance()


def _timeout(play: Round, command: Mapping[str, Any]) -> None:
    """The turn timer throws for every player still awaited (package docstring)."""
    state = play.state
    for absent in awaited(state):
        play.emit(ThrowSent(state.round_no + 1, absent, True))
    play.advance()


def _play_round(play: Round, command: Mapping[str, Any]) -> None:
    play.advance(force=True)


def _presence(play: Round, command: Mapping[str, Any]) -> None:
    """CM-20: a sat-out seat is thrown for by the table's bot as soon as a round awaits it; a
    match game, so a leaver stays in and the bot throws for their seat to the end, the result,
    and the stake it wins or loses, staying theirs."""
    for event in presence_events(play.state, command["seat"], command):
        play.emit(event)


# What each command the judge let through does, but ``start``.
ACTS: dict[str, Callable[[Round, Mapping[str, Any]], None]] = {
    "throw": _throw,
    "timeout": _timeout,
    "play_round": _play_round,
    "sit_out": _presence,
    "sit_in": _presence,
    "leave": _presence,
}


def deadline(state: State, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
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
