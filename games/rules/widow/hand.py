"""A widow hand from the deal to the showdown: the first dealer (CM-19), the fair deal of a hand
from the context's seed (CM-5..CM-10, WP-3, LV-4) and the shown hands valued by the card engine."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import fairness, hands
from games.engine.decider import Context
from games.rules.widow import exchange
from games.rules.widow.events import FirstDealerDrawn, HandStarted, ShownHand


def draw_first_dealer(pack: Sequence[str], ctx: Context, seats: int) -> FirstDealerDrawn:
    """CM-19 by the card engine, from hand 1's stream, over ``pack`` in canonical order."""
    drawn = fairness.first_dealer(pack, range(seats), require_seed(ctx), ctx.table_id, ctx.client_seed)
    return FirstDealerDrawn(drawn.draws, drawn.dealer)


def require_seed(ctx: Context) -> bytes:
    """The seed of the hand to deal; the service must always pass it (decider conventions)."""
    if ctx.server_seed is None:
        raise ValueError("dealing a hand needs ctx.server_seed (the seed of the next hand)")
    return ctx.server_seed


def deal_hand(
    pack: Sequence[str], ctx: Context, dealer: int, order: tuple[int, ...], seats: int, pot: int, wild_rank: str
) -> HandStarted:
    """Shuffle ``pack`` (canonical order) with the context's seed, purpose ``deck``, and deal it."""
    seed = require_seed(ctx)
    deck = fairness.shuffled(pack, seed, ctx.table_id, ctx.hand_no, ctx.client_seed, "deck")
    dealt, widow_cards, stock = exchange.deal(deck, order, seats)
    return HandStarted(
        hand_no=ctx.hand_no,
        dealer=dealer,
        order=order,
        commitment=fairness.commitment(seed),
        next_commitment=ctx.next_commitment,
        client_seed=ctx.client_seed,
        pot=pot,
        wild_rank=wild_rank,
        server_seed=seed.hex(),
        hands=dealt,
        widow_cards=widow_cards,
        stock=stock,
    )


def show_hands(
    ex: exchange.Exchange, wild: frozenset[str], *, flush_by_suit: bool, lowest_rank: str = "2"
) -> tuple[ShownHand, ...]:
    """Every hand of the exchange, in turn order, valued by the card engine (CM-11..CM-14, LV-12;
    ``lowest_rank`` is the pack's lowest rank, WP-8)."""
    shown = []
    for seat in ex.order:
        cards = ex.hands[seat]
        value = hands.high_value(cards, wild, flush_by_suit=flush_by_suit, lowest_rank=lowest_rank)
        shown.append(
            ShownHand(
                seat=seat,
                cards=cards,
                value=int(value),
                category=hands.category(value),
                # Words are made when shown (views, audits, histories), never recorded.
                description="",
                wild_count=sum(1 for card in cards if card in wild),
            )
        )
    return tuple(shown)
