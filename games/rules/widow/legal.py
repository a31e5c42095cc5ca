"""The parts of both widow games' one judge of a command that they share, written once.

Each ``*_refusal`` returns the ``IllegalAction`` refusing a command, with its words, code and the
actions listed with it, or ``None``: each game's ``refusal`` asks them in the order its ``decide``
used to check, ``decide`` raises what the judge answers, and ``legal_actions`` is the candidates
the judge lets through. The events of an accepted command are made without checking again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.errors import IllegalAction
from games.engine.words import N, T, Text
from games.rules.widow.exchange import OVER, Exchange, action_of, must_knock
from games.rules.widow.state import TableState

# The commands of a turn of the exchange (WX-2..WX-7); ``timeout`` is the turn timer's.
TURN_COMMANDS = frozenset({"pass", "knock", "exchange_all", "exchange_one", "timeout"})


def time_refusal(state: TableState, kind: Any) -> IllegalAction | None:
    """Any command once the game is over, ``start`` once it has started and any other command
    before it has."""
    if state.finished:
        return IllegalAction(T("The game is over."), code="game_over")
    if kind == "start":
        if state.started:
            return IllegalAction(T("The game has already started."))
    elif not state.started:
        return IllegalAction(T("The game has not started yet."), code="not_started")
    return None


def unknown_action(kind: Any, legal: list[dict[str, Any]]) -> IllegalAction:
    """The refusal of a command of no type the game knows."""
    return IllegalAction(T("Unknown action {action}.", action=repr(kind)), legal=legal)


# --- the exchange (WX-2..WX-7) -----------------------------------------------------------------


# What a seat may send about its presence, each judged by ``games.rules.widow.presence.refusal``.
PRESENCE_CANDIDATES: tuple[dict[str, Any], ...] = ({"type": "sit_out"}, {"type": "sit_in"}, {"type": "leave"})


def exchange_candidates(ex: Exchange | None, seat: Any) -> list[dict[str, Any]]:
    """Every exchange move the turn might allow ``seat``, in the order its legal moves are
    listed: none off its turn."""
    if ex is None or seat != ex.turn:
        return []
    if not ex.face_up:
        return [{"type": "pass"}, {"type": "exchange_all"}, {"type": "knock"}]
    moves: list[dict[str, Any]] = [{"type": "pass"}, {"type": "knock"}, {"type": "exchange_all"}]
    moves += [{"type": "exchange_one", "give": give, "take": take} for give in ex.hands[seat] for take in ex.widow]
    return moves


def legal_moves(ex: Exchange | None, seat: Any, max_orbits: int) -> list[dict[str, Any]]:
    """The exchange moves ``seat`` may make now, shaped like the commands: the candidates the
    turn allows (the list a refused move is sent back with)."""
    return [move for move in exchange_candidates(ex, seat) if _allowed(ex, seat, move, max_orbits)]


def _allowed(ex: Exchange | None, seat: int, move: Mapping[str, Any], max_orbits: int) -> bool:
    assert ex is not None
    return _move_refusal(ex, seat, move, max_orbits, move) is None


def _move_refusal(
    ex: Exchange, seat: int, action: Mapping[str, Any], max_orbits: int, command: Mapping[str, Any]
) -> Text | None:
    """The sentence refusing ``action`` (``command`` as sent, its cards read) on ``seat``'s turn."""
    kind = action["type"]
    if kind == "knock":
        return None
    if must_knock(ex, max_orbits):
        return N(
            "{count} orbit has passed with the widow face up and nobody knocking: you must knock.",
            "{count} orbits have passed with the widow face up and nobody knocking: you must knock.",
            max_orbits,
        )
    if kind == "pass":
        return T("There is no pass once the widow is face up: exchange or knock.") if ex.face_up else None
    if kind == "exchange_all":
        return None
    if not ex.face_up:
        return T("The widow is face down: you may only take it whole.")
    if action.get("give") not in ex.hands[seat]:
        return T("You do not hold {card}.", card=repr(command.get("give")))
    if action.get("take") not in ex.widow:
        return T("The widow does not hold {card}.", card=repr(command.get("take")))
    return None


def turn_refusal(ex: Exchange | None, seat: Any, command: Mapping[str, Any], max_orbits: int) -> IllegalAction | None:
    """Why ``seat`` may not make the exchange move ``command`` now (a ``timeout`` plays pass or
    knock, which the turn always allows), or ``None``: no hand, another seat's turn (WX-2), a move
    of the other phase (WX-2, WX-5), a card not held, or WX-7's forced knock."""
    if ex is None or ex.turn == OVER:
        return IllegalAction(T("No hand is being played now."))
    if seat != ex.turn:
        return IllegalAction(T("It is seat {seat}'s turn, not yours.", seat=ex.turn), legal=[])
    sentence = _move_refusal(ex, seat, action_of(ex, command), max_orbits, command)
    if sentence is None:
        return None
    return IllegalAction(sentence, legal=legal_moves(ex, seat, max_orbits))
