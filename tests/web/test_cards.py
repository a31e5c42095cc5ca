"""Every card of every deck (api/static/web/cards.js) in headless Chromium, in English and in
Persian: its face is the card set's SVG (cards.svg: the suit, the joker's cap, the back) and its
rank as text, never an emoji, so it shows on a machine without an emoji font (issue 25); its name
is in words of the page's language; it reads left to right on a right-to-left page. The page is
kept as pictures, on a phone's width (var/screenshots/cards-<deck>-<language>.png).

The page is served by Playwright's request routing from the static folder itself, with Django's
own catalogue of the client's words: no server, no port."""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.test import Client

from games.engine.cards import DECKS
from tests.conftest import require
from tests.web.chromium import CHROMIUM, CHROMIUM_FLAGS
from tests.web.conftest import SCREENSHOTS

WEB = Path(__file__).resolve().parents[2] / "api" / "static" / "web"
ORIGIN = "http://cards.test"
TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}

PAGE = """<!doctype html>
<html lang="{lang}" dir="{dir}"><head><meta charset="utf-8"><title>cards</title>
<link rel="stylesheet" href="/web/style.css"><script src="/jsi18n/"></script></head>
<body><main id="faces"></main>
<script type="module">
import {{ cardElement, faceInText, useDeck }} from "/web/cards.js";
// Each deck as a table of it draws it: its name said first, then its cards (and a back).
window.draw = (decks) => {{
  window.texts = [];
  for (const [name, codes] of decks) {{
    useDeck(name);
    const row = Object.assign(document.createElement("div"), {{ className: "cards" }});
    row.dataset.deck = name;
    row.append(...codes.map((code) => cardElement(code)), cardElement(null));
    document.getElementById("faces").append(row);
    window.texts.push(...codes.map((code) => faceInText(code)));
  }}
}};
// Each card as drawn: once the card set has loaded, each symbol has a size (a symbol the set lacks
// has none).
window.faces = () => [...document.querySelectorAll("#faces .card")].map((card) => {{
  const uses = [...card.querySelectorAll("svg use")];
  return {{
    deck: card.closest("[data-deck]").dataset.deck,
    code: card.dataset.card || null,
    role: card.getAttribute("role"),
    label: card.getAttribute("aria-label"),
    text: card.textContent,
    shown: card.innerText,
    symbols: uses.map((use) => use.getAttribute("href").split("#")[1]),
    sized: uses.every((use) => use.getBBox().width > 0),
    direction: getComputedStyle(card).direction,
    width: card.getBoundingClientRect().width,
  }};
}});
window.ready = true;
</script></body></html>"""

# What a face may show as text: a rank (none for a joker or a back).
RANK_SHOWN = re.compile(r"^(?:[2-9AJQK]|1[0-2]|[1-9])?$")
FACE_IN_TEXT = re.compile("\u2066(?:10|[2-9AJQK])[♣♦♥♠]\u2069")
# Emoji (the jokers and Spanish suits of before, 🃏 🪙 🏆 ⚔ 🪵 🂠) and the emoji presentation selector.
EMOJI = re.compile("[\U0001f000-\U0001faff\u2694\ufe0f]")
SYMBOL = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
SPANISH = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}


def expected(deck: str, code: str) -> tuple[str, str]:
    """The rank shown and the symbol of the set a card's face is drawn with: in a Spanish deck
    "2c" is the two of copas (GC-1), elsewhere the two of clubs."""
    if code in ("X1", "X2"):
        return "", "joker"
    if deck.startswith("spanish"):
        return code[:-1], SPANISH[code[-1]]
    return ("10" if code[0] == "T" else code[0]), SYMBOL[code[1]]


def catalogue(language: str) -> bytes:
    """The page's catalogue of the client's words, as /jsi18n/ serves it."""
    response = Client().get(f"/jsi18n/?lang={language}")
    assert response.status_code == 200
    return response.content


@contextmanager
def cards_page(language: str):
    words = catalogue(language)  # before the browser: Django does no work while its loop runs
    require(CHROMIUM.exists(), "Debian's Chromium at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    page_html = PAGE.format(lang=language, dir="rtl" if language == "fa" else "ltr")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 390, "height": 844})

        def serve(route):
            path = route.request.url[len(ORIGIN) :].split("?")[0]
            if path == "/":
                return route.fulfill(body=page_html, content_type="text/html")
            if path == "/jsi18n/":
                return route.fulfill(body=words, content_type="text/javascript")
            file = (WEB / path.removeprefix("/web/")).resolve()
            if not path.startswith("/web/") or WEB not in file.parents or file.suffix not in TYPES:
                return route.fulfill(status=404, body="")
            return route.fulfill(body=file.read_bytes(), content_type=TYPES[file.suffix])

        page.route(f"{ORIGIN}/**", serve)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{ORIGIN}/")
        page.wait_for_function("window.ready === true")
        page.errors = errors
        yield page
        browser.close()


@pytest.mark.parametrize("language", ["en", "fa"])
def test_every_card_of_every_deck_has_an_svg_face_and_its_name_in_words(language):
    assert {"english_54", "spanish_48_jokers", "euchre_24"} <= set(DECKS)  # jokers, both kinds of deck
    decks = [[name, list(codes)] for name, codes in DECKS.items()]
    with cards_page(language) as page:
        page.evaluate("(decks) => window.draw(decks)", decks)
        # Drawn once the card set has loaded: every symbol then has a size.
        page.wait_for_function("() => window.faces().every((face) => face.sized)", timeout=10_000)
        faces = page.evaluate("() => window.faces()")
        texts = page.evaluate("() => window.texts")
        # Two decks' faces on a phone's width, kept as pictures (docs/screenshots/).
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for name in ("english_54", "spanish_48_jokers"):
            page.locator(f"[data-deck={name}]").screenshot(path=str(SCREENSHOTS / f"cards-{name}-{language}.png"))
        assert not page.errors, page.errors
    cards = [face for face in faces if face["code"]]
    backs = [face for face in faces if not face["code"]]
    assert [(face["deck"], face["code"]) for face in cards] == [(name, code) for name, codes in decks for code in codes]
    for face in cards:
        code = face["code"]
        rank, symbol = expected(face["deck"], code)
        assert face["role"] == "img", face
        assert face["symbols"] == [symbol], face  # the suit (or cap) from the set, once
        assert face["text"] == face["shown"] == rank, face  # nothing but the rank as text
        assert RANK_SHOWN.match(face["text"]), face
        assert face["direction"] == "ltr", face
        assert 0 < face["width"] < 60, face  # a card, not a row's width
        # Named in words of the page's language, never by its code.
        label = face["label"] or ""
        assert label and code not in label.split(), face
        if language == "fa":
            assert re.search("[\u0600-\u06ff]", label) and not re.search("[A-Za-z]", label), face
        else:
            assert re.fullmatch(r"[a-z ]+", label), face
    assert len(backs) == len(decks)
    for back in backs:
        assert back["symbols"] == ["back"] and back["text"] == "" and back["label"] and back["role"] == "img", back
    # In a button's words, a card is its French face ("10♦", left to right) or its name: never an emoji.
    for face, text in zip(cards, texts, strict=True):
        assert FACE_IN_TEXT.fullmatch(text) or text == face["label"], (face["code"], text)
    assert not EMOJI.search("".join(texts + [face["text"] + (face["label"] or "") for face in faces]))


def test_the_card_set_holds_a_symbol_for_every_suit_the_client_draws():
    """Every symbol cards.js names is in cards.svg, and the set draws in the card's colour."""
    card_set = (WEB / "cards.svg").read_text()
    ids = set(re.findall(r'<symbol id="([a-z]+)"', card_set))
    assert ids == {*SYMBOL.values(), *SPANISH.values(), "joker", "back"}
    assert "fill=" not in card_set.replace('fill-rule="evenodd"', "")  # colours come from the page
    assert not re.search(r"<(?:image|script|text)\b|href=", card_set)  # shapes only, nothing fetched
