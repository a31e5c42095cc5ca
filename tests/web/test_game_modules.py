"""The Euchre, Five-Card Draw and Guerra modules (api/static/web/games/) in headless Chromium,
against real views: a person at seat 0 and bots elsewhere, played through the services and read
through the API at several moments (game_views.py). Each view is drawn on a page with a stub
``ctx``; the test checks that render() does not throw, shows the seat's own cards, never shows a
card the view does not hold, labels every legal action and gives the fields a form needs.

The page is served by Playwright's request routing from the static folder itself: no server,
no port. Debian's Chromium is driven (never a downloaded browser)."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require
from tests.web.game_views import TABLES, play_views

WEB = Path(__file__).resolve().parents[2] / "api" / "static" / "web"
CHROMIUM = Path("/usr/bin/chromium")
ORIGIN = "http://games.test"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The moments each table must have reached for the test to mean something.
MOMENTS = {
    "euchre": {"beginning", "bidding", "your-play", "mid-hand", "finished"},
    "five_card_draw": {"beginning", "your-bet", "your-draw", "after-draw", "showdown", "finished"},
    "guerra": {"beginning", "thrown", "battle", "finished"},
}
# A card code (English ranks and suits, Spanish 1..12 of oros, copas, espadas, bastos, jokers).
CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|(?:[1-9]|1[0-2])[oceb]|X[12])$")

# The stub ctx core builds on the table page: t is gettext with named values (English here), a
# card is core's <span class="card" role="img" aria-label data-card>.
PAGE = """<!doctype html>
<html lang="en" dir="ltr"><head><meta charset="utf-8"><title>game modules</title></head>
<body><main id="game"></main>
<script type="module">
const t = (msgid, values) => values ? msgid.replace(/%\\((\\w+)\\)s/g, (w, n) => n in values ? String(values[n]) : w) : msgid;
function cardElement(code) {
  const card = document.createElement("span");
  card.className = "card";
  card.setAttribute("role", "img");
  card.dataset.card = code;
  card.setAttribute("aria-label", "card " + code);
  card.textContent = code;
  return card;
}
window.draw = async (slug, view) => {
  const module = await import(`/web/games/${slug}.js`);
  const ctx = { you: view.your_seat, t, cardElement, playerName: (seat) => "seat " + seat };
  const element = module.render(view, ctx);
  if (!(element instanceof HTMLElement)) throw new Error("render() returned no element");
  document.getElementById("game").replaceChildren(element);
  // The module's stylesheet loads after render(); the layout checks wait for it.
  await Promise.all([...document.querySelectorAll("link[data-game-style]")].map((link) =>
    link.sheet ? null : new Promise((done) => { link.addEventListener("load", done, { once: true }); link.addEventListener("error", done, { once: true }); })));
  const labels = view.legal_actions.map((action) => module.describeAction ? module.describeAction(action, ctx) : null);
  const fields = view.legal_actions.map((action) => {
    const made = module.actionFields ? module.actionFields(action, ctx) : null;
    if (!made) return null;
    if (made instanceof Node) {
      return {
        node: true,
        build: typeof made.build === "function",
        inputs: [...made.querySelectorAll("input")].map((input) => ({ name: input.name, type: input.type, value: input.value, min: input.min, max: input.max })),
      };
    }
    return { node: false, fields: made };
  });
  return {
    cards: [...element.querySelectorAll("[data-card]")].map((card) => card.dataset.card),
    unlabelled: [...element.querySelectorAll(".card:not([aria-label])")].length,
    text: element.textContent,
    images: element.querySelectorAll("img, script, iframe").length,
    labels,
    fields,
    styles: [...document.querySelectorAll("link[data-game-style]")].length,
    // Wider than the phone-sized viewport means a sideways scroll for the whole page.
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  };
};
window.ready = true;
</script></body></html>"""


def codes_in(value: Any) -> set[str]:
    """Every card code anywhere in a view."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(codes_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(codes_in(v) for v in value)) if value else set()
    return set()


def own_cards(game: str, state: dict[str, Any]) -> list[str]:
    """The cards a seat's view says are its own, or (Guerra: nobody holds a hand) face up."""
    if game == "euchre":
        return state.get("hand") or []
    if game == "five_card_draw":
        return (state.get("hand") or {}).get("your_cards") or []
    last = state.get("last_round") or {}
    return [card for play in last.get("plays", []) for card in play.get("cards", [])]


@contextmanager
def browser_page():
    """A page of a fresh headless Chromium. Not a fixture: Playwright's sync API runs an event loop
    in the thread, and Django refuses database work while one runs, so a test plays its table
    first and opens the browser after."""
    require(CHROMIUM.exists(), "Debian's Chromium at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        # Playwright gives the browser a fresh profile of its own (it refuses --user-data-dir here).
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        page = browser.new_page(viewport={"width": 360, "height": 740})

        def serve(route):
            path = route.request.url[len(ORIGIN) :].split("?")[0]
            if path == "/":
                return route.fulfill(body=PAGE, content_type="text/html")
            file = (WEB / path.removeprefix("/web/")).resolve()
            if not path.startswith("/web/") or WEB not in file.parents or not file.is_file():
                return route.fulfill(status=404, body="")
            kind = "text/javascript" if file.suffix == ".js" else "text/css"
            return route.fulfill(body=file.read_bytes(), content_type=kind)

        page.route(f"{ORIGIN}/**", serve)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{ORIGIN}/")
        page.wait_for_function("window.ready === true")
        page.errors = errors
        yield page
        browser.close()


def draw(page, game: str, view: dict[str, Any]) -> dict[str, Any]:
    return page.evaluate("([slug, view]) => window.draw(slug, view)", [game, view])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_game_module_draws_every_moment_of_a_real_table(game):
    views = play_views(game)
    assert MOMENTS[game] <= set(views), views.keys()
    with browser_page() as page:
        check_moments(page, game, views)


def check_moments(page, game: str, views: dict[str, dict[str, Any]]) -> None:
    for moment, view in views.items():
        state = view["state"]
        shown = draw(page, game, view)
        where = f"{game} at {moment}"
        assert not page.errors, (where, page.errors)
        # The seat's own cards are all there, and no card the view does not hold.
        assert set(own_cards(game, state)) <= set(shown["cards"]), where
        assert set(shown["cards"]) <= codes_in(state), (where, set(shown["cards"]) - codes_in(state))
        assert shown["unlabelled"] == 0, where
        assert shown["images"] == 0, where
        assert shown["styles"] >= 1, where
        assert shown["overflow"] <= 0, (where, shown["overflow"])
        # Every legal action but presence gets the module's words; forms get their fields.
        for action, label, fields in zip(view["legal_actions"], shown["labels"], shown["fields"], strict=True):
            if action["type"] in ("sit_out", "sit_in", "leave"):
                continue
            assert isinstance(label, str) and label, (where, action)
            if action["type"] in ("bet", "raise"):
                amount = [i for i in fields["inputs"] if i["name"] == "amount"]
                assert amount and amount[0]["type"] == "number", (where, fields)
                assert (amount[0]["min"], amount[0]["max"]) == (str(action["min"]), str(action["max"]))
            if action["type"] == "draw":
                discard = sorted(i["value"] for i in fields["inputs"] if i["name"] == "discard")
                assert discard == sorted(state["hand"]["your_cards"]), (where, fields)
                assert fields["build"], where


def test_server_text_is_never_markup():
    """A sentence or a name from the server shows as text, never as elements."""
    view = {
        "your_seat": 0,
        "legal_actions": [],
        "state": {
            "game": "euchre",
            "phase": "play",
            "seats": 4,
            "cutthroat": False,
            "target_points": 10,
            "hand_no": 2,
            "dealer": 1,
            "scores": [1, 2, 1, 2],
            "to_act": [0],
            "turned_card": "9h",
            "turned_down": False,
            "picked_up": True,
            "bidding_round": 1,
            "bids": [{"seat": 1, "bid": "<img src=x>"}],
            "shown": [],
            "trump": "h",
            "no_trump": False,
            "maker": 1,
            "makers": [1, 3],
            "alone": False,
            "sitting_out": -1,
            "trick": [],
            "tricks": [{"plays": [{"seat": 0, "card": "Ah"}], "winner": 0, "sentence": "<img src=x onerror=alert(1)>"}],
            "tricks_won": [1, 0, 0, 0],
            "hand_sizes": [4, 4, 4, 4],
            "winners": [],
            "hand": ["Jh"],
            "first_dealer_draws": [],
        },
    }
    with browser_page() as page:
        shown = draw(page, "euchre", view)
    assert shown["images"] == 0
    assert "<img src=x onerror=alert(1)>" in shown["text"]


def test_no_module_writes_markup_or_inline_handlers():
    for game in TABLES:
        source = (WEB / "games" / f"{game}.js").read_text()
        assert "innerHTML" not in source and "insertAdjacentHTML" not in source, game
        assert not re.search(r"""setAttribute\(\s*["']on""", source), game
        assert json.dumps(source)  # readable text
