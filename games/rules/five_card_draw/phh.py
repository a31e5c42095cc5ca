"""A Five-Card Draw hand in the Poker Hand History format (PHH, TOML; the notation PokerKit reads
with ``pokerkit.notation.HandHistory``). PHH names one variant this game plays: fixed-limit
deuce-to-seven triple draw, ``F2L3D``. Its single-draw code ``N2L1D`` is a no-limit deuce-to-seven
game, which this game does not play (its single draw is high, FD-1), and it has no five-card draw
high: every other table gets ``None``.

PHH numbers the players ``p1`` … ``pn`` from the button's left, the button last: the order of
``HandStarted.players``. Heads up PokerKit itself gives the button the small blind. The hand is
over, so every card is written as dealt; a draw is each player's discard (``p1 sd 7c8d``, or
``p1 sd`` to stand pat) in turn, then each replacement (``d dh p1 2h3s``). ``seats`` number the
table's seats from 1 (the table's seat 0 is seat 1). A hand whose pot held chips from a passed hand
(FD-6) has no PHH form (triple draw never passes a hand: no opening requirement, FD-14).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.five_card_draw.audit_hand import betting, first_of, settlement
from games.rules.five_card_draw.events import (
    CardsDealt,
    CardsDrawn,
    ForcedBetsPosted,
    HandStarted,
    PlayerActed,
    ShowdownHeld,
    StockReshuffled,
)

VARIANT = "F2L3D"


def phh(config: Mapping[str, Any], hand: Sequence[Any], players: Sequence[str]) -> str | None:
    """The hand as PHH text for a fixed-limit ``triple_draw_27`` table, else ``None``."""
    if config.get("variant") != "triple_draw_27" or config.get("betting") != "fixed_limit":
        return None
    started = first_of(hand, HandStarted)
    forced = first_of(hand, ForcedBetsPosted)
    dealt = first_of(hand, CardsDealt)
    bets = betting(hand)
    if started is None or forced is None or dealt is None or bets is None or not started.stacks or forced.carried:
        return None
    order = started.players
    label = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    n = len(order)
    antes = [0] * n
    blinds = [0] * n
    if forced.kind == "blinds":
        blinds[:2] = [int(config["small_blind"]), int(config["big_blind"])]
    else:
        antes = [int(config["ante_amount"])] * n
    awarded = settlement(hand)
    won = {seat: 0 for seat in order}
    for share in awarded.shares if awarded is not None else ():
        won[share.seat] = won.get(share.seat, 0) + share.chips
    starting = [started.stacks[seat] for seat in order]
    finishing = [started.stacks[seat] - bets.contributed.get(seat, 0) + won[seat] for seat in order]
    fields: list[tuple[str, Any]] = [
        ("variant", VARIANT),
        ("antes", antes),
        ("blinds_or_straddles", blinds),
        ("small_bet", int(config["small_bet"])),
        ("big_bet", int(config["big_bet"])),
        ("starting_stacks", starting),
        ("actions", actions(hand, forced, dealt, label)),
        ("hand", started.hand_no),
        ("seats", [seat + 1 for seat in order]),
        ("seat_count", int(config.get("seats", n))),
        ("players", [players[seat] if seat < len(players) else f"seat{seat}" for seat in order]),
        ("finishing_stacks", finishing),
        ("winnings", [won[seat] for seat in order]),
    ]
    return "\n".join(f"{key} = {_toml(value, key == 'actions')}" for key, value in fields) + "\n"


def actions(hand: Sequence[Any], forced: ForcedBetsPosted, dealt: CardsDealt, label: Mapping[int, str]) -> list[str]:
    """The PHH actions: the deal, each betting action (``f``, ``cc``, ``cbr`` to an amount), each
    draw's discards then replacements, and the hands shown."""
    out = [f"d dh {label[seat]} {''.join(dealt.hands[seat])}" for seat in label]
    bets = dict(forced.posts) if forced.kind == "blinds" else {}
    pending: list[CardsDrawn] = []
    for event in hand:
        if type(event) is CardsDrawn:
            if pending and pending[-1].draw != event.draw:
                # Draws with no betting between them: every player was all-in (FD-20).
                out += _draw(pending, label)
                pending = []
            pending.append(event)
            continue
        # A reshuffle (FD-8) has no PHH action: PokerKit deals from the mucked cards once its deck is out.
        if pending and type(event) is not StockReshuffled:
            out += _draw(pending, label)
            pending, bets = [], {}
        if type(event) is PlayerActed:
            out.append(_betting(event, bets, label))
            bets[event.seat] = event.to
        elif type(event) is ShowdownHeld:
            out += [f"{label[entry.seat]} sm {''.join(entry.cards)}" for entry in event.hands]
    if pending:
        out += _draw(pending, label)
    return out


def _draw(draws: list[CardsDrawn], label: Mapping[int, str]) -> list[str]:
    discards = [f"{label[d.seat]} sd {''.join(d.discarded)}".rstrip() for d in draws]
    return discards + [f"d dh {label[d.seat]} {''.join(d.received)}" for d in draws if d.received]


def _betting(event: PlayerActed, bets: Mapping[int, int], label: Mapping[int, str]) -> str:
    player = label[event.seat]
    if event.action == "fold":
        return f"{player} f"
    if event.action in ("bet", "raise") or (event.action == "all_in" and event.to > max(bets.values(), default=0)):
        return f"{player} cbr {event.to}"
    return f"{player} cc"


def _toml(value: Any, one_a_line: bool = False) -> str:
    """A TOML value: strings as basic strings (JSON's escapes are TOML's), a list on one line or,
    for the actions, one item a line."""
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        if one_a_line:
            return "[\n" + "".join(f"  {_toml(item)},\n" for item in value) + "]"
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return str(value)
