"""Five-Card Draw's one judge of a command: ``refusal(state, seat, command)`` is the refusal
``decide`` raises (the words, the code and the legal actions it lists), returned rather than
raised, or ``None`` when ``decide`` accepts the command. ``legal_actions`` is the candidates it lets
through: a bet's or a raise's range is one candidate, judged by its kind (the openers, FD-6), the
amount within it by the judge itself; ``to_act`` and ``draw_limits`` say what the state waits for.

The betting refusals are the round's own (``betting.actions.refusal``, FD-4), the top-up's are
``topup.refusal`` (FD-13) and sitting out, sitting in and leaving are the engine's presence
(CM-20). The start, the turn timer's ``timeout`` and the owner's ``end_table`` are judged here too,
so that ``decide`` has no refusal of its own."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from games.engine import between_hands, presence
from games.engine.errors import IllegalAction
from games.engine.words import N, T, Text
from games.rules.betting.actions import KINDS, Action
from games.rules.betting.actions import refusal as betting_refusal
from games.rules.betting.limits import legal_actions as betting_legal
from games.rules.five_card_draw import cards, topup
from games.rules.five_card_draw.state import BETTING, DRAWING, TOURNAMENT, TRIPLE_DRAW, Hand, State

TIMEOUT = "timeout"
# FD-7: a player may discard up to three cards without showing an ace.
FREE_DISCARDS = 3
# What a refusal lists: nothing, the seat's legal actions, or those with the top-up narrowed to
# the wallet (``topup.within_wallet``).
NOTHING, LEGAL, WALLET = "nothing", "legal", "wallet"


@dataclasses.dataclass(frozen=True, slots=True)
class _Refused:
    """A refusal before its legal actions are listed (listing them asks the judge again)."""

    message: str
    code: str = "illegal_action"
    listed: str = NOTHING


Judge = Callable[[State, Any, Mapping[str, Any], Mapping[str, Any]], _Refused | None]


def refusal(
    state: State, seat: int | None, command: Mapping[str, Any], extra: Mapping[str, Any] | None = None
) -> IllegalAction | None:
    """The refusal of ``seat``'s ``command`` (``None`` for the owner's, which has no seat) that
    ``decide`` raises, or ``None`` when it accepts it. ``extra`` is what the service tells the
    engine (``Context.extra``): the chips each wallet pays for limit a top-up (FD-13); without it no
    wallet limits one."""
    given = extra or {}
    refused = _judge(state, seat, command, given)
    if refused is None:
        return None
    return IllegalAction(refused.message, legal=_listed(state, seat, refused.listed, given), code=refused.code)


def _listed(state: State, seat: Any, listed: str, extra: Mapping[str, Any]) -> list[dict[str, Any]]:
    if listed == NOTHING or not isinstance(seat, int) or isinstance(seat, bool):
        return []
    legal = legal_actions(state, seat)
    return topup.within_wallet(legal, topup.wallet_chips(extra, seat)) if listed == WALLET else legal


def _judge(state: State, seat: Any, command: Mapping[str, Any], extra: Mapping[str, Any]) -> _Refused | None:
    kind = command.get("type")
    if state.finished:
        return _Refused(T("The table is over."), "game_over")
    if kind == "start":
        return _Refused(T("The table has already started.")) if state.started else None
    if not state.started:
        return _Refused(T("The table has not started yet."), "not_started")
    judge = _JUDGES.get(str(kind))
    if judge is None:
        return _Refused(T("Unknown action {action}.", action=repr(kind)), listed=LEGAL)
    return judge(state, seat, command, extra)


# --- the seat's turn: betting and the draw --------------------------------------------------------


def _no_such_seat(state: State, seat: Any) -> _Refused | None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.settings.seats:
        return _Refused(T("No such seat: {seat}.", seat=repr(seat)))
    return None


def _turn(state: State, seat: Any) -> _Refused | None:
    """Only the seat the hand waits for acts."""
    refused = _no_such_seat(state, seat)
    if refused is not None:
        return refused
    waiting = to_act(state)
    if seat in waiting:
        return None
    whose = (
        T("It is seat {turn}'s turn, not seat {seat}'s.", turn=waiting[0], seat=seat)
        if waiting
        else T("It is nobody's turn, not seat {seat}'s.", seat=seat)
    )
    return _Refused(whose, "not_your_turn")


def _timeout(state: State, seat: Any, command: Mapping[str, Any], extra: Mapping[str, Any]) -> _Refused | None:
    """FD-21: the turn timer's ``timeout`` is of the seat the hand waits for."""
    return _turn(state, seat)


def _bet(state: State, seat: Any, command: Mapping[str, Any], extra: Mapping[str, Any]) -> _Refused | None:
    """FD-4, FD-6: the betting round's refusals, the openers first."""
    refused = _turn(state, seat)
    if refused is not None:
        return refused
    hand = _hand(state)
    if hand.phase != BETTING or hand.round is None:
        return _Refused(T("It is not a betting round: it is the draw."), listed=LEGAL)
    kind = str(command["type"])
    amount = command.get("amount", 0)
    if kind in ("bet", "raise") and (isinstance(amount, bool) or not isinstance(amount, int)):
        return _Refused(
            T("A bet needs 'amount', a whole number of chips (your whole bet this round).")
            if kind == "bet"
            else T("A raise needs 'amount', a whole number of chips (your whole bet this round)."),
            listed=LEGAL,
        )
    if needs_openers(state, hand) and kind in ("bet", "all_in", "raise") and not has_openers(state, hand, seat):
        return _Refused(
            T("You need a pair of jacks or better to open the betting; you may check or fold."),
            "no_openers",
            LEGAL,
        )
    why = betting_refusal(hand.round, Action(kind, amount if kind in ("bet", "raise") else 0))  # type: ignore[arg-type]
    return None if why is None else _Refused(why, listed=LEGAL)


def needs_openers(state: State, hand: Hand) -> bool:
    """FD-6: jacks or better, in the first round, until someone opens."""
    return (
        state.settings.opening == "jacks_or_better"
        and not hand.blinds
        and hand.street == 0
        and hand.round is not None
        and hand.round.current_bet == 0
    )


def has_openers(state: State, hand: Hand, seat: int) -> bool:
    """FD-6: ``seat`` holds jacks or better."""
    return cards.has_openers(hand.cards[seat], state.settings.wild)


def _draw(state: State, seat: Any, command: Mapping[str, Any], extra: Mapping[str, Any]) -> _Refused | None:
    """FD-7, FD-14: the draw of the seat to act."""
    refused = _turn(state, seat)
    if refused is not None:
        return refused
    if _hand(state).phase != DRAWING:
        return _Refused(T("It is a betting round, not the draw."), listed=LEGAL)
    why = _discard_refusal(state, seat, command)
    return None if why is None else _Refused(why, listed=LEGAL)


def _discard_refusal(state: State, seat: int, command: Mapping[str, Any]) -> Text | None:
    """The cards discarded are held, once each, and as many as FD-7 allows with the ``show`` it asks."""
    given = command.get("discard", [])
    if not isinstance(given, list) or not all(isinstance(card, str) for card in given):
        return T('\'discard\' is a list of the card codes you throw away, e.g. ["7c", "2d"].')
    holding = _hand(state).cards[seat]
    strange = [card for card in given if card not in holding]
    if strange:
        return T("You do not hold {cards}; your cards are {holding}.", cards=strange, holding=" ".join(holding))
    if len(set(given)) != len(given):
        return T("A card can be discarded only once.")
    show = command.get("show")
    limits = draw_limits(state, seat)
    most = limits["show_ace"]["min"] - 1 if "show_ace" in limits else limits["max"]
    if len(given) <= most:
        if show is None:
            return None
        return N(
            "Show an ace only to discard more than {count} card.",
            "Show an ace only to discard more than {count} cards.",
            most,
        )
    return _ace_refusal(state, given, show, holding, most)


def _ace_refusal(state: State, given: list[str], show: Any, holding: tuple[str, ...], most: int) -> Text | None:
    """FD-7: more than ``most`` cards only with an ace rule and an ace of the hand shown."""
    rule = state.settings.ace_rule
    if state.settings.variant == TRIPLE_DRAW or rule == "none":
        return N("You may discard at most {count} card.", "You may discard at most {count} cards.", most)
    if not isinstance(show, str) or show not in holding or show[0] != "A":
        return N(
            "To discard more than {count} card, show an ace you hold: 'show': \"As\".",
            "To discard more than {count} cards, show an ace you hold: 'show': \"As\".",
            most,
        )
    if rule == "four_with_ace" and (len(given) > 4 or show in given):
        return T("With four cards with an ace you may discard four cards and keep the ace you show.")
    return None


def draw_limits(state: State, seat: int) -> dict[str, Any]:
    """The draw of ``seat`` as one legal action (FD-7, FD-14): discard ``min`` to ``max`` cards,
    0-3 (0-5 in triple draw); with an ace rule and an ace in the hand, up to 4 (or 5), and
    ``show_ace`` says which counts need an ace shown, which aces, and whether it is kept."""
    settings = state.settings
    hand = _hand(state)
    if settings.variant == TRIPLE_DRAW:
        return {"type": "draw", "min": 0, "max": 5}
    aces = [card for card in hand.cards[seat] if card[0] == "A"]
    if not aces or settings.ace_rule == "none":
        return {"type": "draw", "min": 0, "max": FREE_DISCARDS}
    most = 4 if settings.ace_rule == "four_with_ace" else 5
    show = {"min": FREE_DISCARDS + 1, "max": most, "aces": aces, "keep": settings.ace_rule == "four_with_ace"}
    return {"type": "draw", "min": 0, "max": most, "show_ace": show}


# --- whoever's turn it is: presence, leaving, the top-up, the owner's end -------------------------


def _present(state: State, seat: Any) -> _Refused | None:
    """CM-20: only a player still at the table may sit out, sit in, leave or top up."""
    refused = _no_such_seat(state, seat)
    if refused is None and not state.present[seat]:
        return _Refused(T("You are no longer at this table."), "cannot_leave")
    return refused


def _presence(state: State, seat: Any, command: Mapping[str, Any], extra: Mapping[str, Any]) -> _Refused | None:
    """CM-20: sitting out hands the seat to the table's bot, at any moment; sitting in takes it back."""
    refused = _present(state, seat)
    if refused is not None:
        return refused
    judged = presence.refusal(state.presence, seat, command["type"])
    return None if judged is None else _Refused(judged.message, judged.code)


def _leave(state: State, seat: Any, command: Mapping[str, Any], extra: Mapping[str, Any]) -> _Refused | None:
    """CM-20, FD-13: a player at the table may leave once."""
    refused = _present(state, seat)
    if refused is not None:
        return refused
    judged = presence.refusal(state.presence, seat, "leave")
    return None if judged is None else _Refused(judged.message, judged.code)


def _top_up(state: State, seat: Any, command: Mapping[str, Any], extra: Mapping[str, Any]) -> _Refused | None:
    """FD-13: ``topup.refusal``, listing the legal actions with the top-up narrowed to the wallet."""
    refused = _present(state, seat)
    if refused is not None:
        return refused
    why = topup.refusal(state, seat, command.get("chips"), topup.wallet_chips(extra, seat))
    return None if why is None else _Refused(why[0], why[1], WALLET)


def _end_table(state: State, seat: Any, command: Mapping[str, Any], extra: Mapping[str, Any]) -> _Refused | None:
    """FD-13: the owner ends a cash table once; a tournament ends when one player holds every chip."""
    if state.settings.format == TOURNAMENT:
        return _Refused(T("A tournament ends when one player holds every chip."), "cannot_end")
    if state.end_requested:
        return _Refused(T("The table already ends when this hand is over."))
    return None


def _idle_end(state: State, seat: Any, command: Mapping[str, Any], extra: Mapping[str, Any]) -> _Refused | None:
    """CM-21: the system's, at the end of a wait for a person; the gate offers it to nobody."""
    refused = between_hands.idle_end_refusal(state.waiting)
    return None if refused is None else _Refused(refused.message, refused.code)


_JUDGES: dict[str, Judge] = {
    **{kind: _bet for kind in KINDS},
    "draw": _draw,
    TIMEOUT: _timeout,
    "sit_out": _presence,
    "sit_in": _presence,
    "leave": _leave,
    "end_table": _end_table,
    topup.TOP_UP: _top_up,
    between_hands.IDLE_END: _idle_end,
}


# --- what the state waits for ----------------------------------------------------------------------


def to_act(state: State) -> tuple[int, ...]:
    """The seat whose betting action or draw the hand waits for."""
    hand = state.hand
    if state.finished or hand is None:
        return ()
    if hand.phase == BETTING and hand.round is not None and not hand.round.over:
        return (hand.round.seats[hand.round.to_act],)
    if hand.phase == DRAWING and hand.drawing:
        return (hand.drawing[0],)
    return ()


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """The candidates the judge lets through: ``seat``'s betting actions with exact amounts (FD-4,
    FD-6) or its draw (FD-7) on its turn; a cash player holding no cards, a ``top_up`` (FD-13); and,
    whoever's turn it is, ``sit_out`` or ``sit_in`` and ``leave`` while the player is at the table
    and has not left (CM-20)."""
    return [option for option in candidates(state, seat) if _judge(state, seat, command_of(option), {}) is None]


def candidates(state: State, seat: int) -> list[dict[str, Any]]:
    """What ``seat`` might send, each shaped like a legal action, before the judge: the betting
    round's actions or the draw on its turn, the top-up up to ``max_buy_in`` at a cash table, and
    the presence commands."""
    if not 0 <= seat < state.settings.seats:
        return []
    listed: list[dict[str, Any]] = []
    hand = state.hand
    if seat in to_act(state) and hand is not None:
        if hand.phase == DRAWING:
            listed.append(draw_limits(state, seat))
        elif hand.round is not None:
            listed.extend(betting_legal(hand.round).as_dicts())
    if state.settings.format != TOURNAMENT:
        listed.append({"type": topup.TOP_UP, "min": 1, "max": topup.room(state, seat)})
    return listed + presence.actions(state.presence, seat)


def command_of(option: Mapping[str, Any]) -> dict[str, Any]:
    """The command a candidate stands for: a range's smallest amount, any within it being judged
    alike; a draw of no cards; a top-up of one chip."""
    kind = option["type"]
    field = {"bet": "amount", "raise": "amount", topup.TOP_UP: "chips"}.get(kind)
    return {"type": kind} if field is None else {"type": kind, field: option["min"]}


def _hand(state: State) -> Hand:
    if state.hand is None:
        raise IllegalAction(T("No hand is being played."))
    return state.hand
