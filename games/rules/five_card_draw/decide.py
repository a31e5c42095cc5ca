"""Five-Card Draw's commands: start, the betting actions, the draw, timeouts, sitting out and in,
leaving and ending the table; and every automatic consequence (a leaver's folds, the showdown, the
pots, the next deal) decided in the same command. Every refusal is the one judge's
(``legal.refusal``): ``decide`` raises it, and its handlers take the command as judged.
``deadline`` answers what the state waits for (``to_act`` and ``legal_actions`` are ``legal``'s)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.engine import between_hands, fairness, presence
from games.engine.decider import Context
from games.engine.errors import IllegalAction
from games.engine.seats import left_of, next_seat, turn_order
from games.engine.words import T
from games.rules.betting.actions import KINDS, Action, Kind, act
from games.rules.betting.limits import legal_actions as betting_legal
from games.rules.five_card_draw import cards, legal, showdown, topup
from games.rules.five_card_draw.events import (
    CardsDealt,
    CardsDrawn,
    FirstDealerDrawn,
    ForcedBetsPosted,
    HandEnded,
    HandPassed,
    HandStarted,
    LeaveRequested,
    PlayerActed,
    PlayerEliminated,
    PlayerLeft,
    StockReshuffled,
    TableEnded,
    TableEndRequested,
    TableStarted,
)
from games.rules.five_card_draw.state import (
    CASH,
    DRAWING,
    PASSED,
    SHOWDOWN,
    TOURNAMENT,
    Hand,
    State,
    evolve,
)

# What the state waits for is the judge's to say (``legal``); this module's names for the game value.
TIMEOUT = legal.TIMEOUT
to_act = legal.to_act
legal_actions = legal.legal_actions
draw_limits = legal.draw_limits


class _Log:
    """The events a command decides so far, and the state they lead to."""

    def __init__(self, state: State):
        self.state = state
        self.events: list[Any] = []

    def add(self, event: Any) -> None:
        self.events.append(event)
        self.state = evolve(event, self.state)


def decide(state: State, command: Mapping[str, Any], ctx: Context) -> list[Any]:
    """The events of one command with every automatic consequence; ``IllegalAction`` if refused,
    the game's one judge's refusal (``legal.refusal``)."""
    refused = legal.refusal(state, command.get("seat"), command, ctx.extra)
    if refused is not None:
        raise refused
    if command.get("type") == "start":
        return _start(state, ctx)
    log = _Log(state)
    _HANDLERS[str(command["type"])](log, command, ctx)
    _fold_leavers(log, ctx)
    _advance(log, ctx)
    return log.events


# --- start ---------------------------------------------------------------------------------------


def _start(state: State, ctx: Context) -> list[Any]:
    """FD-13: everyone buys in (cash: each seat's buy-in from ``ctx.extra["buy_ins"]``; a
    tournament's ``starting_stack`` each), the first button is drawn (CM-19) and hand 1 dealt."""
    settings = state.settings
    seats = range(settings.seats)
    if settings.format == TOURNAMENT:
        stacks = tuple(settings.starting_stack for _ in seats)
    else:
        buy_ins = ctx.extra.get("buy_ins", {})
        stacks = tuple(int(buy_ins.get(seat, buy_ins.get(str(seat), settings.starting_stack))) for seat in seats)
    log = _Log(state)
    log.add(
        TableStarted(
            players=tuple(seats),
            stacks=stacks,
            format=settings.format,
            chip_value=settings.chip_value,
            stake=settings.stake,
            currency=settings.currency,
        )
    )
    drawn = fairness.first_dealer(cards.pack("none"), list(seats), _seed(ctx), ctx.table_id, ctx.client_seed)
    log.add(FirstDealerDrawn(drawn.draws, drawn.dealer))
    _deal(log, ctx, first=True)
    return log.events


def _seed(ctx: Context) -> bytes:
    if ctx.server_seed is None:
        raise ValueError("dealing a hand needs ctx.server_seed (the seed of the next hand)")
    return ctx.server_seed


# --- betting -------------------------------------------------------------------------------------


def _bet(log: _Log, command: Mapping[str, Any], ctx: Context) -> None:
    """FD-4: the betting action of the seat to act, which the judge let through."""
    state = log.state
    seat = int(command["seat"])
    hand = _hand(state)
    assert hand.round is not None
    kind = str(command["type"])
    amount = command.get("amount", 0) if kind in ("bet", "raise") else 0
    after = act(hand.round, Action(kind, amount))  # type: ignore[arg-type]
    i = hand.round.position(seat)
    chips = after.contributed[i] - hand.round.contributed[i]
    log.add(PlayerActed(seat, kind, chips, after.bets[i], timeout=False))


# --- the draw ------------------------------------------------------------------------------------


def _draw(log: _Log, command: Mapping[str, Any], ctx: Context) -> None:
    """FD-7: the draw of the seat to act, which the judge let through."""
    discard = tuple(command.get("discard", []))
    _take(log, ctx, int(command["seat"]), discard, command.get("show"), timeout=False)


def _take(log: _Log, ctx: Context, seat: int, discard: tuple[str, ...], show: Any, *, timeout: bool) -> None:
    """Discard and draw as many from the stock. When the stock runs short, the player takes what
    is left of it, then the discards and folded hands so far are shuffled into a new stock (FD-8,
    CM-18, purpose ``reshuffle-N``): not the cards this player discards now, which join the
    discards only with this draw, but their discards of earlier draws (triple draw) like anyone's."""
    hand = _hand(log.state)
    count = len(discard)
    if count > len(hand.stock):
        number = hand.reshuffles + 1
        pool = hand.discards
        new = tuple(
            fairness.reshuffled(
                pool,
                cards.pack(log.state.settings.wild),
                bytes.fromhex(hand.server_seed),
                ctx.table_id,
                hand.hand_no,
                hand.client_seed,
                f"reshuffle-{number}",
            )
        )
        log.add(StockReshuffled(number, seat, len(new), cards=pool, stock=new))
        hand = _hand(log.state)
    received = hand.stock[:count]
    shown = show if isinstance(show, str) and count > 3 else None
    log.add(CardsDrawn(seat, hand.draw, count, shown, timeout, discarded=discard, received=received))


# --- timeouts, leaving, ending ---------------------------------------------------------------


def _timeout(log: _Log, command: Mapping[str, Any], ctx: Context) -> None:
    """FD-21: check if possible, else fold; in the draw, stand pat."""
    state = log.state
    seat = int(command["seat"])
    hand = _hand(state)
    if hand.phase == DRAWING:
        _take(log, ctx, seat, (), None, timeout=True)
        return
    assert hand.round is not None
    kind: Kind = "check" if betting_legal(hand.round).check else "fold"
    after = act(hand.round, Action(kind))
    i = hand.round.position(seat)
    log.add(PlayerActed(seat, kind, 0, after.bets[i], timeout=True))


def _presence(log: _Log, command: Mapping[str, Any], ctx: Context) -> None:
    """CM-20: sitting out hands the seat to the table's bot, at any moment; sitting in takes it back."""
    for event in presence.decide(log.state.presence, command):
        log.add(event)


def _leave(log: _Log, command: Mapping[str, Any], ctx: Context) -> None:
    """CM-20, FD-13: at a cash table the leaver's hand is folded for the rest of the hand (at each
    of its turns, by ``_fold_leavers``) and their stack is cashed out as soon as it is over; a
    tournament is a match, so the table's bot plays the leaver's seat to its end, and the place
    and prize stay the player's."""
    state = log.state
    seat = int(command["seat"])
    left = presence.leave(state.presence, seat)
    if state.settings.format != TOURNAMENT and not state.leaving[seat]:
        log.add(LeaveRequested(seat))
    log.add(left)


def _fold_leavers(log: _Log, ctx: Context) -> None:
    """CM-20: whenever the hand waits for a cash leaver, it acts for them at once in the same
    command, never waiting for the turn timer or the bot: it folds their betting turns and, since
    a draw has no fold, stands pat in a draw (the next betting turn folds). An all-in leaver has no
    turn left, and their hand goes to the showdown as it stands."""
    while log.state.settings.format != TOURNAMENT:
        waiting = to_act(log.state)
        if not waiting or waiting[0] not in log.state.presence.gone:
            return
        seat = waiting[0]
        hand = _hand(log.state)
        if hand.phase == DRAWING:
            _take(log, ctx, seat, (), None, timeout=False)
            continue
        assert hand.round is not None
        after = act(hand.round, Action("fold"))
        log.add(PlayerActed(seat, "fold", 0, after.bets[hand.round.position(seat)], timeout=False))


def _end_table(log: _Log, command: Mapping[str, Any], ctx: Context) -> None:
    """FD-13: the owner ends a cash table; it ends, and everyone cashes out, when the hand is over."""
    log.add(TableEndRequested())


def _idle_end(log: _Log, command: Mapping[str, Any], ctx: Context) -> None:
    """CM-21: nobody was dealt in for ``idle_minutes``; the table ends as if its owner had ended
    it, at once, since no hand is in play (``_advance``)."""
    log.add(between_hands.IdleEnded())


def _top_up(log: _Log, command: Mapping[str, Any], ctx: Context) -> None:
    """FD-13: a cash player not in the hand buys more chips (``topup.top_up``)."""
    log.add(topup.top_up(log.state, int(command["seat"]), int(command["chips"])))


_HANDLERS: dict[str, Callable[[_Log, Mapping[str, Any], Context], None]] = {
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


# --- what follows by itself ----------------------------------------------------------------------


def _advance(log: _Log, ctx: Context) -> None:
    """Settle a hand whose betting and draws are over, then deal the next one or end the table.
    At most one hand is dealt per command: a new hand always waits for a player. At a table that
    waits for a person dealt in (CM-21), any command may end the wait, deal or end the table."""
    hand = log.state.hand
    if hand is None and log.state.waiting:
        _between_hands(log, ctx)
        return
    if hand is None or hand.phase not in (PASSED, SHOWDOWN):
        return
    if hand.phase == PASSED:
        stakes = tuple(log.state.stake_in_pot(seat) + chips for seat, chips in enumerate(hand.contributed))
        log.add(HandPassed(log.state.pot, stakes))
    else:
        for event in showdown.settle(log.state):
            log.add(event)
    log.add(HandEnded(hand.hand_no, hand.server_seed))
    _between_hands(log, ctx)


def _between_hands(log: _Log, ctx: Context) -> None:
    """Busted tournament players go at once (FD-13), then leavers cash out and busted cash players
    go, then the table ends or the next hand is dealt. A pot left by passed deals (FD-6) stays for
    the next deal; if there is none, it is paid back by the chips each put in
    (``showdown.return_carried``). A player who cannot post the forced bet is not dealt in
    (FD-2, ``dealt_in``)."""
    settings = log.state.settings
    if settings.format == TOURNAMENT:
        # A player with no chips is out (FD-13), even with an ante in a passed deal's pot: it stays
        # there for the hand that wins it (FD-6).
        _bust(log)
    ending = log.state.end_requested or len(dealt_in(log.state)) < 2 or _only_bots_left(log.state, ctx)
    if ending and log.state.pot:
        log.add(showdown.return_carried(log.state))
    for seat in range(settings.seats):
        if log.state.present[seat] and log.state.leaving[seat]:
            log.add(PlayerLeft(seat, log.state.stacks[seat], settings.chip_value, "left"))
    if settings.format != TOURNAMENT:
        _bust(log)
    if ending:
        _end(log, _end_reason(log.state, ctx))
        return
    if settings.format != TOURNAMENT and between_hands.waits(
        between_hands.people_of(ctx.extra), _people_in(log.state, ctx)
    ):
        # CM-21: no person is dealt in, so no hand is dealt; the table waits for one.
        if not log.state.waiting:
            log.add(between_hands.DealPostponed())
        return
    _deal(log, ctx, first=False)


def _people_in(state: State, ctx: Context) -> list[int]:
    """The people's seats dealt into the next hand (``dealt_in``) that are not sitting out (CM-21)."""
    dealt = dealt_in(state)
    return [seat for seat in between_hands.people_of(ctx.extra) if seat in dealt and seat not in state.presence.away]


def _only_bots_left(state: State, ctx: Context) -> bool:
    """A cash table whose people have all gone ends (``ctx.extra["people"]``: the seats people hold),
    rather than bots playing on for nobody."""
    people = ctx.extra.get("people")
    if state.settings.format == TOURNAMENT or people is None:
        return False
    return not any(state.present[seat] and not state.leaving[seat] for seat in people)


def _bust(log: _Log) -> None:
    """Players with no chips: out of a tournament, in order of the chips they came into the hand
    with (fewer first, then by seat), or gone from a cash table (FD-13)."""
    state = log.state
    settings = state.settings
    busted = [seat for seat in range(settings.seats) if state.present[seat] and state.stacks[seat] == 0]
    if settings.format != TOURNAMENT:
        # A cash player whose last chips are in a passed deal's pot waits, dealt out, for that pot:
        # if it is paid back (the table ends), they cash out their chips of it (FD-6, FD-13).
        for seat in (seat for seat in busted if not state.stake_in_pot(seat)):
            log.add(PlayerLeft(seat, 0, settings.chip_value, "no_chips"))
        return
    last = state.last_hand
    busted.sort(key=lambda seat: (last.contributed[seat] if last else 0, seat))
    for seat in busted:
        log.add(PlayerEliminated(seat, sum(log.state.present)))


def _end_reason(state: State, ctx: Context) -> str:
    if state.end_requested:
        return "owner_ended"
    return "no_people_left" if _only_bots_left(state, ctx) else "one_player_left"


def dealt_in(state: State) -> tuple[int, ...]:
    """The seats dealt into the next hand: at the table and not leaving, with at least the forced
    bet at a cash table (FD-2: otherwise the player sits the hand out), with a chip at least in a
    tournament (one short of the forced bet posts what they have, all-in). A player with no chips
    is never dealt in, not even after a passed deal (FD-6) whose pot holds their ante: that ante
    stays in the pot for the hand that wins it."""
    settings = state.settings
    need = settings.forced_bet if settings.format != TOURNAMENT else 1
    return tuple(
        seat
        for seat in range(settings.seats)
        if state.present[seat] and not state.leaving[seat] and state.stacks[seat] >= need
    )


def _end(log: _Log, reason: str) -> None:
    """FD-13: everyone's chips are cashed out; a tournament's last player with chips takes every stake."""
    state = log.state
    settings = state.settings
    if settings.format == TOURNAMENT:
        winners = tuple(seat for seat in range(settings.seats) if state.present[seat] and state.stacks[seat] > 0)
        prize = settings.stake * settings.seats
    else:
        winners, prize = (), 0
    log.add(TableEnded(reason, winners, state.stacks, settings.chip_value, prize))


def _deal(log: _Log, ctx: Context, *, first: bool) -> None:
    """FD-1..FD-3, FD-16: move the button, post the forced bets and deal five cards each."""
    state = log.state
    settings = state.settings
    seats = settings.seats
    playing = dealt_in(state)
    if first:
        button = state.button if state.button in playing else next_seat(state.button, seats, playing)
    else:
        button = next_seat(state.button, seats, playing)
    order = turn_order(left_of(button, seats), seats, playing)
    seed = _seed(ctx)
    log.add(
        HandStarted(
            hand_no=ctx.hand_no,
            button=button,
            players=order,
            commitment=fairness.commitment(seed),
            next_commitment=ctx.next_commitment,
            client_seed=ctx.client_seed,
            server_seed=seed.hex(),
            stacks=state.stacks,
        )
    )
    stacks = log.state.stacks
    if settings.forced_bets == "ante":
        posts = tuple((seat, min(settings.ante, stacks[seat])) for seat in order)
        first_card = order[0]
    else:
        small, big = (button, order[0]) if len(order) == 2 else (order[0], order[1])
        posts = ((small, min(settings.small_blind, stacks[small])), (big, min(settings.big_blind, stacks[big])))
        first_card = small
    log.add(ForcedBetsPosted(settings.forced_bets if settings.forced_bets == "ante" else "blinds", posts, state.pot))
    deck = fairness.shuffled(cards.pack(settings.wild), seed, ctx.table_id, ctx.hand_no, ctx.client_seed, "deck")
    dealing = turn_order(first_card, seats, playing)
    hands: list[tuple[str, ...]] = [()] * seats
    for k, seat in enumerate(dealing):
        hands[seat] = tuple(deck[k + len(dealing) * j] for j in range(5))
    face_up = tuple((hand[0],) if settings.shotgun and hand else () for hand in hands)
    log.add(CardsDealt(face_up=face_up, hands=tuple(hands), stock=tuple(deck[5 * len(dealing) :])))


# --- what the state waits for -----------------------------------------------------------------------


def deadline(state: State, config: Mapping[str, Any]) -> tuple[float, dict[str, Any]] | None:
    """FD-21: the turn timer of the seat to act; at a cash table waiting for a person, the end of
    the wait (CM-21)."""
    if state.waiting and not state.finished:
        return between_hands.idle_deadline(config)
    waiting = to_act(state)
    if not waiting:
        return None
    return float(config["turn_seconds"]), {"type": TIMEOUT, "seat": waiting[0]}


def _hand(state: State) -> Hand:
    if state.hand is None:
        raise IllegalAction(T("No hand is being played."))
    return state.hand


__all__ = ["CASH", "deadline", "dealt_in", "decide", "legal_actions", "to_act"]
