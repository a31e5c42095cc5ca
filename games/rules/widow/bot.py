"""The widow exchange as a bot plays it, for La Viuda and Whiskey Poker.

A bot sees only its view. It estimates its chances by sampling the cards it cannot see: each
sample deals the other players (and, in phase 1, the face-down widow) from the unseen cards, and
the card engine's bulk valuation values every sampled hand at once. Each move the bot may make
(keep the hand by knocking, take the widow, swap one card) is then scored against the same
samples: the chance of holding the worst hand (``aim="not_worst"``) or the best (``aim="best"``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from games.engine import hands, presence
from games.engine.cards import INDEX

SAMPLES = 160
NOT_WORST, BEST = "not_worst", "best"


class Estimate:
    """Sampled deals of the unseen cards, valued once, against which candidate hands are scored."""

    def __init__(
        self,
        view: Mapping[str, Any],
        rng: random.Random,
        pack: Sequence[str],
        wild: frozenset[str],
        samples: int = SAMPLES,
    ):
        own = list(view["hand"])
        visible = set(own) | set(view.get("widow") or ())
        self.wild = wild
        self.flush_by_suit = bool(view.get("flush_by_suit"))
        self.lowest_rank: int | str = view.get("pack_lowest_rank") or 2
        unseen = np.array([INDEX[card] for card in pack if card not in visible], dtype=np.int16)
        opponents = len(view["order"]) - 1
        blind = 0 if view.get("widow_face_up") else 1
        generator = np.random.default_rng(rng.getrandbits(64))
        dealt = generator.permuted(np.tile(unseen, (samples, 1)), axis=1)[:, : 5 * (opponents + blind)]
        values = self._value(dealt.reshape(-1, 5)).reshape(samples, opponents + blind)
        others = values[:, :opponents]
        self.lowest = others.min(axis=1)
        self.highest = others.max(axis=1)
        self.blind = values[:, opponents] if blind else None

    def values(self, candidates: Sequence[Sequence[str]]) -> np.ndarray:
        """The values of candidate hands (known cards), by the bulk path."""
        return self._value(hands.card_indexes(candidates))

    def _value(self, indexes: Any) -> np.ndarray:
        return hands.high_values(indexes, self.wild, flush_by_suit=self.flush_by_suit, lowest_rank=self.lowest_rank)

    def chance(self, values: np.ndarray, aim: str) -> np.ndarray:
        """For each value, the sampled chance of the worst hand (``not_worst``, lower is better) or
        of the best hand (``best``, higher is better); ties count half."""
        column = values.reshape(-1, 1)
        chances: np.ndarray
        if aim == NOT_WORST:
            chances = (column < self.lowest).mean(axis=1) + 0.5 * (column == self.lowest).mean(axis=1)
        else:
            chances = (column > self.highest).mean(axis=1) + 0.5 * (column == self.highest).mean(axis=1)
        return chances

    def blind_chance(self, aim: str) -> float:
        """The chance for a face-down widow taken unseen, each sample's widow against its deal."""
        assert self.blind is not None
        if aim == NOT_WORST:
            return float(((self.blind < self.lowest) + 0.5 * (self.blind == self.lowest)).mean())
        return float(((self.blind > self.highest) + 0.5 * (self.blind == self.highest)).mean())


def better(a: float, b: float, aim: str) -> bool:
    """True when chance ``a`` is better than ``b`` for this aim."""
    return a < b if aim == NOT_WORST else a > b


def good_enough(chance: float, players: int, aim: str) -> bool:
    """Whether a hand is worth knocking on: likely not the worst, or likely the best."""
    if aim == NOT_WORST:
        return chance <= 0.5 / players
    return chance >= max(0.5, 1.5 / players)


def choose_exchange(
    view: Mapping[str, Any],
    legal: Sequence[Mapping[str, Any]],
    rng: random.Random,
    aim: str,
    *,
    pack: Sequence[str],
    wild: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """A sensible exchange move from the view: knock on a good hand, else the move that helps most.
    ``pack`` is the table's pack and ``wild`` the hand's wild cards, as the game's bot reads them
    from the view (public facts only). Never sitting out, sitting in or leaving (CM-20)."""
    legal = moves_only(legal)
    kinds = {action["type"] for action in legal}
    if kinds == {"knock"}:
        return {"type": "knock"}
    estimate = Estimate(view, rng, pack, wild)
    own = tuple(view["hand"])
    players = len(view["order"])
    keep = float(estimate.chance(estimate.values([own]), aim)[0])
    last_turn = view.get("first_knocker") is not None
    if "pass" in kinds:
        blind = estimate.blind_chance(aim)
        if good_enough(keep, players, aim) and not last_turn:
            return {"type": "knock"}
        if better(blind, keep, aim):
            return {"type": "exchange_all"}
        return {"type": "knock"} if last_turn else {"type": "pass"}
    moves = [action for action in legal if action["type"] != "knock"]
    widow = tuple(view["widow"])
    candidates = [widow if move["type"] == "exchange_all" else swap(own, move["give"], move["take"]) for move in moves]
    chances = estimate.chance(estimate.values(candidates), aim)
    best = int(np.argmin(chances) if aim == NOT_WORST else np.argmax(chances))
    if good_enough(keep, players, aim) and not last_turn:
        return {"type": "knock"}
    if better(float(chances[best]), keep, aim):
        return dict(moves[best])
    return {"type": "knock"}


def swap(hand: Sequence[str], give: str, take: str) -> tuple[str, ...]:
    """The hand after swapping ``give`` for ``take``."""
    return tuple(take if card == give else card for card in hand)


def random_legal(legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The benchmark's baseline player: any legal move, uniformly (never a presence action)."""
    return dict(rng.choice(moves_only(legal)))


def moves_only(legal: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The legal actions without sitting out, sitting in and leaving: the player's to choose, never
    a bot's (CM-20)."""
    return [action for action in legal if not presence.is_presence_action(action)]
