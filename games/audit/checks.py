"""Verifying a finished hand: each check by name, pass / fail / skip, and on failure what differs.

Checks:
- ``commitment``: ``sha256(server_seed)`` is the stored commitment (CM-5), the one the hand's events
  published, and the one the hand before announced as ``next_commitment``; the seed the events
  reveal is the stored seed (CM-10).
- ``client_seed``: the client seed the hand's events recorded is the stored one (CM-6).
- ``deck``: the deck recomputed from the seed (CM-7..CM-9) is a permutation of the game's canonical
  deck (needs the game's ``audit_deck`` hook).
- ``deal``: the cards the events say were dealt are the recomputed deck in the game's deal order
  (the ``audit_deal`` hook).
- ``replay``: every event of the table up to the end of the hand decodes and folds through the
  rules from the very first event, and the state after the hand equals the stored snapshot + tail.
- ``outcome``: the game re-decides the hand's outcome from its events, every other random draw
  recomputed from the seed (the ``audit_outcome`` hook).
- ``hash_chain``: each event of the hand links to the one before and hashes to its recorded hash.
- ``ledger``: each event's ledger transaction holds exactly the postings its settlements imply.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter, defaultdict
from typing import Any

from games import chain, settlement, store
from games.audit.hand import Deck, Hand, deck_of, finished_hand, recorded_deck
from games.engine import fairness, registry
from games.engine.card_names import card_names
from games.engine.cards import named_deck
from games.engine.codec import encode_state
from games.engine.words import N, T, Text
from games.models import Event, Seat, Table
from ledger.models import Posting

PASS, FAIL, SKIP = "pass", "fail", "skip"


@dataclasses.dataclass(frozen=True, slots=True)
class Check:
    name: str
    status: str
    detail: str
    differences: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "detail": self.detail, "differences": list(self.differences)}


@dataclasses.dataclass(frozen=True, slots=True)
class Verification:
    table_id: str
    hand_no: int
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(check.status != FAIL for check in self.checks)

    def as_json(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "hand_no": self.hand_no,
            "ok": self.ok,
            "checks": [check.as_json() for check in self.checks],
        }


def _check(name: str, differences: list[str], passed: str) -> Check:
    if differences:
        return Check(name, FAIL, N("{count} difference", "{count} differences", len(differences)), tuple(differences))
    return Check(name, PASS, passed)


def _where(row: Event) -> str:
    return T("event {seq} ({event})", seq=row.seq, event=row.type)


def check_commitment(hand: Hand) -> Check:
    """``commitment``: the seed hashes to the commitment every event and the hand before published."""
    differences = []
    seed_hex = hand.server_seed.hex()
    digest = hashlib.sha256(hand.server_seed).hexdigest()
    if digest != hand.seed.commitment:
        differences.append(
            T(
                "sha256 of the server seed is {digest}; the stored commitment is {commitment}",
                digest=digest,
                commitment=hand.seed.commitment,
            )
        )
    for row in hand.rows:
        published = row.data.get("commitment")
        if published is not None and published != hand.seed.commitment:
            differences.append(
                T(
                    "{where} published commitment {published}, not {commitment}",
                    where=_where(row),
                    published=published,
                    commitment=hand.seed.commitment,
                )
            )
        revealed = row.data.get("server_seed") or row.secret.get("server_seed")
        if revealed and revealed != seed_hex:
            differences.append(
                T(
                    "{where} records server seed {revealed}, not the stored {seed}",
                    where=_where(row),
                    revealed=revealed,
                    seed=seed_hex,
                )
            )
    if hand.hand_no > 1:
        announced = (
            Event.objects.filter(
                table=hand.table, era=hand.table.era, hand_no=hand.hand_no - 1, data__has_key="next_commitment"
            )
            .order_by("seq")
            .values_list("seq", "data")
            .first()
        )
        if announced and announced[1].get("next_commitment") not in (None, hand.seed.commitment):
            differences.append(
                T(
                    "event {seq} announced {commitment} as this hand's commitment",
                    seq=announced[0],
                    commitment=announced[1]["next_commitment"],
                )
            )
    return _check("commitment", differences, T("sha256(server_seed) = {digest}", digest=digest))


def check_client_seed(hand: Hand) -> Check:
    """``client_seed``: every client seed the events recorded is the hand's."""
    differences = [
        T(
            "{where} recorded client seed {recorded}, the hand's is {seed}",
            where=_where(row),
            recorded=repr(row.data["client_seed"]),
            seed=repr(hand.seed.client_seed),
        )
        for row in hand.rows
        if "client_seed" in row.data and row.data["client_seed"] != hand.seed.client_seed
    ]
    return _check("client_seed", differences, T("client seed {seed}", seed=repr(hand.seed.client_seed)))


def check_deck(hand: Hand, deck: Deck) -> Check:
    """``deck``: the recomputed shuffle is a permutation of the named canonical deck."""
    if deck.name is None:
        return Check(
            "deck",
            SKIP,
            T("the game {game} does not name the deck it shuffles (audit_deck)", game=repr(hand.table.game)),
        )
    if Counter(deck.cards) != Counter(named_deck(deck.name)):
        return Check("deck", FAIL, T("the recomputed deck is not a permutation of the canonical deck"), (deck.name,))
    return Check(
        "deck",
        PASS,
        T(
            "{deck} recomputed from the seeds; on top: {top} …",
            deck=deck_words(deck.name, len(deck.cards)),
            top=card_names(deck.cards[:3], spanish=deck.name.startswith("spanish_")),
        ),
    )


def deck_words(name: str, count: int) -> Text:
    """A deck as players name it ("an English deck of 54 cards"), never by its machine name
    (``english_54``, which stays in the audit's ``deck_name``)."""
    if name.startswith("english_"):
        return T("an English deck of {count} cards", count=count)
    if name.startswith("spanish_"):
        return T("a Spanish deck of {count} cards", count=count)
    if name.startswith("euchre_"):
        return T("a Euchre deck of {count} cards", count=count)
    if name.startswith("reduced_"):
        return T("a reduced pack of {count} cards", count=count)
    return T("a deck of {count} cards", count=count)


def check_deal(hand: Hand, deck: Deck) -> Check:
    """``deal``: the dealt cards are the recomputed deck in the game's deal order (or, without hooks,
    the ``deck`` secret field is the recomputed deck)."""
    if deck.name is None:
        return _deal_skipped(hand)
    if hand.hooks is None:
        # Without hooks the deck was named by a ``deck`` secret field: that field must be the shuffle.
        found = recorded_deck(hand)
        return _recorded_deck_matches(*found, deck.cards) if found else _deal_skipped(hand)
    return _check(
        "deal",
        list(hand.hooks.audit_deal(hand.table.config, deck.cards, hand.decoded)),
        T("the dealt cards are the deck dealt in order"),
    )


def _deal_skipped(hand: Hand) -> Check:
    return Check("deal", SKIP, T("the game {game} does not describe its deal (audit_deal)", game=repr(hand.table.game)))


def _recorded_deck_matches(row: Event, recorded: list[str], deck: list[str]) -> Check:
    differences = [
        T(
            "{where}: deck position {position} is {card}, the seed gives {expected}",
            where=_where(row),
            position=i,
            card=card,
            expected=deck[i] if i < len(deck) else None,
        )
        for i, card in enumerate(recorded)
        if i >= len(deck) or card != deck[i]
    ]
    if len(recorded) != len(deck):
        differences.append(
            T(
                "{where}: {recorded} cards recorded, the deck has {cards}",
                where=_where(row),
                recorded=len(recorded),
                cards=len(deck),
            )
        )
    return _check("deal", differences, T("{where} recorded exactly the recomputed deck", where=_where(row)))


def check_outcome(hand: Hand) -> Check:
    """``outcome``: the game re-decides the recorded outcome, every random draw from the seed."""
    if hand.hooks is None:
        return Check(
            "outcome",
            SKIP,
            T("the game {game} does not re-decide its outcomes (audit_outcome)", game=repr(hand.table.game)),
        )
    streams = fairness.streams(hand.server_seed, str(hand.table.pk), hand.hand_no, hand.seed.client_seed)
    return _check(
        "outcome",
        list(hand.hooks.audit_outcome(hand.table.config, hand.decoded, streams)),
        T("the recorded outcome re-decides the same, every random draw recomputed from the seed"),
    )


def _fold_through(hand: Hand) -> tuple[list[str], Any, dict[int, Any]]:
    """Fold the table from its first event to the end of the hand; the problems met, the state
    after the hand, and the state just before each of the hand's events (by seq)."""
    first, last = hand.rows[0].seq, hand.rows[-1].seq
    state = hand.decider.initial_state(hand.table.config)
    before: dict[int, Any] = {}
    try:
        for step in store.walk(hand.table, hand.decider, upto=last):
            if step.row.seq >= first:
                before[step.row.seq] = step.before
            state = step.after
    except store.ReplayFailed as failure:  # a tampered row may not even decode: name it
        return [_broken(failure, first, before)], state, before
    return [], state, before


def _broken(failure: store.ReplayFailed, first: int, before: dict[int, Any]) -> str:
    """A tampered or broken event, named with the error it raised (its text as Python gave it). One
    of the hand that decoded keeps the state it met in ``before``, for the ledger check."""
    error_text = f"{type(failure.error).__name__}: {failure.error}"
    seq, type_name = failure.seq, failure.type_name
    if failure.applies:
        if seq >= first:
            before[seq] = failure.before
        return T("event {seq} ({event}) does not apply: {error}", seq=seq, event=type_name, error=error_text)
    return T("event {seq} ({event}) does not decode: {error}", seq=seq, event=type_name, error=error_text)


def check_replay(hand: Hand, problems: list[str], state: Any) -> Check:
    """``replay``: the fold from the table's start met no problem and equals snapshot + tail."""
    differences = list(problems)
    if not differences:
        decider = hand.decider
        last = hand.rows[-1].seq
        loaded, _ = store.load(table=hand.table, decider=decider, at=last, cache=False)
        if store.canonical_json(encode_state(loaded)) != store.canonical_json(encode_state(state)):
            differences.append(
                T("the state after event {seq} differs between a replay from scratch and snapshot + tail", seq=last)
            )
    return _check(
        "replay",
        differences,
        T("{events} events of the hand replay through the rules from the table's start", events=len(hand.rows)),
    )


def check_hash_chain(hand: Hand) -> Check:
    """``hash_chain``: the hand's events link to the one before and hash to their recorded hash
    (``chain.chain_breaks``, the same check as the whole table's ``chain.verify_chain``)."""
    first = hand.rows[0]
    previous = (
        Event.objects.filter(table=hand.table, era=hand.table.era, seq=first.seq - 1)
        .values_list("hash", flat=True)
        .first()
        if first.seq > 1
        else store.GENESIS
    )
    rows = [[getattr(row, name) for name in chain.CHAIN_FIELDS] for row in hand.rows]
    by_seq = {row.seq: row for row in hand.rows}
    differences = [
        T("{where}: {problem}", where=_where(by_seq[problem.seq]), problem=problem.what)
        for problem in chain.chain_breaks(hand.table.pk, rows, previous)
    ]
    seqs = [row.seq for row in hand.rows]
    if seqs != list(range(seqs[0], seqs[0] + len(seqs))):
        differences.append(
            T("the hand's events are not consecutive: {first}..{last} with gaps", first=seqs[0], last=seqs[-1])
        )
    return _check(
        "hash_chain",
        differences,
        T("events {first}..{last} chain from {hash}…", first=seqs[0], last=seqs[-1], hash=first.prev_hash[:12]),
    )


def check_ledger(hand: Hand, before: dict[int, Any]) -> Check:
    """``ledger``: each event's transaction holds exactly the postings its settlements imply
    (``settlement.postings_of``, as they were posted)."""
    table = hand.table
    decider = hand.decider
    seats = {seat.number: seat for seat in Seat.objects.filter(table=table)}
    references = {f"event:{table.pk}:{row.seq}": row for row in hand.rows}
    actual: dict[str, Counter] = defaultdict(Counter)
    postings = Posting.objects.filter(transaction__reference__in=list(references)).values_list(
        "transaction__reference", "account__key", "unit", "amount"
    )
    for reference, key, unit, amount in postings:
        actual[reference][(key, unit)] += amount
    differences = []
    for reference, row in references.items():
        expected: Counter = Counter()
        event = hand.events[hand.rows.index(row)]
        if row.seq in before and event is not None:
            for key, unit, amount in settlement.postings_of(table, decider.settlements(before[row.seq], event), seats):
                expected[(key, unit)] += amount
        expected = Counter({k: v for k, v in expected.items() if v})
        recorded = Counter({k: v for k, v in actual.get(reference, Counter()).items() if v})
        if expected != recorded:
            for key in sorted(set(expected) | set(recorded)):
                if expected.get(key, 0) != recorded.get(key, 0):
                    differences.append(
                        T(
                            "{where}: {account} moved {moved} {unit}, the event implies {implied}",
                            where=_where(row),
                            account=key[0],
                            moved=recorded.get(key, 0),
                            unit=key[1],
                            implied=expected.get(key, 0),
                        )
                    )
    return _check(
        "ledger",
        differences,
        N(
            "{count} transaction matches the settlements of the hand's events",
            "{count} transactions match the settlements of the hand's events",
            len(actual),
        ),
    )


class TableWalk:
    """One fold through a table's events, hand after hand, for verifying every hand of a table:
    each hand continues from where the hand before stopped, so the table is replayed once (linear
    in its events) instead of once from the first event per hand (quadratic). Gives for each hand
    what ``_fold_through`` would."""

    def __init__(self, table: Table) -> None:
        self.decider = registry.get(table.game)
        self.state = self.decider.initial_state(table.config)
        self.steps = store.walk(table, self.decider)
        self.at = 0  # the seq of the last event folded
        self.ahead: store.Step | None = None  # a step read past the last hand asked for
        self.broken: store.ReplayFailed | None = None  # the first event that did not replay

    def through(self, hand: Hand) -> tuple[list[str], Any, dict[int, Any]]:
        first, last = hand.rows[0].seq, hand.rows[-1].seq
        if first <= self.at:
            # Hands whose events interleave (only tampering does that): fold this one on its own.
            return _fold_through(hand)
        before: dict[int, Any] = {}
        while self.broken is None:
            step = self.ahead or self._next()
            self.ahead = None
            if step is None:
                break
            if step.row.seq > last:
                self.ahead = step
                break
            if step.row.seq >= first:
                before[step.row.seq] = step.before
            self.state, self.at = step.after, step.row.seq
        if self.broken is not None and self.broken.seq <= last:
            return [_broken(self.broken, first, before)], self.state, before
        return [], self.state, before

    def _next(self) -> store.Step | None:
        try:
            return next(self.steps, None)
        except store.ReplayFailed as failure:
            self.broken = failure
            return None


def verify(hand: Hand, deck: Deck, walk: TableWalk | None = None) -> Verification:
    """Every check of one finished hand; ``deck`` is its ``deck_of``, computed once per audit.
    ``walk``, when verifying a table's hands in order, carries the fold from one hand to the next."""
    problems, state, before = walk.through(hand) if walk is not None else _fold_through(hand)
    checks = (
        check_commitment(hand),
        check_client_seed(hand),
        check_deck(hand, deck),
        check_deal(hand, deck),
        check_replay(hand, problems, state),
        check_outcome(hand),
        check_hash_chain(hand),
        check_ledger(hand, before),
    )
    return Verification(str(hand.table.pk), hand.hand_no, checks)


def verify_hand(table: Table, hand_no: int, walk: TableWalk | None = None) -> Verification:
    """Verify hand ``hand_no`` of ``table`` (404 if never dealt, 409 while in progress). Verifying
    a table's hands in ascending order, pass one ``TableWalk`` of the table to each call."""
    hand = finished_hand(table, hand_no)
    return verify(hand, deck_of(hand), walk)
