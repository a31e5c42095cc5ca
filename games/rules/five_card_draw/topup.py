"""FD-13's top-up: a cash player who holds no cards in the hand under way (not dealt in, or
folded) may buy more chips, as long as the stack stays at most ``max_buy_in``. It is paid as a
buy-in is (``settlements``): money from the wallet to the table's escrow at ``chip_value``, chips
from the bank to the seat. A tournament has no top-up.

The engine knows no wallet: the service says what each person's wallet can pay, in chips, in
``ctx.extra["wallet_chips"]`` (by seat); a seat it does not name (a bot, whose bankroll always
pays, or any seat at a table without money) has no wallet limit. The legal action offers the
range the stack allows; the service narrows it to the wallet (``within_wallet``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.words import N, T, Text
from games.rules.five_card_draw.events import ChipsToppedUp
from games.rules.five_card_draw.state import CASH, State

TOP_UP = "top_up"


def holds_cards(state: State, seat: int) -> bool:
    """True while ``seat`` is still in the hand under way (dealt in and not folded)."""
    hand = state.hand
    return hand is not None and seat in hand.in_hand()


def room(state: State, seat: int) -> int:
    """The most chips ``seat`` may buy now (FD-13): up to ``max_buy_in``, for a cash player at the
    table, not leaving, holding no cards in the hand under way; else 0."""
    settings = state.settings
    if settings.format != CASH or not state.started or state.finished or not 0 <= seat < settings.seats:
        return 0
    if not state.present[seat] or state.leaving[seat] or seat in state.presence.gone or holds_cards(state, seat):
        return 0
    return max(0, settings.max_buy_in - state.stacks[seat])


def offer(state: State, seat: int) -> list[dict[str, Any]]:
    """The top-up as a legal action, ``{"type": "top_up", "min": 1, "max": ...}``, if there is room."""
    most = room(state, seat)
    return [{"type": TOP_UP, "min": 1, "max": most}] if most >= 1 else []


def wallet_chips(extra: Mapping[str, Any], seat: int) -> int | None:
    """The chips ``seat``'s wallet can pay for, or ``None`` when no wallet limits it."""
    paid = extra.get("wallet_chips", {})
    chips = paid.get(seat, paid.get(str(seat)))
    return None if chips is None else int(chips)


def within_wallet(legal: Sequence[Mapping[str, Any]], chips: int | None) -> list[dict[str, Any]]:
    """``legal`` with the top-up's ``max`` no more than the wallet pays for (``chips``; ``None``:
    no limit), and without the top-up when the wallet cannot pay for one chip."""
    out = []
    for option in legal:
        if option.get("type") == TOP_UP and chips is not None:
            if chips < option["min"]:
                continue
            option = {**option, "max": min(option["max"], chips)}
        out.append(dict(option))
    return out


def top_up(state: State, seat: int, chips: int) -> ChipsToppedUp:
    """The ``ChipsToppedUp`` of a ``top_up`` of ``chips`` by ``seat`` (FD-13), which ``refusal``
    let through."""
    return ChipsToppedUp(seat, chips, state.settings.chip_value)


def refusal(state: State, seat: int, chips: Any, wallet: int | None) -> tuple[Text, str] | None:
    """Why a ``top_up`` of ``chips`` by ``seat``, a player at the table, is refused (the sentence
    and its code), or ``None`` (FD-13): not at a tournament, not while holding cards, a whole
    number of chips from 1 that keeps the stack at most ``max_buy_in`` (code ``above_max_buy_in``),
    and no more than the ``wallet`` pays for (code ``insufficient_funds``; ``None``: no limit)."""
    most = _room_to_top_up(state, seat)
    if isinstance(most, tuple):
        return most
    return _chips_to_buy(state, seat, chips, most, wallet)


def _room_to_top_up(state: State, seat: int) -> int | tuple[Text, str]:
    """The most chips ``seat`` may buy now (``room``), or the refusal when it may buy none: at a
    tournament, while holding cards, leaving, or with a stack already at ``max_buy_in``."""
    settings = state.settings
    if settings.format != CASH:
        return T("A tournament has no top-up: everyone plays the chips they started with."), "no_top_up"
    if holds_cards(state, seat):
        return T("You can top up between hands, not while you hold cards in this one."), "no_top_up"
    if state.leaving[seat]:
        return T("You are leaving this table; you cannot top up."), "no_top_up"
    most = room(state, seat)
    if most < 1:
        return (
            T(
                "Your stack of {stack} is already the table's most, {max_buy_in} chips; you cannot top up.",
                stack=state.stacks[seat],
                max_buy_in=settings.max_buy_in,
            ),
            "above_max_buy_in",
        )
    return most


def _chips_to_buy(state: State, seat: int, chips: Any, most: int, wallet: int | None) -> tuple[Text, str] | None:
    """The refusal of the ``chips`` the command asks for, unless a whole number from 1 to ``most``
    (code ``above_max_buy_in`` past it) and no more than the ``wallet`` pays for."""
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
        return T("A top-up needs 'chips', a whole number from 1 to {most}.", most=most), "no_top_up"
    if chips > most:
        return (
            N(
                "{count} more chip would make your stack {total}, above the table's most of {max_buy_in}; "
                "you may buy up to {most}.",
                "{count} more chips would make your stack {total}, above the table's most of {max_buy_in}; "
                "you may buy up to {most}.",
                chips,
                total=state.stacks[seat] + chips,
                max_buy_in=state.settings.max_buy_in,
                most=most,
            ),
            "above_max_buy_in",
        )
    if wallet is not None and chips > wallet:
        return (
            N(
                "Your wallet pays for {count} chip at most, not {chips}.",
                "Your wallet pays for {count} chips at most, not {chips}.",
                wallet,
                chips=chips,
            ),
            "insufficient_funds",
        )
    return None


def cannot_post_notice(state: State, seat: int) -> Any:
    """What a cash player who cannot post the forced bet reads (FD-2, FD-13)."""
    settings = state.settings
    return T(
        "You have {stack} chips, fewer than the forced bet of {bet}: you are not dealt in until you "
        "top up (buy more chips) or you leave the table.",
        stack=state.stacks[seat],
        bet=settings.forced_bet,
    )
