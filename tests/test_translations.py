"""Every message the API can send, in every language (issue 15).

``test_issue_15_every_message_is_translated`` extracts every ``T``/``N`` message and every Django
``gettext`` call of games/, api/ and ledger/ (Babel's extractor, the one ``make messages`` uses) and,
for each language but English, checks that the catalogues translate it, that the translation has
exactly the message's placeholders, and that it renders with sample values leaving no brace behind.
A failure lists every message missing, by the package whose catalogue should hold it.

``test_issue_15_a_played_table_says_every_word`` plays a table of each game and says every table view,
event view, hand audit and history of it in each language in strict mode: no Text without a
translation, and no English plain string where words are.

Both are marked ``translations`` (``pytest -m translations``)."""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from django.conf import settings
from django.utils import translation

from games.engine.words import Text
from games.words import ENGLISH, is_translated, placeholders
from tests.catalogues import compiled

pytestmark = pytest.mark.translations

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != ENGLISH]
KEYWORDS = {
    "T": None,
    "N": (1, 2),
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
}
PERCENT = re.compile(r"%\((\w+)\)[sd]")
# Counts that pick every plural form of English, Spanish (one, many, other) and Persian.
COUNTS = (0, 1, 2, 5, 1_000_000)


@pytest.fixture(autouse=True, scope="module")
def _catalogues():
    compiled()


def package_of(path: Path) -> str:
    """The package whose catalogue holds a message of ``path``: a game's, the engine's, or an app's."""
    parts = path.relative_to(ROOT).parts
    if parts[:2] == ("games", "rules") and len(parts) > 3:
        return "/".join(parts[:3])
    if parts[:2] == ("games", "engine"):
        return "games/engine"
    return parts[0]


@functools.cache
def messages() -> dict[tuple[str, str | None, str | None], set[str]]:
    """(msgid, plural, context) -> the packages that send it."""
    found: dict[tuple[str, str | None, str | None], set[str]] = defaultdict(set)
    for top in ("games", "api", "ledger"):
        folder = ROOT / top

        def wanted(name: str) -> bool:
            return Path(name).name not in {"migrations", "locale", "__pycache__"}

        for filename, _line, message, _comments, context in extract_from_dir(
            folder, [("**.py", "python")], {}, KEYWORDS, directory_filter=wanted
        ):
            msgid, plural = (message[0], message[1]) if isinstance(message, tuple) else (message, None)
            if msgid:
                found[(msgid, plural, context)].add(package_of(folder / filename))
    return found


def names(template: str) -> set[str]:
    return placeholders(template) | set(PERCENT.findall(template))


def problem(msgid: str, plural: str | None, context: str | None, language: str) -> str | None:
    """What is wrong with the message in ``language``, or ``None``."""
    with translation.override(language):
        if context is not None:
            said = [translation.pgettext(context, msgid)]
            known = said[0] != msgid or is_translated(f"{context}\x04{msgid}")
        elif plural is not None:
            said = [translation.ngettext(msgid, plural, count) for count in COUNTS]
            known = is_translated(msgid, plural)
        else:
            said = [translation.gettext(msgid)]
            known = is_translated(msgid)
    if not known:
        return "untranslated"
    expected = names(msgid) | (names(plural) if plural else set())
    for form in said:
        got = names(form)
        if (got != expected) if plural is None else not (got <= expected and expected - {"count"} <= got):
            return f"placeholders {sorted(got)} instead of {sorted(expected)}: {form!r}"
        sample = {name: "x" for name in got}
        rendered = PERCENT.sub("x", form).format(**sample) if "%(" in form else form.format(**sample)
        if "{" in rendered or "}" in rendered:
            return f"renders with a brace left: {rendered!r}"
    return None


def test_issue_15_every_message_is_translated():
    found = messages()
    assert len(found) > 100, "the extractor found too few messages"
    report: dict[str, list[str]] = defaultdict(list)
    for (msgid, plural, context), packages in sorted(found.items()):
        for language in LANGUAGES:
            wrong = problem(msgid, plural, context, language)
            if wrong:
                for package in sorted(packages):
                    report[f"{package} ({language})"].append(f"{msgid!r}: {wrong}")
    missing = sum(len(lines) for lines in report.values())
    summary = "\n".join(
        f"{where}: {len(lines)}\n    " + "\n    ".join(lines) for where, lines in sorted(report.items())
    )
    assert not report, f"{missing} message(s) not translated as they must be, by catalogue:\n{summary}"


def test_the_extractor_sees_t_n_and_gettext_calls():
    found = messages()
    assert found[("Seat {seat} is taken.", None, None)] == {"games"}
    assert found[("{count} decimal place", "{count} decimal places", None)] == {"ledger"}
    assert found[("Unknown field.", None, None)] == {"api"}
    assert found[(", ", None, "list separator")] == {"games"}


def test_a_broken_translation_is_named(monkeypatch):
    monkeypatch.setattr(translation, "gettext", lambda msgid: "Asiento {numero}")
    assert problem("Seat {seat} is taken.", None, None, "es-mx").startswith("placeholders ['numero']")
    assert problem("A message nobody wrote, {x}.", None, None, "fa") == "untranslated"


# --- a played table of each game, said in strict mode ------------------------------------------------

# Where a view, an event, an audit or a history holds sentences or words for people (as opposed to
# codes, cards, names and numbers).
WORD_KEYS = {
    "description",
    "descriptions",
    "explanation",
    "explanations",
    "detail",
    "history",
    "line",
    "lines",
    "text",
    "summary",
    "steps",
    "step",
    "reason",
    "category_name",
    "hand_name",
    "message",
    "words",
    "said",
}
LETTERS = re.compile(r"[A-Za-z]{3,}")
CODE = re.compile(r"[a-z0-9_\-]+")


def _plain_words(value: Any) -> bool:
    """A plain (not Text) string with English words in it: nobody will translate it. A code
    (``all_cards``, ``left``) is no words: machine fields never change with the language."""
    if not isinstance(value, str) or isinstance(value, Text) or CODE.fullmatch(value):
        return False
    return LETTERS.search(value) is not None


def unsaid(data: Any, language: str, path: str = "") -> list[str]:
    """Every Text in ``data`` (and in its values) that ``language`` does not translate, and every
    plain English string under a key of words."""
    found: list[str] = []
    if isinstance(data, Text):
        if not is_translated(data.msgid, data.plural, language):
            found.append(f"{path}: Text {data.msgid!r}")
        for key, value in data.values.items():
            found += unsaid(value, language, f"{path}{{{key}}}")
    elif isinstance(data, dict):
        for key, value in data.items():
            if str(key) in WORD_KEYS and _plain_words(value):
                found.append(f"{path}.{key}: plain string {value[:60]!r}")
            found += unsaid(value, language, f"{path}.{key}")
    elif isinstance(data, list | tuple):
        for index, item in enumerate(data):
            if path.rsplit(".", 1)[-1] in WORD_KEYS and _plain_words(item):
                found.append(f"{path}[{index}]: plain string {item[:60]!r}")
            found += unsaid(item, language, f"{path}[{index}]")
    return found


def said_records(table_id: str) -> dict[str, Any]:
    """What a reader can be sent about a finished table, as the service makes it (Text unsaid):
    each seat's and a spectator's table view at versions across the game, their events, and the
    audit of the first hands."""
    from games import audit, selectors
    from games.models import Table

    table = Table.objects.get(pk=table_id)
    seats: list[int | None] = [None, *range(table.seats)]
    records: dict[str, Any] = {}
    for seat in seats:
        records[f"table view, seat {seat}"] = selectors.table_view(table, seat)
        records[f"events, seat {seat}"] = selectors.events_view(table, seat, after=0, limit=100_000)
    staff = _staff()
    for version in sorted({max(1, table.version * step // 12) for step in range(1, 13)}):
        records[f"replay at {version}"] = audit.replay_view(table, staff, version)
    for hand_no in audit.finished_hand_numbers(table)[:3]:
        records[f"audit of hand {hand_no}"] = audit.hand_audit(table, hand_no)
        records[f"verification of hand {hand_no}"] = audit.verify_hand(table, hand_no).as_json()
    return records


def _staff():
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username="auditor", defaults={"is_staff": True})
    return user


def histories(table_id: str, language: str) -> list[str]:
    """The hand histories of the first hands said in strict mode (the message of each refusal), and
    each line that reads the same in English and in ``language``: a plain English string."""
    from games import audit
    from games.models import Table
    from games.words import Untranslated, strict

    table = Table.objects.get(pk=table_id)
    found = []
    for hand_no in audit.finished_hand_numbers(table)[:3]:
        with translation.override(language), strict():
            try:
                audit.hand_history(table, hand_no)
            except Untranslated as missing:
                found.append(f"history of hand {hand_no}: Text {missing.msgid!r} (the first of its lines)")
        with translation.override(ENGLISH):
            english = audit.hand_history(table, hand_no).splitlines()
        with translation.override(language):
            said = audit.hand_history(table, hand_no).splitlines()
        found += [
            f"history of hand {hand_no}: line in English {line[:60]!r}"
            for line, other in zip(english, said)
            if line == other and LETTERS.search(line)
        ]
    return found


# A whole game of each: long (CI, or LONG_TESTS=1), so that a plain make test stays quick.
@pytest.mark.long
@pytest.mark.django_db
@pytest.mark.parametrize("game", ["euchre", "five-card-draw", "guerra", "la-viuda", "whiskey-poker"])
def test_issue_15_a_played_table_says_every_word(game, task_queue):
    import random

    from tests.api import draw, play
    from tests.api.test_contract import GAMES

    spec = GAMES[game]
    owner, staff = play.person("alice"), play.person("sam", staff=True)
    table_id, clients = play.set_up(spec, owner, staff)

    def choose(view, rng):
        return draw.choose(view, rng) if game == "five-card-draw" else rng.choice(view["legal_actions"])

    play.play_to_the_end(table_id, clients, task_queue, random.Random(15), choose=choose)
    records = said_records(table_id)
    report: dict[str, list[str]] = {}
    for language in LANGUAGES:
        # The same word at many places is one finding: indices and numbers folded, places counted.
        found = Counter(
            re.sub(r"\[\d+\]|\b\d+\b", "#", line, count=2)
            for line in [
                *(line for where, data in records.items() for line in unsaid(data, language, where)),
                *histories(table_id, language),
            ]
        )
        lines = [f"{line} (x{times})" if times > 1 else line for line, times in sorted(found.items())]
        if lines:
            report[language] = lines
    summary = "\n".join(f"{language}: {len(lines)}\n    " + "\n    ".join(lines) for language, lines in report.items())
    assert not report, f"{game}: words a reader would get in English, by language:\n{summary}"


def test_every_showdown_outcome_has_words_in_the_web_client():
    """Every outcome code a showdown line may carry (``wins``, ``splits``, …) has its words in the
    web client's ``words.js``: a code without them was shown as the English code itself in every
    language (``splits`` was, in Persian)."""
    from api.audit_serializers import ShowdownLineSerializer

    source = (ROOT / "api/static/web/words.js").read_text(encoding="utf-8")
    table = source[source.index("const WORDS = {") : source.index("};")]
    said = set(re.findall(r'^\s*"?([a-z_ ]+)"?: \(\) => t\(', table, flags=re.MULTILINE))
    outcomes = set(ShowdownLineSerializer().fields["outcome"].choices)
    assert outcomes and not outcomes - said, sorted(outcomes - said)
