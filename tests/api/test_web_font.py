"""The Persian font the web client ships (api/static/web/fonts/): a subset of Vazirmatn to the
Arabic script's code points (style.css's unicode-range), so it must still draw every letter, digit
and sign the Persian catalogues put on a page, in both weights, and keep its licence beside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "api" / "static" / "web" / "fonts"
# The Arabic script's blocks, as style.css's @font-face unicode-range names them.
ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")
# What Intl writes for a Persian page's numbers: Persian digits, the decimal and thousands signs.
NUMBERS = "۰۱۲۳۴۵۶۷۸۹\u066b\u066c"


def persian_characters() -> set[str]:
    """Every Arabic-script character of every Persian catalogue's translations."""
    found: set[str] = set()
    for path in ROOT.glob("**/locale/fa/LC_MESSAGES/*.po"):
        if ".venv" in path.parts:
            continue
        with path.open("rb") as po:
            for message in read_po(po):
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                found.update(ARABIC.findall("".join(s or "" for s in strings)))
    return found


@pytest.mark.parametrize("weight", ["Regular", "Bold"])
def test_the_persian_font_draws_every_character_of_the_persian_pages(weight):
    characters = persian_characters() | set(NUMBERS)
    assert len(characters) > 40  # the catalogues were read: Persian has 32 letters alone
    font = TTFont(FONTS / f"Vazirmatn-{weight}.woff2")
    covered = font.getBestCmap()
    missing = sorted(c for c in characters if ord(c) not in covered)
    assert not missing, [f"U+{ord(c):04X} {c}" for c in missing]
    # Persian joins its letters: the shaping features survived the subset.
    features = {record.FeatureTag for record in font["GSUB"].table.FeatureList.FeatureRecord}
    assert {"init", "medi", "fina", "rlig"} <= features, features


def test_the_font_ships_with_its_licence():
    licence = (FONTS / "Vazirmatn-OFL.txt").read_text()
    assert "SIL Open Font License" in licence
    assert "Vazirmatn" in licence
