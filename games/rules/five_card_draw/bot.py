"""The Five-Card Draw bot: plays from its own seat's view only (FD-19), and always legally.

**Draws** follow ``bot_draws``: stand pat on a straight or better, keep pairs, two pair and trips,
draw to four-flushes and open-ended straights, keep an ace (shown to draw four under an ace rule,
FD-7); in deuce-to-seven keep the lowest distinct cards to a 7; in high-low aim at the half the
hand is likelier to win.

**Betting** weighs the bot's chance of winning the pot (``bot_strength``: its hand before the
draw sampled through its planned draws, after the last draw valued exactly, against reference hands
drawn like each opponent's), with ``n`` opponents still in:

- with nothing to call, it bets for value when its chance is at least ``1.2 / (n + 1)`` (0.6
  heads-up), else checks; a chance of ``0.25`` more bets bigger. Under jacks or better (FD-6) it
  may open only with openers: ``legal_actions`` leaves the bet out otherwise, and it checks;
- facing a bet, it raises past ``max(0.75, 1.6 / (n + 1))`` (all-in when only all-in raises),
  calls when its chance is at least the pot odds (the call over the pot after calling), else folds;
- a bet is two thirds of the pot (the whole pot when strong: ``0.25`` past the bet line, or
  ``0.125`` past the raise line), a raise to the current bet plus that share of the pot after calling, kept within the legal ``min`` and ``max``; when that would put
  most of its stack in, it goes all-in if all-in is legal. Fixed limit has one amount.

It never folds when it may check. Whatever the view holds (an all-in, a skipped round, a
tournament, a hand it cannot read), it answers with one of its ``legal_actions``; when it cannot
read the view it does what the turn timer does (FD-21: check, else fold; stand pat). Its only
randomness is the ``rng`` it is given, so the same view and the same ``rng`` give the same action.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.presence import is_presence_action
from games.rules.five_card_draw import bot_draws, bot_strength
from games.rules.five_card_draw.bot_draws import HIGH, HIGH_LOW, LOW27
from games.rules.five_card_draw.cards import pack, wild_cards

SAMPLES = 64
"""The bot's own draws sampled per betting decision before the last draw (fewer with more to come)."""
VALUE_FACTOR = 1.2
RAISE_FACTOR = 1.6
STRONGER = 0.25
BET_SHARE = 0.66
STRONG_SHARE = 1.0
ALL_IN_SHARE = 0.6
"""Past this share of its chips, a bet or a raise goes all-in (when all-in is legal)."""


def choose(view: Mapping[str, Any], legal_actions: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The bot's action: a draw or a betting action from ``legal_actions``, from ``view`` alone;
    never sitting out, sitting in or leaving, which are the player's own choices (CM-20)."""
    legal_actions = [option for option in legal_actions if not is_presence_action(option)]
    try:
        action = decide(view, legal_actions, rng)
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError):
        return timeout_action(legal_actions)
    return action if is_legal(action, legal_actions) else timeout_action(legal_actions)


def timeout_action(legal_actions: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What the turn timer does (FD-21): stand pat in a draw, else check if possible, else fold."""
    kinds = {option.get("type") for option in legal_actions}
    if "draw" in kinds:
        return {"type": "draw", "discard": []}
    return {"type": "check"} if "check" in kinds else {"type": "fold"}


def is_legal(action: Mapping[str, Any], legal_actions: Sequence[Mapping[str, Any]]) -> bool:
    """Whether ``action`` is one the legal options allow, its amount or discard count included."""
    kind = action.get("type")
    for option in legal_actions:
        if option.get("type") != kind:
            continue
        if kind in ("bet", "raise"):
            if option["min"] <= action.get("amount", -1) <= option["max"]:
                return True
        elif kind == "draw":
            discard = action.get("discard", [])
            if not option["min"] <= len(discard) <= option["max"]:
                continue
            ace = option.get("show_ace")
            if ace is None or len(discard) < ace["min"]:
                return "show" not in action
            return action.get("show") in ace["aces"] and not (ace["keep"] and action["show"] in discard)
        else:
            return True
    return False


def decide(view: Mapping[str, Any], legal_actions: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """:func:`choose` without the guard: may raise on a view it cannot read."""
    kinds = {option["type"] for option in legal_actions}
    if not kinds:
        return timeout_action(legal_actions)
    hand = view["hand"]
    held = list(hand["your_cards"])
    mode = _mode(view)
    wild = wild_cards(str(view.get("wild") or "none"))
    total_draws = 3 if mode == LOW27 else 1
    if "draw" in kinds:
        draws_left = max(1, total_draws - int(hand.get("draw") or 1) + 1)
        draws = [option for option in legal_actions if option["type"] == "draw"]
        return bot_draws.plan(held, mode, wild, draws_left, draws)
    draws_left = max(0, total_draws - int(hand.get("street") or 0))
    share = strength(view, held, mode, draws_left, rng)
    return betting(view, legal_actions, share)


def _mode(view: Mapping[str, Any]) -> str:
    if view.get("variant") == "triple_draw_27":
        return LOW27
    return HIGH_LOW if view.get("high_low") else HIGH


def opponents(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The other players still in the hand."""
    me = view.get("seat")
    return [player for player in view["players"] if player.get("in_hand") and player.get("seat") != me]


def strength(view: Mapping[str, Any], held: Sequence[str], mode: str, draws_left: int, rng: random.Random) -> float:
    """The bot's chance of winning the pot (``bot_strength``)."""
    wild_option = str(view.get("wild") or "none")
    wild = wild_cards(wild_option)
    seen = set(held)
    for player in view["players"]:
        seen.update(player.get("face_up") or ())
    unseen = [card for card in pack(wild_option) if card not in seen]
    count = SAMPLES if draws_left <= 1 else SAMPLES // (2 * draws_left)
    ours = bot_strength.samples(held, unseen, mode, wild, draws_left, rng, count)
    opener = view["hand"].get("opener")
    keys = [bot_strength.opponent_key(player, opener) for player in opponents(view)]
    table = bot_strength.reference(mode, wild_option if mode == HIGH else "none", 3 if mode == LOW27 else 1)
    return bot_strength.chance(ours, keys, table)


def betting(view: Mapping[str, Any], legal_actions: Sequence[Mapping[str, Any]], share: float) -> dict[str, Any]:
    """The betting action for a chance ``share`` of winning the pot (see the module docstring)."""
    options = {option["type"]: option for option in legal_actions}
    others = max(1, len(opponents(view)))
    value_line = min(0.9, VALUE_FACTOR / (others + 1))
    raise_line = max(0.75, RAISE_FACTOR / (others + 1))
    pot = int(view.get("pot") or 0)
    me = _me(view)
    mine = int(me.get("bet") or 0) + int(me.get("stack") or 0)
    if "check" in options:
        aggressive = options.get("bet") or options.get("raise")
        if aggressive is not None and share >= value_line:
            return _sized(aggressive, options, view, pot, mine, share >= value_line + STRONGER)
        return {"type": "check"}
    call = options.get("call")
    to_call = int(call["amount"]) if call is not None else 0
    if share >= raise_line:
        raising = options.get("raise")
        if raising is not None:
            return _sized(raising, options, view, pot + to_call, mine, share >= raise_line + STRONGER / 2)
        all_in = options.get("all_in")
        if all_in is not None and int(all_in["amount"]) > int(view["hand"].get("current_bet") or 0):
            return {"type": "all_in"}
    price = to_call / (pot + to_call) if pot + to_call else 0.0
    if call is not None and share >= price:
        return {"type": "call"}
    return {"type": "fold"}


def _me(view: Mapping[str, Any]) -> Mapping[str, Any]:
    me = view.get("seat")
    for player in view["players"]:
        if player.get("seat") == me:
            found: Mapping[str, Any] = player
            return found
    return {}


def _sized(
    option: Mapping[str, Any],
    options: Mapping[str, Mapping[str, Any]],
    view: Mapping[str, Any],
    pot: int,
    mine: int,
    strong: bool,
) -> dict[str, Any]:
    """A bet or a raise of a share of ``pot`` (the pot after calling, for a raise), as a "to"
    amount within the option's range; all-in when it would put most of the bot's chips in."""
    current = int(view["hand"].get("current_bet") or 0)
    target = current + round((STRONG_SHARE if strong else BET_SHARE) * pot)
    amount = max(int(option["min"]), min(int(option["max"]), target))
    if "all_in" in options and mine and amount >= ALL_IN_SHARE * mine:
        return {"type": "all_in"}
    return {"type": str(option["type"]), "amount": amount}
