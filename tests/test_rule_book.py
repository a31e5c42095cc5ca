"""The rule book in the repository (docs/rules/) is the shared one, word for word, and every rule the
code cites exists in it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "docs" / "rules"
SHARED = ROOT.parent / "shared" / "rules"
RULE = re.compile(r"\*\*([A-Z]{2}-\d+)\*\*")
CITED = re.compile(r"\b(CM|WX|WP|LV|EU|GC|FD)-(\d+)\b")


def test_docs_rules_is_a_copy_of_the_shared_rule_book():
    if not SHARED.is_dir():
        pytest.skip("no shared rule book beside this checkout")
    ours = {path.name: path.read_bytes() for path in BOOK.glob("*.md")}
    theirs = {path.name: path.read_bytes() for path in SHARED.glob("*.md")}
    assert sorted(ours) == sorted(theirs)
    assert [name for name in ours if ours[name] != theirs[name]] == []


def test_every_rule_the_code_cites_is_in_the_rule_book():
    rules = {rule for path in BOOK.glob("*.md") for rule in RULE.findall(path.read_text(encoding="utf-8"))}
    cited = {
        f"{prefix}-{number}"
        for path in (ROOT / "games").rglob("*.py")
        for prefix, number in CITED.findall(path.read_text(encoding="utf-8"))
    }
    assert cited - rules == set()
