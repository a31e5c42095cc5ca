"""Card codes, parsing and decks (CM-1..CM-3, GC-1, WP-8)."""

from __future__ import annotations

import pytest

from games.engine import cards
from games.engine.cards import CardError, parse_card, parse_hand


@pytest.mark.parametrize(
    ("token", "code"),
    [("As", "As"), ("as", "As"), ("AS", "As"), ("10h", "Th"), ("10H", "Th"), ("th", "Th"), ("x1", "X1"), ("X2", "X2")],
)
def test_cm_1_parse_accepts_any_case_and_10(token, code):
    assert parse_card(token) == code


@pytest.mark.parametrize(
    ("token", "complaint"),
    [
        ("1x", "'1' is not a rank"),
        ("AA", "'A' is not a suit"),
        ("Zs", "'Z' is not a rank"),
        ("11h", "'11' is not a rank"),
        ("A", "rank then a suit"),
    ],
)
def test_cm_1_parse_refuses_bad_tokens_naming_them(token, complaint):
    with pytest.raises(CardError) as error:
        parse_card(token)
    assert f"'{token}'" in str(error.value)
    assert complaint in str(error.value)
    assert error.value.token == token


def test_cm_1_parse_refuses_empty_strings():
    with pytest.raises(CardError, match="empty"):
        parse_card("")
    with pytest.raises(CardError, match="empty"):
        parse_hand(["As", ""])
    with pytest.raises(CardError, match="no cards"):
        parse_hand("   ")


def test_cm_1_parse_hand_refuses_duplicates_naming_the_card():
    with pytest.raises(CardError, match="'as' is As a second time"):
        parse_hand("As Kd as")
    with pytest.raises(CardError, match="10h"):
        parse_hand(["Th", "10h"])


def test_cm_1_parse_hand_reads_text_and_lists():
    assert parse_hand("as, kd 10h  Qc jS") == ("As", "Kd", "Th", "Qc", "Js")
    assert parse_hand(["x2", "2c"]) == ("X2", "2c")
    with pytest.raises(CardError, match="holds 5 cards, not 4"):
        parse_hand("As Kd Qh Jc", size=5)
    with pytest.raises(CardError, match="'2c' is not in this deck"):
        parse_hand("As 2c", deck=cards.EUCHRE_DECK)


def test_gc_1_spanish_codes():
    assert parse_card("1O", spanish=True) == "1o"
    assert parse_card("12b", spanish=True) == "12b"
    for bad in ("13o", "0c", "1s", "As"):
        with pytest.raises(CardError, match=f"'{bad}' is not a Spanish card"):
            parse_card(bad, spanish=True)
    with pytest.raises(CardError, match="'8o' is not in this deck"):
        parse_hand("8o 1c", spanish=True, deck=cards.spanish_deck(40))


def test_cm_2_colours():
    assert cards.colour("Ah") == cards.colour("2d") == "red"
    assert cards.colour("Ks") == cards.colour("9c") == "black"
    assert cards.colour("X1") is None


def test_cm_3_canonical_orders():
    assert cards.STANDARD_DECK[:5] == ("2c", "2d", "2h", "2s", "3c")
    assert cards.STANDARD_DECK[-1] == "As"
    assert cards.LA_VIUDA_DECK[-3:] == ("As", "X1", "X2")
    assert len(set(cards.LA_VIUDA_DECK)) == 54
    assert cards.EUCHRE_DECK[:4] == ("9c", "9d", "9h", "9s") and len(cards.EUCHRE_DECK) == 24
    assert all(cards.INDEX[card] == i for i, card in enumerate(cards.LA_VIUDA_DECK))


def test_wp_8_reduced_packs():
    assert cards.reduced_pack(2)[0] == "Tc" and len(cards.reduced_pack(2)) == 20
    assert cards.reduced_pack(3)[0] == "9c" and len(cards.reduced_pack(3)) == 24
    assert cards.reduced_pack(7)[0] == "5c" and len(cards.reduced_pack(7)) == 40
    with pytest.raises(ValueError):
        cards.reduced_pack(8)


def test_gc_1_spanish_decks():
    forty = cards.spanish_deck(40)
    assert forty[:5] == ("1o", "1c", "1e", "1b", "2o") and forty[-1] == "12b" and len(forty) == 40
    assert not any(card[:-1] in ("8", "9") for card in forty)
    assert len(cards.spanish_deck(48)) == 48 and cards.spanish_deck(48)[28] == "8o"
    assert cards.spanish_deck(40, jokers=True)[-2:] == ("X1", "X2")
    assert cards.spanish_rank("12b") == 12 and cards.spanish_rank("X1") == 13
