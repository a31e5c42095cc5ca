"""Saying the engine's Text in the reader's language (issue 15): messages, plurals, nested and list
values, and the fallback to English when a translation's placeholders do not match. The messages
are the service's own, from the catalogues of games/, api/ and ledger/."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from games import words
from games.engine.words import Amount, N, T
from games.words import Untranslated, placeholders, say, say_all, strict
from tests.catalogues import compiled


@pytest.fixture(autouse=True, scope="module")
def _catalogues():
    compiled()


def test_a_message_is_said_in_each_language_with_its_values():
    taken = T("Seat {seat} is taken.", seat=3)
    assert say(taken, "en") == "Seat 3 is taken."
    assert say(taken, "es-mx") == "El asiento 3 está ocupado."
    assert say(taken, "fa") == "صندلی ۳ گرفته شده است."
    # Unchanged: the Text itself stays English, with its message id.
    assert taken == "Seat 3 is taken." and taken.msgid == "Seat {seat} is taken."


def test_a_number_in_a_sentence_takes_the_languages_digits_and_the_number_stays():
    """A whole number and an amount of money are written in the reader's digits (Persian digits
    and decimal sign, the currency's own exponent); the value kept in the Text is the number."""
    chips = N("{count} chip", "{count} chips", 1207)
    assert say(chips, "en") == "1207 chips"
    assert say(chips, "es-mx") == "1207 fichas"
    assert say(chips, "fa") == "۱۲۰۷ چیپ"
    assert chips.values["count"] == 1207
    price = T("{player} may buy the widow for {price}", player=T("seat {seat}", seat=2), price=Amount("5.00", "MXN"))
    assert say(price, "en") == "seat 2 may buy the widow for 5.00 MXN"
    # Beside a Latin code the Persian digits and decimal sign are written by code point: "5.00 MXN".
    assert say(price, "fa") == "صندلی ۲ می‌تواند دست یدکی را به \u06f5\u066b\u06f0\u06f0 MXN بخرد"
    assert words.money(Amount("500", "JPY"), "fa") == "\u06f5\u06f0\u06f0 JPY"
    assert words.money(Amount("1.5", "KWD"), "en") == "1.500 KWD"
    # A yes-or-no value is no number.
    assert say(T("{value}", value=True), "fa") == "True"


def test_the_active_language_is_the_default():
    with translation.override("es-mx"):
        assert say(T("This table has finished.")) == "Esta mesa ya terminó."
    with translation.override("fa"):
        assert say(T("This table has finished.")) == "این میز تمام شده است."


def test_a_plural_takes_the_languages_form_for_the_count():
    def places(count):
        return N("{count} decimal place", "{count} decimal places", count)

    assert say(places(1), "en") == "1 decimal place"
    assert say(places(2), "en") == "2 decimal places"
    assert say(places(1), "es-mx") == "1 decimal"
    assert say(places(2), "es-mx") == "2 decimales"
    assert say(places(2), "fa") == "۲ رقم اعشار"


def test_a_text_value_is_said_in_the_same_language():
    status = T("The table is {status}, not running.", status=T("open"))
    assert say(status, "en") == "The table is open, not running."
    assert say(status, "es-mx") == "La mesa está abierta, no en juego."
    assert say(status, "fa") == "میز باز است، نه در جریان."
    nested = T(
        "'{action}' is not an action of your seat now; you may send: {offered}.", action="x", offered=T("nothing")
    )
    assert say(nested, "es-mx").endswith("puedes enviar: nada.")


def test_a_list_value_is_joined_by_the_languages_separator():
    unknown = T("Unknown game '{game}'. Known games: {known}.", game="x", known=["guerra", "euchre"])
    assert say(unknown, "en") == "Unknown game 'x'. Known games: guerra, euchre."
    assert say(unknown, "es-mx") == "Juego desconocido 'x'. Juegos conocidos: guerra, euchre."
    assert say(unknown, "fa") == "بازی ناشناخته 'x'. بازی‌های شناخته‌شده: guerra، euchre."
    # Items that are Text are said too.
    assert say(T("Money goes in 'stake', not in options: {options}.", options=[T("open"), "x"]), "fa").endswith(
        "باز، x."
    )


def test_a_translation_with_other_placeholders_falls_back_to_english(monkeypatch):
    logged = []
    monkeypatch.setattr(words.log, "warning", lambda message, *args: logged.append(message % args))
    catalogue = SimpleNamespace(gettext=lambda msgid: "El asiento {numero} está ocupado.")
    monkeypatch.setattr(trans_real, "translation", lambda language: catalogue)
    assert say(T("Seat {seat} is taken.", seat=3), "es-mx") == "Seat 3 is taken."
    assert "other placeholders" in logged[0] and "{numero}" in logged[0]
    # A plural form may leave {count} out, but no other placeholder.
    catalogue.ngettext = lambda one, many, n: "un decimal"
    assert say(N("{count} decimal place", "{count} decimal places", 1), "es-mx") == "un decimal"
    catalogue.ngettext = lambda one, many, n: "{cuantos} decimales"
    assert say(N("{count} decimal place", "{count} decimal places", 2), "fa") == "۲ decimal places"


def test_a_plain_string_passes_through_and_say_all_keeps_the_shape():
    assert say("Ah", "fa") == "Ah"
    body = {
        "code": "seat_taken",
        "detail": T("Seat {seat} is taken.", seat=1),
        "fields": {"seat": [T("Unknown field.")]},
    }
    said = say_all(body, "es-mx")
    assert said == {
        "code": "seat_taken",
        "detail": "El asiento 1 está ocupado.",
        "fields": {"seat": ["Campo desconocido."]},
    }
    assert say_all([T("open"), 3, None], "fa") == ["باز", 3, None]


def test_strict_mode_refuses_a_message_without_translation_but_not_english():
    unknown = T("A sentence nobody translated, {name}.", name="x")
    assert say(unknown, "es-mx") == "A sentence nobody translated, x."
    with strict():
        assert say(unknown, "en") == "A sentence nobody translated, x."
        assert say(T("Seat {seat} is taken.", seat=2), "fa") == "صندلی ۲ گرفته شده است."
        with pytest.raises(Untranslated) as refused:
            say(unknown, "fa")
    assert refused.value.msgid == "A sentence nobody translated, {name}." and refused.value.language == "fa"


def test_placeholders_are_the_names_in_braces():
    assert placeholders("{a} and {b.c} but not {{d}}") == {"a", "b"}


def test_a_catalogue_compiles_in_pure_python_and_only_when_its_po_is_newer(tmp_path):
    """make run and make test compile the catalogues first; an unchanged one is left alone."""
    import os

    from babel.messages.mofile import read_mo

    from games.management.commands.compile_catalogues import compile_po

    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Seat {seat} is taken."\nmsgstr "El asiento {seat} está ocupado."\n\n'
        '#, fuzzy\nmsgid "open"\nmsgstr "abierta"\n',
        encoding="utf-8",
    )
    assert compile_po(po) is True
    with (tmp_path / "django.mo").open("rb") as compiled_file:
        catalog = read_mo(compiled_file)
    assert catalog.get("Seat {seat} is taken.").string == "El asiento {seat} está ocupado."
    # A fuzzy entry is a guess awaiting review: never served.
    assert catalog.get("open") is None
    assert compile_po(po) is False
    os.utime(po, (po.stat().st_mtime + 10, po.stat().st_mtime + 10))
    assert compile_po(po) is True


def test_an_idempotent_commands_first_answer_keeps_its_words():
    """The record keeps the answer's English (JSON); the first answer gets its Text back, so it is
    said in the reader's language."""
    import json

    from games.idempotency import with_words

    answer = {"detail": T("Seat {seat} is taken.", seat=1), "seats": [{"note": T("open")}, {"note": "x"}], "n": 2}
    stored = json.loads(json.dumps(answer))
    again = with_words(answer, stored)
    assert again == stored
    assert say_all(again, "es-mx") == {
        "detail": "El asiento 1 está ocupado.",
        "seats": [{"note": "abierta"}, {"note": "x"}],
        "n": 2,
    }
    assert say_all(stored, "es-mx")["detail"] == "Seat 1 is taken."


def test_a_view_names_players_by_the_names_the_edge_knows():
    """The engine names players by seat in a view ("seat 2"); the edge, which knows who sits
    where, names them, deep inside sentences too, and the sentences still translate."""
    step = T(
        "{players} both hold {count} wild cards: this step decides nothing.",
        players=[T("seat {seat}", seat=0), T("seat {seat}", seat=3)],
        count=0,
    )
    view = {"showdown": [{"seat": 0, "tie_break": [{"sentence": step}]}], "dealer": T("seat {seat}", seat=7)}
    named = words.name_seats(view, {0: "ana", 3: T("bot (seat {seat})", seat=3)})
    sentence = named["showdown"][0]["tie_break"][0]["sentence"]
    assert sentence == "ana, bot (seat 3) both hold 0 wild cards: this step decides nothing."
    assert sentence.msgid == step.msgid
    assert say(sentence, "es-mx").startswith("ana, bot (asiento 3)")
    # A seat nobody is named for keeps its number; the engine's view is not changed.
    assert named["dealer"] == "seat 7"
    assert view["showdown"][0]["tie_break"][0]["sentence"].startswith("seat 0, seat 3")
