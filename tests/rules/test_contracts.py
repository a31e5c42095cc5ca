"""Each game's wire contract (its ``contract.py``: legal actions and view keys as types, and its
event dataclasses) against what the engine really answers, so the document generated from them
(``games.engine.contract``) cannot drift from the rules: whole games are played at engine level,
every seat's legal actions, every view and every event's view checked against the schemas."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from jsonschema import Draft202012Validator

from games.engine import presence
from games.engine.contract import game_schemas, prefix_of
from games.engine.decider import Context, Decider
from games.rules import euchre, five_card_draw, guerra, la_viuda, whiskey_poker
from tests.rules import playout_draw, playout_euchre, playout_widow
from tests.schemas import closed, untyped


def _words(value: Any) -> str:
    # Words for players (``Text``) are strings on the wire; nothing else may fall back to ``str``.
    if isinstance(value, str):
        return str.__str__(value)
    raise TypeError(f"not JSON: {value!r}")


def _json(value: Any) -> Any:
    """As it goes on the wire (tuples become arrays)."""
    return msgspec.json.decode(msgspec.json.encode(value, enc_hook=_words))


class Contract:
    def __init__(self, decider: Decider) -> None:
        self.decider = decider
        # Closed: a key a view or an event has that its type does not name is a drift.
        components = {"schemas": closed(game_schemas(decider))}
        prefix = prefix_of(decider.slug)

        def validator(name: str) -> Draft202012Validator:
            return Draft202012Validator(
                {"$id": "urn:contract", "components": components, "$ref": f"#/components/schemas/{prefix}{name}"}
            )

        self.legal, self.view, self.event = validator("LegalAction"), validator("View"), validator("Event")
        self.checked = 0

    def check(self, state: Any, seat: int | None = None) -> None:
        seats = range(len(getattr(state, "seats", ())) or 8) if seat is None else [seat]
        for number in [*seats, None]:
            if number is not None:
                try:
                    legal = self.decider.legal_actions(state, number)
                except (IndexError, KeyError):
                    continue
                for action in legal:
                    self.legal.validate(_json(action))
                    self.checked += 1
            try:
                self.view.validate(_json(self.decider.view(state, number)))
            except (IndexError, KeyError):
                continue

    def check_event(self, event: Any, seats: int) -> None:
        for number in [*range(seats), None]:
            self.event.validate(_json(self.decider.view_event(event, number)))


def test_euchre_answers_as_its_contract_says():
    contract = Contract(euchre.DECIDER)
    rng = random.Random(1)

    def choose(state, seat, legal):
        contract.check(state, seat)
        return rng.choice(legal)

    config = euchre.DECIDER.configure(4, {"target_points": 5, "farmers_hand": True, "stick_the_dealer": True})
    _, events = playout_euchre.play_match(euchre.DECIDER, config, choose, "contract")
    for event in events:
        contract.check_event(event, 4)
    assert contract.checked > 100


def test_guerra_answers_as_its_contract_says():
    contract = Contract(guerra.DECIDER)
    config = guerra.DECIDER.configure(3, {"max_rounds": 40})
    ctx = Context(table_id="00000000-0000-0000-0000-000000000007", hand_no=1, server_seed=bytes(32), client_seed="||")
    state = guerra.DECIDER.initial_state(config)
    events = guerra.DECIDER.decide(state, {"type": "start"}, ctx)
    rng = random.Random(2)
    for _ in range(5_000):
        for event in events:
            state = guerra.DECIDER.evolve(state, event)
            contract.check_event(event, 3)
        if guerra.DECIDER.is_finished(state):
            break
        seat = guerra.DECIDER.to_act(state)[0]
        contract.check(state, seat)
        legal = guerra.DECIDER.legal_actions(state, seat)
        throw = [action for action in legal if action["type"] == "throw"] or legal
        events = guerra.DECIDER.decide(state, {**rng.choice(throw), "seat": seat}, ctx)
    assert contract.checked > 20


def _widow(decider: Decider, options: dict[str, Any]) -> None:
    contract = Contract(decider)
    rng = random.Random(3)

    def choose(state, seat):
        contract.check(state, seat)
        # The game's moves: a random player who sits out or leaves is a test of its own (CM-20).
        return rng.choice([a for a in decider.legal_actions(state, seat) if not presence.is_presence_action(a)])

    config = decider.configure(4, options)
    _, events = playout_widow.play(decider, config, choose, "00000000-0000-0000-0000-000000000009")
    for event in events:
        contract.check_event(event, 4)
    assert contract.checked > 50


def test_la_viuda_answers_as_its_contract_says():
    _widow(la_viuda.DECIDER, {"chips_per_player": 3})


def test_whiskey_poker_answers_as_its_contract_says():
    _widow(whiskey_poker.DECIDER, {"chips_per_player": 3, "scoring": "pot"})


def test_five_card_draw_answers_as_its_contract_says():
    contract = Contract(five_card_draw.DECIDER)

    def player(state, seat, rng):
        contract.check(state, seat)
        return playout_draw.random_action(state, seat, rng)

    def check(state, event):
        contract.check_event(event, state.settings.seats)

    playout_draw.play(3, {"format": "tournament", "starting_stack": 20}, seed=4, player=player, check=check)
    assert contract.checked > 50


def test_every_game_is_typed_to_its_leaves():
    # Every nested part of a view, an event and a legal action has its properties named: a client
    # generated from the document reads a hand, a pot or a trick without a cast.
    for decider in (euchre.DECIDER, five_card_draw.DECIDER, guerra.DECIDER, la_viuda.DECIDER, whiskey_poker.DECIDER):
        assert list(untyped(game_schemas(decider))) == [], decider.slug
