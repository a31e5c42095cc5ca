"""Every event of a seeded game of each game reads as a sentence for players, made from the event as
each viewer is served it (``games.engine.sentences``, each game's ``sentences`` module).

For every seat and for a spectator, each event goes through the game's ``view_event`` (and the
money of the edge, ``money_shown``) as the events API serves it; its sentence must be the game's own
(never "<player> acts" for a type the game lists), leave no placeholder, and show no card the
viewer's ``data`` does not carry. Every event type of every game has a sentence, and the types a
playout does not reach are read from a built sample."""

from __future__ import annotations

import dataclasses
import hashlib
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import fairness, presence, registry
from games.engine.decider import Context, event_types_by_name
from games.engine.sentences import Cards, describe, subject
from games.engine.words import Text
from ledger.units import money_shown

# One seeded table per game (options chosen so that rarer events come), and its money.
TABLES: dict[str, tuple[int, dict[str, Any], str | None]] = {
    "euchre": (4, {"stick_the_dealer": True, "farmers_hand": True, "ace_no_face": True, "target_points": 3}, None),
    "five-card-draw": (3, {"format": "tournament", "shotgun": True, "ace_rule": "four_with_ace"}, None),
    "guerra": (3, {"deck": "spanish_48", "jokers": True}, None),
    "la-viuda": (4, {"chips_per_player": 2, "chip_value": 500, "currency": "MXN"}, "MXN"),
    "whiskey-poker": (3, {"scoring": "pot", "chips_per_player": 2}, None),
}
CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|(?:[1-9]|1[0-2])[oceb]|X[12])$")


def codes_in(value: Any) -> set[str]:
    """Every card code anywhere in an event's data."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(set(), *(codes_in(item) for item in value.values()))
    if isinstance(value, list | tuple):
        return set().union(set(), *(codes_in(item) for item in value))
    return set()


def rows_in(value: Any) -> Iterator[Cards]:
    """Every row of cards anywhere in a sentence."""
    if isinstance(value, Cards):
        yield value
    elif isinstance(value, Text):
        for item in value.values.values():
            yield from rows_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from rows_in(item)


def seed(tag: str, hand_no: int) -> bytes:
    return hashlib.sha256(f"sentences:{tag}:{hand_no}".encode()).digest()


def playout(game: str, commands: int = 1500) -> tuple[Any, list[Any]]:
    """A table of ``game`` played by random legal moves (now and then a timeout or sitting out), its
    system commands sent when due, until it ends or ``commands`` have run."""
    decider = registry.get(game)
    seats, options, _currency = TABLES[game]
    config = decider.configure(seats, options)
    state = decider.initial_state(config)
    rng = random.Random(f"sentences:{game}")
    events: list[Any] = []
    command: dict[str, Any] | None = {"type": "start"}
    for _ in range(commands):
        if command is not None:
            hand_no = decider.hand_no(state) + 1
            ctx = Context(
                table_id=f"sentences-{game}",
                hand_no=hand_no,
                server_seed=seed(game, hand_no),
                client_seed="|" * (seats - 1),
                next_commitment=fairness.commitment(seed(game, hand_no + 1)),
            )
            for event in decider.decide(state, command, ctx):
                state = decider.evolve(state, event)
                events.append(event)
        if decider.is_finished(state):
            break
        command = decider.pending_system(state)
        if command is not None:
            continue
        due = decider.deadline(state, config)
        if due is not None and rng.random() < 0.08:
            command = dict(due[1])
            continue
        waiting = decider.to_act(state)
        if not waiting:
            break
        seat = waiting[0]
        legal = decider.legal_actions(state, seat)
        moves = [action for action in legal if not presence.is_presence_action(action)]
        if not moves or rng.random() < 0.02:
            moves = legal
        action = dict(rng.choice(moves))
        if action.get("type") in ("bet", "raise") and "min" in action:
            action = {"type": action["type"], "amount": action["min"]}
        command = {**action, "seat": seat}
    return config, events


def item(game: str, event: Any, viewer: int | None, actor_seat: int | None) -> dict[str, Any]:
    """The events API's item of ``event`` for ``viewer``."""
    decider = registry.get(game)
    currency = TABLES[game][2]
    return {
        "seq": 1,
        "type": type(event).__name__,
        "actor": None,
        "actor_kind": "bot" if actor_seat is not None else "system",
        "actor_seat": actor_seat,
        "data": money_shown(decider.view_event(event, viewer), currency),
    }


def sample(cls: type) -> Any:
    """An event of ``cls`` with a sample value in each field."""
    values: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        kind = str(field.type)
        if kind == "int":
            values[field.name] = 1
        elif kind == "bool":
            values[field.name] = False
        elif kind == "str":
            values[field.name] = {"card": "Qh", "face_up": "Qh", "gave": "Qh", "took": "Kd", "suit": "h"}.get(
                field.name, "x"
            )
        elif kind == "str | None":
            values[field.name] = None
        elif kind == "tuple[int, ...]":
            values[field.name] = (1, 2)
        elif kind == "tuple[str, ...]":
            values[field.name] = ("Ah", "Kd", "9s")
        elif kind in ("tuple[tuple[int, int], ...]", "Plays"):
            values[field.name] = ((1, 2),) if kind != "Plays" else ((1, "Ah"), (2, "Kd"))
        elif kind == "tuple[tuple[int, str], ...]":
            values[field.name] = ((1, "Ah"), (2, "Kd"))
        else:
            pytest.skip(f"no sample for {cls.__name__}.{field.name}: {kind}")
    return cls(**values)


def check(game: str, event: Any, viewer: int | None, actor_seat: int | None) -> None:
    decider = registry.get(game)
    served = item(game, event, viewer, actor_seat)
    sentence = describe(decider.sentences, served, TABLES[game][2])
    where = (game, served["type"], viewer, sentence)
    assert sentence and all(isinstance(piece, str) for piece in sentence), where
    english = "".join(sentence)
    assert english.strip() and "{" not in english and "None" not in english, where
    # The game's own sentence, never the generic one.
    assert not any(isinstance(piece, Text) and piece.msgid == "{player} acts" for piece in sentence), where
    assert served["type"] not in english, where
    shown = {code for row in rows_in(sentence) for code in row.codes}
    assert shown <= codes_in(served["data"]), (where, shown - codes_in(served["data"]))


@pytest.mark.parametrize("game", sorted(TABLES))
def test_every_event_of_a_seeded_game_reads_as_a_sentence_with_no_hidden_card(game):
    decider = registry.get(game)
    seats = TABLES[game][0]
    _config, events = playout(game)
    types = {type(event).__name__ for event in events}
    assert len(types) >= 8, types  # the playout means something
    for event in events:
        actor = getattr(event, "seat", None)
        for viewer in [*range(seats), None]:
            check(game, event, viewer, actor if isinstance(actor, int) else None)
    # Every type the playout did not reach, from a sample.
    for name, cls in event_types_by_name(decider).items():
        if name not in types:
            event = sample(cls)
            for viewer in (0, 1, None):
                check(game, event, viewer, 1)


@pytest.mark.parametrize("game", sorted(TABLES))
def test_every_event_type_of_every_game_has_its_own_sentence(game):
    decider = registry.get(game)
    assert set(event_types_by_name(decider)) <= set(decider.sentences), game


def test_a_hidden_card_never_reaches_another_seat_s_sentence():
    """Euchre's dealer discards face down: the dealer's sentence shows the card, the others' not."""
    game = "euchre"
    _config, events = playout(game)
    discards = [event for event in events if type(event).__name__ == "DealerDiscarded"]
    assert discards
    decider = registry.get(game)
    for event in discards:
        own = describe(decider.sentences, item(game, event, event.seat, event.seat))
        other = describe(decider.sentences, item(game, event, (event.seat + 1) % 4, event.seat))
        assert [row.codes for row in rows_in(own)] == [(event.card,)]
        assert list(rows_in(other)) == []
        assert "face down" in "".join(other)


def test_an_unknown_event_reads_as_its_player_acting():
    sentences = registry.get("guerra").sentences
    said = [
        "".join(describe(sentences, event))
        for event in (
            {"type": "SomethingNew", "actor": None, "actor_seat": 2, "data": {"seat": 2}},
            {"type": "<b>Odd</b>", "actor": "ana", "actor_seat": None, "data": {}},
            {"type": "Nobody", "actor": None, "actor_seat": None, "data": {}},
            # A known type whose record lacks what its sentence reads.
            {"type": "CardPlayed", "actor": None, "actor_seat": 1, "data": {}},
        )
    ]
    assert said == ["seat 2 acts", "ana acts", "Something happens at the table", "seat 1 acts"]


def test_the_player_is_the_seat_the_event_is_about_then_the_actor():
    assert subject({"data": {"seat": 3}, "actor_seat": 1, "actor": "ana"}).values == {"seat": 3}
    assert subject({"data": {}, "actor_seat": 1, "actor": "ana"}).values == {"seat": 1}
    assert subject({"data": {"seat": True}, "actor_seat": None, "actor": "ana"}) == "ana"
    assert subject({"data": {}, "actor_seat": None, "actor": None}) is None


def test_timed_out_moves_and_money_say_so():
    viuda = registry.get("la-viuda").sentences
    timed = describe(viuda, {"type": "Passed", "actor_seat": 2, "data": {"seat": 2, "timed_out": True}})
    assert "".join(timed) == "seat 2 passes (time ran out)"
    offered = {"type": "WidowOffered", "actor_seat": None, "data": {"seat": 1, "price": "5.00", "price_minor": 500}}
    assert "".join(describe(viuda, offered, "MXN")) == "seat 1 may buy the widow for 5.00 MXN"
    without = {"type": "WidowOffered", "actor_seat": None, "data": {"seat": 1, "price": None, "price_minor": 0}}
    assert "".join(describe(viuda, without)) == "seat 1 may buy the widow"
    draw = registry.get("five-card-draw").sentences
    shares = {"type": "PotsAwarded", "data": {"shares": [{"seat": 0, "chips": 1}, {"seat": 2, "chips": 7}]}}
    assert "".join(describe(draw, shares)) == "seat 0 wins 1 chip; seat 2 wins 7 chips"
