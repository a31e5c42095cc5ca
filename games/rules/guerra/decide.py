"""Guerra Chevichona's commands: ``start``, ``throw``, ``sit_out``, ``sit_in`` and ``leave`` from
the players, ``timeout`` and ``play_round`` from the server's timers. Each refusal is worded once
here and shared by ``decide`` and ``legal_actions``; whatever a command makes ready is played by
``round.Round``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import fairness, presence
from games.engine.decider import Context
from games.engine.errors import IllegalAction
from games.engine.words import N, T
from games.rules.guerra.cards import deal, match_deck
from games.rules.guerra.events import MatchStarted, ThrowSent
from games.rules.guerra.round import Round
from games.rules.guerra.state import State, awaited


def decide(state: State, command: Mapping[str, Any], ctx: Context) -> list[Any]:
    """The events of ``start``, ``throw``, ``timeout``, ``play_round`` or ``leave``, with every
    round they make ready played to its end and the match's end."""
    kind = command.get("type")
    seat = command.get("seat")
    if kind == "start":
        return start(state, ctx)
    play = Round(state)
    if kind == "throw":
        _throw(play, seat)
    elif kind == "timeout":
        _timeout(play, seat)
    elif kind == "play_round":
        _play_round(play, seat)
    elif kind in ("sit_out", "sit_in"):
        _presence(play, command)
    elif kind == "leave":
        _leave(play, seat)
    else:
        _refuse(
            state,
            seat,
            T("Unknown action {action}; Guerra Chevichona knows throw, sit_out, sit_in and leave.", action=repr(kind)),
        )
    return play.events


def start(state: State, ctx: Context) -> list[Any]:
    """Shuffle and deal the deck with the seed of hand 1 (GC-2, CM-5); the whole match is hand 1."""
    if state.hand_no:
        raise IllegalAction(T("The match has already started."))
    if ctx.server_seed is None or ctx.hand_no != 1:
        raise IllegalAction(T("Starting the match needs the seed of hand 1 (GC-2)."), code="missing_seed")
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


def _throw(play: Round, seat: Any) -> None:
    state = play.state
    _refuse(state, seat, throw_refusal(state, seat))
    play.emit(ThrowSent(state.round_no + 1, seat, False))
    play.advance()


def _timeout(play: Round, seat: Any) -> None:
    """The turn timer throws for every player still awaited (package docstring)."""
    state = play.state
    refusal = match_refusal(state)
    waiting = awaited(state)
    if not refusal and not waiting:
        refusal = T("No player is awaited.")
    _refuse(state, seat, refusal)
    for absent in waiting:
        play.emit(ThrowSent(state.round_no + 1, absent, True))
    play.advance()


def _play_round(play: Round, seat: Any) -> None:
    state = play.state
    refusal = match_refusal(state)
    if not refusal and not state.match.auto_play:
        refusal = T("Rounds play themselves only with auto_play.")
    _refuse(state, seat, refusal)
    play.advance(force=True)


def _presence(play: Round, command: Mapping[str, Any]) -> None:
    """CM-20: a sat-out seat is thrown for by the table's bot as soon as a round awaits it."""
    state = play.state
    _refuse(state, command.get("seat"), leave_refusal(state, command.get("seat")))
    for event in presence.decide(state.presence, command):
        play.emit(event)


def _leave(play: Round, seat: Any) -> None:
    """CM-20: a match game, so the leaver stays in and the bot throws for their seat to the end;
    the result, and the stake it wins or loses, stay theirs."""
    state = play.state
    _refuse(state, seat, leave_refusal(state, seat))
    play.emit(presence.leave(state.presence, seat))


def _refuse(state: State, seat: Any, refusal: str | None) -> None:
    if refusal:
        legal = legal_actions(state, seat) if seat_ok(state, seat) else []
        raise IllegalAction(refusal, legal=legal)


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """``throw`` while awaited for the coming round; ``sit_out`` or ``sit_in``, and ``leave``, while
    in the match, whoever the round awaits (CM-20)."""
    if not seat_ok(state, seat):
        return []
    actions: list[dict[str, Any]] = []
    if throw_refusal(state, seat) is None:
        actions.append({"type": "throw"})
    if leave_refusal(state, seat) is None:
        actions.extend(presence.actions(state.presence, seat))
    return actions


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


def match_refusal(state: State) -> str | None:
    """Why no command but ``start`` can be played now, or ``None``."""
    if not state.hand_no:
        return T("The match has not started.")
    if state.finished:
        return T("The match is over.")
    return None


def throw_refusal(state: State, seat: Any) -> str | None:
    """Why ``seat`` may not throw for the coming round, or ``None``."""
    refusal = match_refusal(state) or seat_refusal(state, seat)
    if refusal:
        return refusal
    if state.thrown[seat]:
        return T("You have already thrown for this round.")
    if len(state.piles[seat]) < state.size:
        return N(
            "You have {count} card for a {size}-card round; you will be out when it is played.",
            "You have {count} cards for a {size}-card round; you will be out when it is played.",
            len(state.piles[seat]),
            size=state.size,
        )
    return None


def leave_refusal(state: State, seat: Any) -> str | None:
    """Why ``seat`` may not sit out, sit in or leave the match, or ``None`` (whether they already
    left is ``presence``'s to say)."""
    return match_refusal(state) or seat_refusal(state, seat)


def seat_refusal(state: State, seat: Any) -> str | None:
    """Why ``seat`` is not a player in the match, or ``None``."""
    if not seat_ok(state, seat):
        return T("There is no seat {seat} at this table.", seat=repr(seat))
    if state.out[seat]:
        return T("You are out of the match.")
    return None


def seat_ok(state: State, seat: Any) -> bool:
    """Whether ``seat`` names a seat at this table (an int, not a bool, in range)."""
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.seats
