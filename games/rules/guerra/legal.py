"""Guerra Chevichona's legality, written once: ``refusal`` is the one judge of a command (GC-2,
GC-10, GC-12, CM-20), each ``*_refusal`` beside it the sentence refusing one, or ``None``.

``decide`` raises the judge's refusal and ``legal_actions`` lists the candidate commands it lets
through: ``throw`` while awaited for the coming round; ``sit_out`` or ``sit_in``, and ``leave``,
while in the match, whoever the round awaits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.engine import presence
from games.engine.errors import IllegalAction
from games.engine.words import N, T
from games.rules.guerra.state import State, awaited

# What a seat might send, before the judge: ``presence.actions`` lists sitting out or in, then leaving.
CANDIDATES: tuple[dict[str, Any], ...] = (
    {"type": "throw"},
    {"type": "sit_out"},
    {"type": "sit_in"},
    {"type": "leave"},
)


def seat_ok(state: State, seat: Any) -> bool:
    """Whether ``seat`` names a seat at this table (an int, not a bool, in range)."""
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.seats


def match_refusal(state: State) -> str | None:
    """Why no command but ``start`` can be played now, or ``None``."""
    if not state.hand_no:
        return T("The match has not started.")
    if state.finished:
        return T("The match is over.")
    return None


def seat_refusal(state: State, seat: Any) -> str | None:
    """Why ``seat`` is not a player in the match, or ``None``."""
    if not seat_ok(state, seat):
        return T("There is no seat {seat} at this table.", seat=repr(seat))
    if state.out[seat]:
        return T("You are out of the match.")
    return None


def throw_refusal(state: State, seat: Any) -> str | None:
    """Why ``seat`` may not throw for the coming round, or ``None`` (GC-3, GC-10)."""
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


def _timeout_refusal(state: State, seat: Any) -> str | None:
    """The turn timer throws for every player still awaited (GC-12), so it needs one."""
    refusal = match_refusal(state)
    if not refusal and not awaited(state):
        return T("No player is awaited.")
    return refusal


def _play_round_refusal(state: State, seat: Any) -> str | None:
    refusal = match_refusal(state)
    if not refusal and not state.match.auto_play:
        return T("Rounds play themselves only with automatic play.")
    return refusal


def presence_events(state: State, seat: int, command: Mapping[str, Any]) -> list[Any]:
    """The event of ``sit_out``, ``sit_in`` or ``leave`` from ``seat`` (CM-20), which
    ``games.engine.presence`` refuses if its player already left or it changes nothing."""
    if command.get("type") == "leave":
        return [presence.leave(state.presence, seat)]
    return list(presence.decide(state.presence, {**command, "seat": seat}))


def _presence_refusal(state: State, seat: Any, command: Mapping[str, Any]) -> str | IllegalAction | None:
    refusal = leave_refusal(state, seat)
    if refusal:
        return refusal
    # ``games.engine.presence`` words the refusals of presence for every game.
    return presence.refusal(state.presence, seat, command.get("type"))


# Sitting out, sitting in and leaving, as a tuple: a type of any value compares with it.
PRESENCE = ("sit_out", "sit_in", "leave")
SENTENCES: dict[str, Callable[[State, Any], str | None]] = {
    "throw": throw_refusal,
    "timeout": _timeout_refusal,
    "play_round": _play_round_refusal,
}


def _judged(state: State, seat: Any, command: Mapping[str, Any]) -> str | IllegalAction | None:
    """The judge's verdict: ``None``; a sentence, whose refusal lists the seat's legal actions;
    or a whole ``IllegalAction``, which lists none."""
    kind = command.get("type")
    if kind == "start":
        # Whether the context carries the seed of hand 1 is ``decide``'s to see (GC-2).
        return IllegalAction(T("The match has already started.")) if state.hand_no else None
    if kind in PRESENCE:
        return _presence_refusal(state, seat, command)
    # Any value a client sends as the type is judged, and one that is no command's refused.
    sentence = SENTENCES.get(kind) if isinstance(kind, str) else None
    if sentence is None:
        return T(
            "Unknown action {action}; Guerra Chevichona knows throw, sit_out, sit_in and leave.", action=repr(kind)
        )
    return sentence(state, seat)


def refusal(
    state: State, seat: int | None, command: Mapping[str, Any], extra: Mapping[str, Any] | None = None
) -> IllegalAction | None:
    """The one judge of a command: the refusal ``decide`` raises for it, with its words, code and
    the legal actions it lists, or ``None`` when ``decide`` accepts it. ``seat`` is the seat
    sending it (the command's own ``seat``); ``extra`` (``Context.extra``) judges nothing here."""
    judged = _judged(state, seat, command)
    if judged is None or isinstance(judged, IllegalAction):
        return judged
    return IllegalAction(judged, legal=legal_actions(state, seat) if seat_ok(state, seat) else [])


def legal_actions(state: State, seat: int | None) -> list[dict[str, Any]]:
    """The commands ``seat`` may send now: the candidates the judge lets through (CM-20)."""
    if not seat_ok(state, seat):
        return []
    return [dict(command) for command in CANDIDATES if _judged(state, seat, command) is None]
