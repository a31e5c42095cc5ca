"""Hidden information in Five-Card Draw (FD-19): seeded random hands across the variants, with
every seat's view of the table and of the events, and a spectator's, checked after every action
against the truth decoded from the stored events with their secret parts.

A seat may see its own cards (dealt, drawn and discarded), everyone's face-up cards (the shotgun
card, FD-16; an ace shown to draw four or five, FD-7), how many each player drew, and the hands
shown at a showdown (FD-9). Never another player's hand unless shown: not a folded hand, not a
hand that won unshown, not a discard, not the stock (FD-8's reshuffles included), and never the
server seed of a hand before it ends (it would give every card, CM-10). A spectator sees only
what is public. Everything else is for the audit, once the hand is over.

Two runs, each over every variant (FD-2 antes and blinds, FD-4's betting structures, FD-7's ace
rules, FD-8's reshuffles, FD-13 cash and tournament, FD-14 triple draw, FD-15 wild jokers, FD-16
shotgun, FD-17 high-low), with a cash player leaving mid-hand and the owner ending the table:

- about thirty hands through HTTP (``long`` too, about forty seconds: each table's people GET the
  table and their new events after every command, as does a spectator; each answer to an action
  is checked for its sender); ``make test`` checks hidden information without them, in the pure
  engine's random playouts (tests/rules) and the HTTP cash table (test_five_card_draw.py);
- a thousand hands (``long``: CI and LONG_TESTS=1) through the service layer the endpoints answer
  with: ``play.act`` and ``play_bot_turn``, ``selectors.table_view`` for every person and a
  spectator after every command, ``selectors.events_view`` for each once a hand. Through HTTP a
  thousand hands would take far more than the few minutes two cores have; this way they take
  about two and a half.

Bots' seats are not observed: their view goes to nobody but the bot. After each run the ledger
reconciles (FD-12: the table chip accounts against the replayed states included) and every hand
verifies.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import audit, play, selectors, store
from games.engine import registry
from games.engine.codec import decode_event, encode_event
from games.engine.decider import event_types_by_name
from games.models import Event, HandSeed, Table
from games.rules.five_card_draw import DECIDER
from games.rules.five_card_draw.events import (
    CardsDealt,
    CardsDrawn,
    FirstDealerDrawn,
    PlayerActed,
    PotsAwarded,
    ShowdownHeld,
)
from ledger import services as ledger
from tests.api.draw import choose, passive, repeat_deals
from tests.api.play import fund, person

pytestmark = pytest.mark.django_db(transaction=True)

FCD = "five-card-draw"
TYPES = event_types_by_name(DECIDER)
# A card code standing alone (not inside a word, a hex seed or a UUID): rank and suit, or a joker.
CARD = re.compile(r"(?<![0-9A-Za-z])(?:[2-9TJQKA][cdhs]|X[12])(?![0-9A-Za-z])")


class Leak(AssertionError):
    """Something a seat (or a spectator) must not see was in an answer it got."""


# --- the truth: what was dealt, and what each seat may see of it ----------------------------------


def visible(event: Any, seat: int | None) -> set[str]:
    """The cards ``event`` lets ``seat`` (``None``: a spectator) see (FD-19)."""
    if isinstance(event, FirstDealerDrawn):  # CM-19: the first dealer's draw is public
        return {card for _, card in event.draws}
    if isinstance(event, CardsDealt):
        cards = {card for up in event.face_up for card in up}  # FD-16
        if seat is not None and seat < len(event.hands):
            cards.update(event.hands[seat])
        return cards
    if isinstance(event, CardsDrawn):
        cards = {event.shown_ace} if event.shown_ace else set()  # FD-7
        if seat == event.seat:
            cards.update(event.discarded + event.received)
        return cards
    if isinstance(event, ShowdownHeld):  # FD-9
        return {card for shown in event.hands for card in shown.cards}
    return set()


def secret_cards(event: Any) -> set[str]:
    """Every card in the event's secret fields (hands, stock, discards, draws, reshuffles)."""
    return set(CARD.findall(json.dumps(encode_event(event)[2])))


class Truth:
    """One table's events decoded with their secret parts, read as the table moves on."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.at: dict[int, Any] = {}
        self.by_hand: dict[int, list[tuple[int, Any]]] = defaultdict(list)
        self.last = 0
        self.folded: dict[int, set[int]] = defaultdict(set)
        self._hidden: dict[tuple[int, int], set[str]] = {}
        self._allowed: dict[tuple[int | None, int, int], set[str]] = {}
        self._seeds: set[str] | None = None

    def refresh(self) -> None:
        rows = Event.objects.filter(table_id=self.table_id, seq__gt=self.last).order_by("seq")
        for seq, type_name, data, secret, hand_no in rows.values_list("seq", "type", "data", "secret", "hand_no"):
            event = decode_event(TYPES, type_name, data, secret)
            if isinstance(event, PlayerActed) and event.action == "fold":
                self.folded[hand_no].add(event.seat)
            if isinstance(event, ShowdownHeld):
                # FD-9, FD-19: only the hands still in are shown, never a folded one.
                shown = {hand.seat for hand in event.hands}
                assert len(shown) >= 2 and not shown & self.folded[hand_no], (hand_no, shown, self.folded[hand_no])
            if type_name in ("HandStarted", "HandEnded", "TableEnded"):
                self._seeds = None  # a seed made or revealed
            self.at[seq] = event
            self.by_hand[hand_no].append((seq, event))
            self.last = seq

    def allowed(self, seat: int | None, hand_no: int, upto: int) -> set[str]:
        """The cards of hand ``hand_no`` that ``seat`` may have seen by event ``upto``."""
        events = self.by_hand.get(hand_no, [])
        upto = min(upto, events[-1][0]) if events else 0
        key = (seat, hand_no, upto)
        if key not in self._allowed:
            cards: set[str] = set()
            for seq, event in events:
                if seq > upto:
                    break
                cards |= visible(event, seat)
            self._allowed[key] = cards
        return self._allowed[key]

    def hidden(self, hand_no: int) -> set[str]:
        """Every card of hand ``hand_no`` in a secret field so far."""
        key = (hand_no, self.last)
        if key not in self._hidden:
            self._hidden[key] = {card for _, event in self.by_hand.get(hand_no, ()) for card in secret_cards(event)}
        return self._hidden[key]

    def unrevealed_seeds(self) -> set[str]:
        """The server seeds of hands not over yet (and of the hands to come, made in advance)."""
        if self._seeds is None:
            rows = HandSeed.objects.filter(table_id=self.table_id, revealed_at__isnull=True)
            self._seeds = {bytes(seed).hex() for seed in rows.values_list("server_seed", flat=True)}
        return self._seeds


def cards_in(value: Any) -> set[str]:
    """Every card code in a JSON value, wherever it is (keys and values, at any depth)."""
    return set(CARD.findall(value if isinstance(value, str) else json.dumps(value, default=str)))


# --- the checks ------------------------------------------------------------------------------------------


@dataclass
class Counts:
    """What the checks looked at, so a run shows it covered what it says."""

    views: int = 0
    events: int = 0
    hidden_cards_kept: int = 0
    shown_cards: int = 0
    unshown_wins: int = 0
    tables: int = 0
    hands: int = 0
    kinds: set[str] = field(default_factory=set)


def leak_if(seen: set[str], allowed: set[str], truth: Truth, hand_no: int, what: str) -> None:
    leaked = seen - allowed
    if leaked:
        hidden = leaked & truth.hidden(hand_no)
        raise Leak(f"{what} shows {sorted(leaked)} (hidden cards of hand {hand_no}: {sorted(hidden)})")


def check_view(truth: Truth, seat: int | None, view: dict[str, Any], state: Any, counts: Counts) -> None:
    """A table view: nothing beyond what the seat may have seen of the current hand (and of the last
    one, which the view recalls), its own cards exactly, the face-up cards exactly."""
    counts.views += 1
    who = f"seat {seat}" if seat is not None else "a spectator"
    public = view.get("state")
    if public is None:
        check_seeds(truth, view, f"{who}'s view")
        assert not cards_in(view)
        return
    version = view["version"]
    current = public["hand_no"]
    rest = json.dumps({**view, "state": {k: v for k, v in public.items() if k != "last_hand"}}, default=str)
    last_hand = json.dumps(public.get("last_hand"))
    check_seeds(truth, rest + last_hand, f"{who}'s view")
    allowed = truth.allowed(seat, current, version)
    leak_if(cards_in(rest), allowed, truth, current, f"{who}'s view at version {version}")
    counts.hidden_cards_kept += len(truth.hidden(current) - allowed)
    if public.get("last_hand"):
        last = public["last_hand"]["hand_no"]
        leak_if(cards_in(last_hand), truth.allowed(seat, last, version), truth, last, f"{who}'s last hand")
    hand = state.hand
    if hand is None or public["hand"] is None:
        assert hand is None and public["hand"] is None
        return
    own = list(hand.cards[seat]) if seat is not None and seat in hand.players else []
    assert public["hand"]["your_cards"] == own, (who, public["hand"]["your_cards"], own)
    for player in public["players"]:
        if player["seat"] in hand.players:
            assert player["face_up"] == list(hand.face_up[player["seat"]]), (who, player)


def check_events(truth: Truth, seat: int | None, items: list[dict[str, Any]], counts: Counts) -> None:
    """Events: each shows only what the seat may have seen by then; no secret field of another seat's."""
    who = f"seat {seat}" if seat is not None else "a spectator"
    check_seeds(truth, items, f"{who}'s events")
    for item in items:
        counts.events += 1
        event = truth.at[item["seq"]]
        data = item["data"]
        what = f"{who}'s event {item['seq']} {item['type']}"
        leak_if(cards_in(data), truth.allowed(seat, item["hand_no"], item["seq"]), truth, item["hand_no"], what)
        secret = set(encode_event(event)[2])
        own = {"discarded", "received"} if isinstance(event, CardsDrawn) and event.seat == seat else set()
        if secret & set(data) - own:
            raise Leak(f"{what} has the secret field(s) {sorted(secret & set(data) - own)}")
        if isinstance(event, CardsDealt):
            mine = list(event.hands[seat]) if seat is not None else []
            assert data.get("your_cards", []) == mine, (what, data)
        if isinstance(event, ShowdownHeld):
            counts.shown_cards += sum(len(shown.cards) for shown in event.hands)
        if isinstance(event, PotsAwarded) and any(not share.shown for share in event.shares):
            counts.unshown_wins += 1
        counts.kinds.add(item["type"])


def check_seeds(truth: Truth, answer: Any, who: str) -> None:
    """No server seed of a hand not over yet: it would give away every card of it (CM-10)."""
    text = answer if isinstance(answer, str) else json.dumps(answer, default=str)
    for seed in truth.unrevealed_seeds():
        if seed in text:
            raise Leak(f"{who} got the server seed of a hand not over yet")


# --- the tables ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """A table to play: its options, seats, which seats are bots, and its money."""

    name: str
    seats: int
    options: dict[str, Any]
    bots: tuple[int, ...] = ()
    stake: dict[str, Any] | None = None

    @property
    def cash(self) -> bool:
        return self.options.get("format", "cash") == "cash"


SPECS = (
    Spec("standard_antes", 5, {"ante_amount": 2, "opening": "jacks_or_better"}, bots=(4,)),
    Spec(
        "blinds_pot_limit",
        4,
        {"forced_bets": "blinds", "betting": "pot_limit"},
        stake={"currency": "MXN", "chip_value": "0.50"},
    ),
    # Six players drawing up to five cards three times: the stock often runs out (FD-8).
    Spec("triple_draw", 6, {"variant": "triple_draw_27", "betting": "fixed_limit"}, bots=(5,)),
    Spec("shotgun_aces", 4, {"shotgun": True, "ace_rule": "five_with_ace", "opening": "anything_opens"}),
    Spec("high_low", 5, {"high_low": True, "forced_bets": "blinds"}, bots=(2,)),
    Spec("wild_jokers", 6, {"wild": "jokers", "ace_rule": "four_with_ace"}),
    Spec(
        "tournament",
        3,
        {"format": "tournament", "starting_stack": 30, "forced_bets": "blinds", "shotgun": True},
        bots=(2,),
        stake={"currency": "MXN", "amount": "5.00"},
    ),
)
CASH_HANDS = 25  # a cash table's owner ends it after this many hands
LEAVER = 1  # the person who asks to leave in the middle of hand 3 at a cash table


@pytest.fixture
def repeatable(monkeypatch):
    repeat_deals(monkeypatch, "fcd leaks")


class Played:
    """One table being played: its people (by seat), bots, owner, and what each observer has read."""

    def __init__(
        self, spec: Spec, number: int, staff: APIClient, rng: random.Random, *, end_after: int = CASH_HANDS
    ) -> None:
        self.spec = spec
        self.end_after = end_after
        self.rng = rng
        self.people = {seat: person(f"t{number}s{seat}") for seat in range(spec.seats) if seat not in spec.bots}
        self.owner = self.people[0]
        self.spectator = person(f"t{number}watcher")
        created = self.owner.post(
            "/api/v1/tables/",
            {"game": FCD, "seats": spec.seats, "options": spec.options, "stake": spec.stake},
            format="json",
        )
        assert created.status_code == 201, created.json()
        self.id = created.json()["id"]
        for seat in range(spec.seats):
            if seat in spec.bots:
                added = self.owner.post(f"/api/v1/tables/{self.id}/bots/", {"seat": seat}, format="json")
                assert added.status_code == 201, added.json()
                continue
            client = self.people[seat]
            if spec.stake:
                fund(staff, client, "MXN", "500.00")
            body: dict[str, Any] = {"seat": seat}
            if spec.cash:
                body["chips"] = rng.randint(40, 200)
            joined = client.post(f"/api/v1/tables/{self.id}/join/", body, format="json")
            assert joined.status_code == 200, joined.json()
        self.truth = Truth(self.id)
        self.read = defaultdict(int)  # observer -> the last event seq read
        self.left = False
        self.ending = False

    @property
    def observers(self) -> list[int | None]:
        """The people's seats and a spectator (a bot's view goes to nobody but the bot)."""
        return [*self.people, None]

    def action_for(self, seat: int, view: dict[str, Any]) -> dict[str, Any]:
        player = passive if (self.left and seat == LEAVER) else choose
        return player(view, self.rng)

    def should_leave(self, state: Any) -> bool:
        """A cash table's LEAVER asks to leave in the middle of hand 3 (or the last before the end),
        if still at the table."""
        return (
            self.spec.cash
            and not self.left
            and state.hand is not None
            and state.hand_no >= min(3, self.end_after - 1)
            and LEAVER in self.people
            and state.present[LEAVER]
        )

    def should_end(self, state: Any) -> bool:
        return self.spec.cash and not self.ending and state.hand_no >= self.end_after


def settle_and_verify(tables: list[Played], counts: Counts) -> None:
    """FD-12: the books balance (table chip accounts against the replayed states included); every
    hand of every table verifies."""
    report = ledger.reconcile()
    assert report.ok, report.lines()
    for played in tables:
        table = Table.objects.get(pk=played.id)
        assert table.status == Table.Status.FINISHED
        walk = audit.TableWalk(table)
        numbers = sorted(audit.finished_hand_numbers(table))
        assert numbers == list(range(1, len(numbers) + 1))
        for hand_no in numbers:
            verified = audit.verify_hand(table, hand_no, walk)
            assert verified.ok, verified.as_json()
        counts.hands += len(numbers)


def assert_covered(counts: Counts, hands: int) -> None:
    """The run saw what it claims: hidden cards to keep, shows, and the events that carry cards."""
    assert counts.hands >= hands
    assert counts.hidden_cards_kept > 0 and counts.shown_cards > 0 and counts.unshown_wins > 0
    wanted = {"CardsDrawn", "ShowdownHeld", "StockReshuffled", "HandPassed", "PlayerLeft", "PlayerEliminated"}
    assert wanted <= counts.kinds, wanted - counts.kinds


# --- through the service layer -----------------------------------------------------------------------------


def observe_services(
    played: Played, table: Table, state: Any, counts: Counts, *, events: bool
) -> dict[int | None, dict[str, Any]]:
    """Every seat's and a spectator's view of ``table`` (at ``state``), as the table endpoint builds
    it; with ``events``, each one's new events as the events endpoint builds them (an event's view
    never changes once recorded, and each is checked against what its reader could see at its own
    seq, so reading them once a hand is the same check as after every action)."""
    played.truth.refresh()
    upcoming = (
        HandSeed.objects.filter(table=table, hand_no=DECIDER.hand_no(state) + 1)
        .values_list("commitment", flat=True)
        .first()
    )
    views = {}
    for seat in played.observers:
        view = selectors.table_view(table, seat, state=state, next_commitment=upcoming)
        check_view(played.truth, seat, view, state, counts)
        if events:
            items = selectors.events_view(table, seat, after=played.read[seat])
            check_events(played.truth, seat, items, counts)
            if items:
                played.read[seat] = items[-1]["seq"]
        views[seat] = view
    return views


def play_services(played: Played, counts: Counts) -> None:
    """Play the table to its end through ``services``: people act with random legal actions,
    bots through ``play_bot_turn``; everything observed after each command, and each answer to
    an action checked for its sender."""
    owner = played.owner.user
    play.start_table(table_id=played.id, user=owner)
    hand_no = 0
    sent: tuple[int, dict[str, Any]] | None = None  # the last action's sender and its answer
    for _ in range(50_000):
        table = Table.objects.select_related("owner").get(pk=played.id)
        state, version = store.load(table=table, decider=DECIDER)
        finished = table.status == Table.Status.FINISHED
        views = observe_services(played, table, state, counts, events=finished or state.hand_no != hand_no)
        if sent is not None:
            # The answer to the action, checked once the truth has its events (nothing came after).
            assert sent[1]["version"] == version
            check_events(played.truth, sent[0], sent[1]["events"], counts)
            check_view(played.truth, sent[0], sent[1]["table"], state, counts)
            sent = None
        hand_no = state.hand_no
        if finished:
            return
        if played.should_leave(state):
            play.leave_table(table_id=played.id, user=played.people[LEAVER].user)
            played.left = True
            continue
        if played.should_end(state):
            play.act(table_id=played.id, user=owner, action={"type": "end_table"}, expected_version=version)
            played.ending = True
            continue
        seat = DECIDER.to_act(state)[0]
        if seat in played.spec.bots:
            assert play.play_bot_turn(table_id=played.id, expected_version=version) is not None
            continue
        action = played.action_for(seat, views[seat])
        _, answer, _ = play.act(
            table_id=played.id, user=played.people[seat].user, action=action, expected_version=version
        )
        sent = (seat, answer)
    pytest.fail(f"table {played.spec.name} did not end")


def run_services(hands: int, seed: int) -> Counts:
    counts = Counts()
    staff = person("sam", staff=True)
    rng = random.Random(seed)
    tables: list[Played] = []
    played_hands = 0
    for number, spec in enumerate(itertools.cycle(SPECS)):
        if played_hands >= hands:
            break
        played = Played(spec, number, staff, rng)
        play_services(played, counts)
        tables.append(played)
        played_hands += hands_of(played)
    counts.tables = len(tables)
    settle_and_verify(tables, counts)
    return counts


def hands_of(played: Played) -> int:
    return Event.objects.filter(table_id=played.id, type="HandStarted").count()


# --- through HTTP ------------------------------------------------------------------------------------------


def observe_http(played: Played, counts: Counts) -> dict[int | None, dict[str, Any]]:
    """Every seat's and a spectator's GET of the table and of its new events."""
    played.truth.refresh()
    state, version = store.load(table=Table.objects.get(pk=played.id), decider=DECIDER)
    views = {}
    for seat in played.observers:
        client = played.people[seat] if seat is not None else played.spectator
        view = client.get(f"/api/v1/tables/{played.id}/").json()
        assert view["version"] == version and view["your_seat"] == seat
        check_view(played.truth, seat, view, state, counts)
        answer = client.get(f"/api/v1/tables/{played.id}/events/?after={played.read[seat]}").json()
        check_events(played.truth, seat, answer["results"], counts)
        if answer["results"]:
            played.read[seat] = answer["results"][-1]["seq"]
        views[seat] = view
    return views


def play_http(played: Played, task_queue, counts: Counts) -> None:
    """Play the table to its end through HTTP: people post random legal actions with
    ``expected_version``, bots act through the task queue one task at a time; everyone observes
    after each command, and each answer to an action is checked for its sender."""
    started = played.owner.post(f"/api/v1/tables/{played.id}/start/")
    assert started.status_code == 200, started.json()
    played.truth.refresh()
    check_view(
        played.truth, 0, started.json(), store.load(table=Table.objects.get(pk=played.id), decider=DECIDER)[0], counts
    )
    for _ in range(50_000):
        if run_one_bot_task(task_queue):
            observe_http(played, counts)
            continue
        views = observe_http(played, counts)
        if views[None]["status"] == "finished":
            return
        state = store.load(table=Table.objects.get(pk=played.id), decider=DECIDER)[0]
        version = views[None]["version"]
        if played.should_leave(state):
            left = played.people[LEAVER].post(f"/api/v1/tables/{played.id}/leave/")
            assert left.status_code == 200, left.json()
            played.left = True
            continue
        if played.should_end(state):
            body = {"action": {"type": "end_table"}, "expected_version": version}
            ended = played.owner.post(f"/api/v1/tables/{played.id}/actions/", body, format="json")
            assert ended.status_code == 200, ended.json()
            played.ending = True
            continue
        seat = views[None]["to_act"][0]
        assert seat not in played.spec.bots, "a bot's turn with no task queued"
        action = played.action_for(seat, views[seat])
        body = {"action": action, "expected_version": version}
        answer = played.people[seat].post(f"/api/v1/tables/{played.id}/actions/", body, format="json")
        assert answer.status_code == 200, (action, answer.json())
        played.truth.refresh()
        after = store.load(table=Table.objects.get(pk=played.id), decider=DECIDER)[0]
        check_events(played.truth, seat, answer.json()["events"], counts)
        check_view(played.truth, seat, answer.json()["table"], after, counts)
    pytest.fail(f"table {played.spec.name} did not end")


def run_one_bot_task(task_queue) -> bool:
    """Run the next queued bot turn, if any (deadline tasks are dropped: their time has not come)."""
    while task_queue.published:
        name, args, _, headers = task_queue.published.pop(0)
        if name.endswith("play_bot"):
            task_queue._run(name, args, headers)
            return True
    return False


def run_http(seed: int, task_queue, *, hands_per_table: int) -> Counts:
    """One table of each spec, a cash table ended by its owner after ``hands_per_table`` hands."""
    counts = Counts()
    staff = person("sam", staff=True)
    rng = random.Random(seed)
    tables = []
    for number, spec in enumerate(SPECS):
        played = Played(spec, number, staff, rng, end_after=hands_per_table)
        play_http(played, task_queue, counts)
        tables.append(played)
    counts.tables = len(tables)
    settle_and_verify(tables, counts)
    return counts


# --- the tests ----------------------------------------------------------------------------------------------


@pytest.mark.long
def test_fd_19_thirty_hands_through_http_show_no_seat_or_spectator_a_hidden_card(repeatable, task_queue):
    """FD-19 through every answer a client gets: the table view, the events endpoint and the
    answer to an action, for every seat and a spectator, after every command, in every variant
    (FD-14..FD-17), with a player leaving a cash table (FD-13) and FD-8's reshuffles."""
    counts = run_http(seed=19, task_queue=task_queue, hands_per_table=5)
    assert counts.tables == len(SPECS)
    assert_covered(counts, 25)


@pytest.mark.long
@pytest.mark.timeout(900)
def test_fd_19_a_thousand_seeded_hands_show_no_seat_or_spectator_a_hidden_card(repeatable):
    """FD-19 over a thousand hands (FD-2 antes and blinds, FD-4 every betting structure, FD-7 the
    ace rules, FD-8 reshuffles, FD-13 cash and tournament, FD-14 triple draw, FD-15 wild jokers,
    FD-16 shotgun, FD-17 high-low) through the service layer the endpoints answer with; then the
    ledger reconciles and every hand verifies (FD-12)."""
    counts = run_services(1000, seed=1000)
    assert_covered(counts, 1000)


def leak_discards(honest_view, honest_event):
    """Another seat's discards in the events (FD-7)."""

    def event(event: Any, seat: int | None) -> dict[str, Any]:
        data = honest_event(event, seat)
        if isinstance(event, CardsDrawn):
            data["discarded"] = list(event.discarded)
        return data

    return honest_view, event


def leak_stock(honest_view, honest_event):
    """The top card of the stock in the table view."""

    def view(state: Any, seat: int | None) -> dict[str, Any]:
        data = honest_view(state, seat)
        if state.hand is not None and data["hand"] is not None:
            data["hand"]["next"] = state.hand.stock[:1]
        return data

    return view, honest_event


def leak_folded(honest_view, honest_event):
    """A folded player's cards in the table view (FD-19)."""

    def view(state: Any, seat: int | None) -> dict[str, Any]:
        data = honest_view(state, seat)
        for player in data["players"]:
            if player.get("folded"):
                player["cards"] = list(state.hand.cards[player["seat"]])
        return data

    return view, honest_event


@pytest.mark.parametrize("leak", [leak_discards, leak_stock, leak_folded])
def test_the_checks_find_a_leak(leak, repeatable):
    """The checks have teeth: a game view that shows another seat's discard, a stock card or a
    folded hand is caught."""
    honest = registry.get(DECIDER.slug)
    view, event = leak(honest.view, honest.view_event)
    # A game is one value: the leaking copy is registered in its place for this test only.
    registry.register(replace(honest, view=view, view_event=event))
    try:
        with pytest.raises(Leak, match=r"shows \[|secret field"):
            run_services(3, seed=7)
    finally:
        registry.register(honest)
