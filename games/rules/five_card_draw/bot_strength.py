"""How strong the Five-Card Draw bot's hand is: its chance of winning the pot, from its own view.

**The opponents.** What an opponent ends up with is read from fixed reference tables: for each way
of playing (high with each wild option, deuce-to-seven, high-low), many single hands dealt from a
shuffled pack and drawn to with the bot's own draw rules (``bot_draws``), their showdown values
sorted. The tables are the same every run (the pack is shuffled by a generator with a fixed seed,
built once on first use): they are a fixed model of "a player who draws sensibly", not chance.
Each hand is filed by what the table can see of it: how many cards it drew in a draw, and whether
it held jacks or better when dealt (the opener of a jacks-or-better pot, FD-6). An opponent is
valued against the hands drawn like theirs (``0.85``), mixed with every hand (``0.15``) so that an
odd draw or a bluff still leaves some doubt.

**The bot.** Its own final hand is sampled with the ``rng`` it is given: the cards it cannot see
(not its own, not a face-up card) are dealt to its planned draws, this one and the ones to come
(triple draw has three, FD-14). After the last draw its hand is known and valued exactly.

**The chance.** Against one opponent, the chance is the share of their table the bot's value beats
(ties count half); against several, the product of the chances (as if their hands were
independent), averaged over the bot's samples. In high-low (FD-17) each half of the pot is such a
chance, and the bot's share is their mean.
"""

from __future__ import annotations

import bisect
import functools
import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from games.rules.five_card_draw import bot_draws
from games.rules.five_card_draw.bot_draws import HIGH, LOW27
from games.rules.five_card_draw.cards import has_openers, pack, wild_cards

REFERENCE_HANDS = 3000
"""Hands simulated per reference table."""
LIKE_THEIRS = 0.85
"""The weight of the hands drawn like an opponent's; the rest is every hand."""
FEWEST = 40
"""A filed group with fewer hands than this falls back to every hand."""
ANY = ("any",)
OPENERS = ("openers",)


class Reference:
    """Sorted showdown values of simulated hands, filed by what the table sees of each."""

    def __init__(self, mode: str, wild: str, draws: int):
        self.mode = mode
        self.wild = wild
        groups: dict[tuple[Any, ...], tuple[list[int], list[int]]] = {}
        generator = random.Random(f"five-card-draw-bot:{mode}:{wild}")
        wilds = wild_cards(wild)
        deck = list(pack(wild))
        options = [{"type": "draw", "min": 0, "max": 5 if mode == LOW27 else 3}]
        for _ in range(REFERENCE_HANDS):
            generator.shuffle(deck)
            held, stock = deck[:5], deck[5:]
            keys: list[tuple[Any, ...]] = [ANY]
            if mode == HIGH and has_openers(held, wild):
                keys.append(OPENERS)
            for number in range(1, draws + 1):
                discard = bot_draws.plan(held, mode, wilds, draws - number + 1, options)["discard"]
                count = len(discard)
                held = [card for card in held if card not in discard] + stock[:count]
                stock = stock[count:]
                keys.append(("drew", number, count))
            high, low = bot_draws.final_value(held, mode, wilds)
            for key in keys:
                highs, lows = groups.setdefault(key, ([], []))
                highs.append(high)
                lows.append(low)
        self.groups = {key: (sorted(highs), sorted(lows)) for key, (highs, lows) in groups.items()}

    def group(self, key: tuple[Any, ...]) -> tuple[list[int], list[int]]:
        """The sorted (high, low) values of a group; every hand when the group is small."""
        found = self.groups.get(key)
        if found is None or len(found[0]) < FEWEST:
            return self.groups[ANY]
        return found


@functools.lru_cache(maxsize=16)
def reference(mode: str, wild: str, draws: int) -> Reference:
    """The reference tables of a way of playing, built once."""
    return Reference(mode, wild, draws)


def beats(values: Sequence[int], value: int) -> float:
    """The share of sorted ``values`` that ``value`` beats, ties counting half."""
    below = bisect.bisect_left(values, value)
    equal = bisect.bisect_right(values, value, lo=below) - below
    return (below + 0.5 * equal) / len(values)


def opponent_key(player: Mapping[str, Any], opener: int | None) -> tuple[Any, ...]:
    """How an opponent's hand is filed: by their latest draw, else as the opener, else any hand."""
    drew = list(player.get("drew") or ())
    if drew:
        return ("drew", len(drew), int(drew[-1]))
    if opener is not None and player.get("seat") == opener:
        return OPENERS
    return ANY


def samples(
    held: Sequence[str],
    unseen: Sequence[str],
    mode: str,
    wild: Collection[str],
    draws_left: int,
    rng: random.Random,
    count: int,
) -> list[tuple[int, int]]:
    """The bot's final (high, low) values: exact with no draw to come, else ``count`` samples of
    its planned draws with cards it cannot see."""
    if draws_left <= 0:
        return [bot_draws.final_value(held, mode, wild)]
    most = 5 if mode == LOW27 else 3
    options: list[Mapping[str, Any]] = [{"type": "draw", "min": 0, "max": most}]
    first = bot_draws.plan(held, mode, wild, draws_left, options)["discard"]
    kept = [card for card in held if card not in first]
    pool = list(unseen)
    needed = min(len(pool), len(first) + (draws_left - 1) * most)
    out: list[tuple[int, int]] = []
    for _ in range(count):
        dealt = rng.sample(pool, needed)
        hand = kept + dealt[: len(first)]
        used = len(first)
        for later in range(draws_left - 1, 0, -1):
            discard = bot_draws.plan(hand, mode, wild, later, options[:1])["discard"]
            if used + len(discard) > len(dealt):
                break
            hand = [card for card in hand if card not in discard] + dealt[used : used + len(discard)]
            used += len(discard)
        if len(hand) != 5:
            hand = list(held)
        out.append(bot_draws.final_value(hand, mode, wild))
    return out


def chance(
    ours: Sequence[tuple[int, int]],
    opponents: Sequence[tuple[Any, ...]],
    table: Reference,
) -> float:
    """The bot's expected share of the pot: for each of its samples, the product over opponents
    of the share of their hands it beats (each half of a high-low pot on its own), averaged."""
    if not opponents:
        return 1.0
    groups = [(table.group(key), table.group(ANY)) for key in opponents]
    total = 0.0
    for high, low in ours:
        high_share = low_share = 1.0
        for (highs, lows), (any_highs, any_lows) in groups:
            if table.mode != LOW27:
                high_share *= LIKE_THEIRS * beats(highs, high) + (1 - LIKE_THEIRS) * beats(any_highs, high)
            if table.mode != HIGH:
                low_share *= LIKE_THEIRS * beats(lows, low) + (1 - LIKE_THEIRS) * beats(any_lows, low)
        if table.mode == HIGH:
            total += high_share
        elif table.mode == LOW27:
            total += low_share
        else:
            total += 0.5 * (high_share + low_share)
    return total / len(ours)
