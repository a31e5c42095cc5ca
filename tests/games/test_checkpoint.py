"""The chain anchored outside the database: a checkpoint of chain heads, taken before an insider
rewrites an event and recomputes the chain after it, names the table that every internal check
still passes."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from games import chain, store
from games.models import Event
from tests.games.play import make_table, play
from tests.games.tamper import tamper_event


def rewrite_with_recomputed_chain(table, seq: int, **changes) -> None:
    """Change event ``seq`` and recompute its hash and every hash after it, as an insider who can
    switch the triggers off would: the chain is intact again afterwards."""
    tamper_event(table.pk, seq, **changes)
    previous = Event.objects.get(table=table, seq=seq - 1).hash if seq > 1 else store.GENESIS
    for event in Event.objects.filter(table=table, seq__gte=seq).order_by("seq"):
        digest = store.event_hash(
            previous,
            table.pk,
            event.seq,
            event.type,
            event.hand_no,
            event.actor,
            event.data,
            event.secret,
            event.created_at,
        )
        tamper_event(table.pk, event.seq, prev_hash=previous, hash=digest)
        previous = digest


def test_a_rewritten_chain_passes_the_internal_checks_but_not_the_checkpoint(counter_game, db, tmp_path, capsys):
    """Fails on the code before: there was no checkpoint, and nothing outside the database to
    compare a recomputed chain with."""
    rewritten, untouched = make_table("counter", owner_name="a"), make_table("counter", owner_name="b")
    for table in (rewritten, untouched):
        play(table, {"type": "start"})
        play(table, {"type": "add", "seat": 0, "amount": 2})
    path = tmp_path / "checkpoint.json"
    call_command("publish_checkpoint", str(path))
    taken = json.loads(path.read_text())
    assert {head["table"] for head in taken["tables"]} == {str(rewritten.pk), str(untouched.pk)}
    call_command("verify_checkpoint", str(path))
    assert "2 table(s) match the checkpoint" in capsys.readouterr().out

    rewrite_with_recomputed_chain(rewritten, 3, data={"seat": 0, "amount": 9, "total": 9})
    assert chain.verify_chain(rewritten) == []
    call_command("check_replay")  # the internal checks pass: the rewrite is consistent
    capsys.readouterr()
    with pytest.raises(CommandError, match="1 difference"):
        call_command("verify_checkpoint", str(path))
    out = capsys.readouterr().out
    assert f"table {rewritten.pk}: event 3 hashes to" in out and "history rewritten" in out
    assert str(untouched.pk) not in out


def test_a_changed_checkpoint_file_is_refused(counter_game, db, tmp_path):
    table = make_table("counter")
    play(table, {"type": "start"})
    path = tmp_path / "checkpoint.json"
    call_command("publish_checkpoint", str(path))
    taken = json.loads(path.read_text())
    taken["tables"][0]["hash"] = "0" * 64
    path.write_text(json.dumps(taken))
    with pytest.raises(CommandError, match="1 difference"):
        call_command("verify_checkpoint", str(path))
