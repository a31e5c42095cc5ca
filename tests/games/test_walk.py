"""The one fold over a table's stored events (``games.engine.fold``) and the store's walk over it:
every step carries its row and the state before and after it, from the first event, from a
version, up to a version or over one hand, from a snapshot where asked."""

from __future__ import annotations

import dataclasses
import itertools

import msgspec
import pytest

from games import store
from games.engine.codec import decode_event, encode_event
from games.engine.decider import Context, event_types_by_name, replay
from games.engine.fold import ReplayFailed, fold
from games.models import Event, Snapshot
from tests.games.counter import DECIDER
from tests.games.counter.state import evolve as counter_evolve
from tests.games.play import play
from tests.games.tamper import tamper_event

# --- the fold, pure ---------------------------------------------------------------------------------


def _events() -> tuple[dict, list]:
    """A started counter table's config and its first events, decided without a database."""
    config = DECIDER.configure(2, {})
    state = DECIDER.initial_state(config)
    ctx = Context(table_id="t", hand_no=1, server_seed=b"\x01" * 32, next_commitment="c" * 64)
    events = []
    for command in (
        {"type": "start"},
        {"type": "add", "seat": 0, "amount": 3},
        {"type": "add", "seat": 1, "amount": 2},
    ):
        for event in DECIDER.decide(state, command, ctx):
            state = DECIDER.evolve(state, event)
            events.append(event)
    return config, events


def _rows(events: list) -> list[store.Recorded]:
    """The events as stored rows."""
    rows = []
    for seq, event in enumerate(events, start=1):
        type_name, data, secret = encode_event(event)
        rows.append(store.Recorded(seq, "t", seq, type_name, data, secret, "system", 1, None, "", f"hash{seq}"))
    return rows


def test_fold_steps_chain_the_state_before_each_event_to_the_one_after():
    config, events = _events()
    initial = DECIDER.initial_state(config)
    steps = list(fold(DECIDER, initial, _rows(events)))
    assert [step.row.seq for step in steps] == list(range(1, len(events) + 1))
    assert [step.event for step in steps] == events
    assert steps[0].before == initial
    for earlier, later in itertools.pairwise(steps):
        assert later.before == earlier.after
    for n, step in enumerate(steps, start=1):
        assert step.after == replay(DECIDER, config, events[:n])
    assert (steps[-1].row.type, steps[-1].row.actor, steps[-1].row.hand_no, steps[-1].row.hash) == (
        "Added",
        "system",
        1,
        "hash4",
    )


def test_fold_names_the_event_that_does_not_decode_with_the_state_it_met():
    config, events = _events()
    rows = _rows(events)
    rows[2] = dataclasses.replace(rows[2], data={"no such field": 1}, secret={})
    steps = fold(DECIDER, DECIDER.initial_state(config), rows)
    assert [step.row.seq for step in (next(steps), next(steps))] == [1, 2]
    with pytest.raises(ReplayFailed, match=r"event 3 \(Added\) does not replay: ValidationError") as failed:
        next(steps)
    assert (failed.value.seq, failed.value.type_name, failed.value.applies) == (3, "Added", False)
    assert failed.value.before == replay(DECIDER, config, events[:2])


def _refusing_fold(event, state):
    """The counter's fold, refusing every ``Added``: a stored event that no longer applies."""
    if type(event).__name__ == "Added":
        raise ValueError("not now")
    return counter_evolve(event, state)


def test_fold_names_the_event_that_does_not_apply_with_the_event_and_the_state_it_met():
    config, events = _events()
    refusing = dataclasses.replace(DECIDER, fold=_refusing_fold)
    with pytest.raises(ReplayFailed, match=r"event 3 \(Added\) does not replay: ValueError: not now") as failed:
        list(fold(refusing, refusing.initial_state(config), _rows(events)))
    assert failed.value.applies and failed.value.event == events[2]
    assert failed.value.before == replay(DECIDER, config, events[:2])


# --- the store's walk ---------------------------------------------------------------------------------


def add(table, seat, amount=3):
    return play(table, {"type": "add", "seat": seat, "amount": amount}, actor=f"user:{seat}")


def _played(table, adds=6):
    play(table, {"type": "start"})
    for turn in range(adds):
        add(table, turn % 2, 1)


def _replayed(table, game, upto):
    types = event_types_by_name(game)
    stored = Event.objects.filter(table=table, seq__lte=upto).order_by("seq")
    return replay(game, table.config, [decode_event(types, e.type, e.data, e.secret) for e in stored])


def test_walk_from_the_first_event_gives_every_stored_row_and_the_replayed_states(
    counter_table, counter_game, django_assert_num_queries
):
    _played(counter_table)
    with django_assert_num_queries(1):  # one ordered query of the rows, iterated
        steps = list(store.walk(counter_table, counter_game))
    stored = list(Event.objects.filter(table=counter_table).order_by("seq"))
    assert [step.row.seq for step in steps] == [row.seq for row in stored] == list(range(1, counter_table.version + 1))
    for step, row in zip(steps, stored):
        assert step.row == store.Recorded(*(getattr(row, name) for name in store.RECORDED_FIELDS))
        assert step.before == _replayed(counter_table, counter_game, row.seq - 1)
        assert step.after == _replayed(counter_table, counter_game, row.seq)
    assert steps[-1].after == store.replay_from_scratch(counter_table, counter_game)[0]


@pytest.mark.parametrize("snapshot", [False, True])
def test_walk_from_a_version_up_to_a_version_yields_that_range_with_the_same_states(
    counter_table, counter_game, settings, snapshot
):
    settings.SNAPSHOT_EVERY = 3
    _played(counter_table)
    assert Snapshot.objects.filter(table=counter_table, version__lte=5).exists()
    everything = {step.row.seq: step for step in store.walk(counter_table, counter_game)}
    steps = list(store.walk(counter_table, counter_game, after=5, upto=7, snapshot=snapshot))
    assert [step.row.seq for step in steps] == [6, 7]
    for step in steps:
        assert (step.before, step.event, step.after) == (
            everything[step.row.seq].before,
            everything[step.row.seq].event,
            everything[step.row.seq].after,
        )
    assert [step.row.seq for step in store.walk(counter_table, counter_game, after=counter_table.version)] == []


def test_walk_over_one_hand_yields_exactly_its_events(counter_table, counter_game):
    counter_table.config = {**counter_table.config, "hands": 2, "target": 5}
    counter_table.save(update_fields=["config"])
    play(counter_table, {"type": "start"})
    while Event.objects.filter(table=counter_table, hand_no=2).count() < 3:
        add(counter_table, Event.objects.filter(table=counter_table).count() % 2, 1)
    everything = {step.row.seq: step for step in store.walk(counter_table, counter_game)}
    hand = list(Event.objects.filter(table=counter_table, hand_no=2).order_by("seq").values_list("seq", flat=True))
    steps = list(store.walk(counter_table, counter_game, hand_no=2, snapshot=True))
    assert [step.row.seq for step in steps] == hand and {step.row.hand_no for step in steps} == {2}
    assert all(step.after == everything[step.row.seq].after for step in steps)
    assert steps[0].before == everything[hand[0] - 1].after
    assert list(store.walk(counter_table, counter_game, hand_no=9)) == []


def test_walk_from_a_snapshot_reads_only_the_events_after_it(
    counter_table, counter_game, settings, django_assert_num_queries
):
    """The snapshot stands for the events before it: a broken event there is not read again,
    while a walk from the first event names it."""
    settings.SNAPSHOT_EVERY = 3
    _played(counter_table)
    snapshot = Snapshot.objects.filter(table=counter_table, version__lte=6).order_by("-version").first()
    assert snapshot is not None and snapshot.version > 3
    tamper_event(counter_table.pk, 3, data={"no such field": 1})
    with django_assert_num_queries(2):  # the snapshot, then the rows after it
        steps = list(store.walk(counter_table, counter_game, after=6, snapshot=True))
    assert [step.row.seq for step in steps] == list(range(7, counter_table.version + 1))
    with pytest.raises(store.ReplayFailed, match=r"event 3 \(Added\)"):
        list(store.walk(counter_table, counter_game, after=6))


def test_load_shares_the_fold_and_still_raises_what_the_game_raised(counter_table, counter_game):
    _played(counter_table, adds=2)
    assert store.load(table=counter_table, decider=counter_game, cache=False)[0] == _replayed(
        counter_table, counter_game, counter_table.version
    )
    tamper_event(counter_table.pk, 3, data={"no such field": 1})
    with pytest.raises(msgspec.ValidationError):
        store.load(table=counter_table, decider=counter_game, cache=False)
