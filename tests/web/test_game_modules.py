"""The Euchre, Five-Card Draw and Guerra modules (api/static/web/games/) in headless Chromium,
against real views: a person at seat 0 and bots elsewhere, played through the services and read
through the API at several moments (game_views.py). Each view is drawn on a page with a stub
``ctx``; the test checks that render() does not throw, shows the seat's own cards, never shows a
card the view does not hold, labels every legal action and gives the fields a form needs.

The event lines (api/static/web/events.js) are checked the same way against the events API's
answers of a played table of every game with the server's sentences, and every event type a game
has gets a sentence of its own, drawn as the server said it; Five-
Card Draw's showdown(view) and the owner's commands (ownerActions) against real views.

The page is served by Playwright's request routing from the static folder itself: no server,
no port. Debian's Chromium is driven (never a downloaded browser)."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from api.sentences import parts_of
from games.engine import registry
from games.engine.decider import event_types_by_name
from games.engine.sentences import describe
from ledger.units import money_shown
from tests.conftest import require
from tests.rules import playout_widow
from tests.web.chromium import CHROMIUM, CHROMIUM_FLAGS
from tests.web.game_views import EVENT_TABLES, TABLES, play_events, play_table, play_views

WEB = Path(__file__).resolve().parents[2] / "api" / "static" / "web"
ORIGIN = "http://games.test"
# The moments each table must have reached for the test to mean something.
MOMENTS = {
    "euchre": {"beginning", "bidding", "your-play", "mid-hand", "finished"},
    "five-card-draw": {"beginning", "your-bet", "your-draw", "after-draw", "showdown", "finished"},
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
const nt = (singular, plural, count, values) => t(count === 1 ? singular : plural, { count, ...(values || {}) });
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
  const ctx = { you: view.your_seat, t, nt, cardElement, playerName: (seat) => "seat " + seat };
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
// Each event's line as events.js makes it: its attributes, its text, the cards it shows.
window.sentences = async (events) => {
  const { eventLine } = await import("/web/events.js");
  const ctx = { t, cardElement, playerName: (seat) => "seat " + seat };
  return events.map((event) => {
    const line = eventLine(event, ctx);
    return {
      tag: line.tagName,
      seq: line.dataset.seq,
      type: line.dataset.type,
      text: line.textContent,
      cards: [...line.querySelectorAll("[data-card]")].map((card) => card.dataset.card),
      elements: [...line.querySelectorAll("*")].filter((node) => !node.matches(".card, .cards")).length,
    };
  });
};
// A module's own answers that are not drawn: its showdown entries and the owner's commands.
window.answers = async (slug, view) => {
  const module = await import(`/web/games/${slug}.js`);
  return {
    showdown: module.showdown ? module.showdown(view) : null,
    ownerActions: module.ownerActions ? module.ownerActions(view) : null,
    actionGroups: module.actionGroups ? module.actionGroups(view.legal_actions) : null,
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
    if game == "five-card-draw":
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
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
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


# --- the event sentences (events.js) -------------------------------------------------------------

# Samples of a field's value by its annotation, for the event types a played table did not record
# (sitting out, a farmer's hand...): the event is built, then seen through the game's view_event as
# the events API would show it.
SAMPLES: dict[str, Any] = {
    "int": 1,
    "bool": False,
    "str | None": None,
    "tuple[int, ...]": (1, 2),
    "tuple[str, ...]": ("Ah", "Kd", "9s"),
    "tuple[tuple[int, int], ...]": ((1, 2),),
    "tuple[tuple[int, str], ...]": ((1, "Ah"), (2, "Kd")),
    "Plays": ((1, "Ah"), (2, "Kd")),
}
STRINGS = {"card": "Qh", "face_up": "Qh", "reason": "left", "pattern": "3-2", "suit": "h", "purpose": "stalemate"}


def sample_event(game: str, cls: type, seq: int) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        kind = field.type if isinstance(field.type, str) else str(field.type)
        if kind == "str":
            values[field.name] = STRINGS.get(field.name, "x")
        elif kind in SAMPLES:
            values[field.name] = SAMPLES[kind]
        else:
            raise AssertionError(f"no sample for {cls.__name__}.{field.name}: {kind}")
    event = cls(**values)
    data = json.loads(json.dumps(money_shown(registry.get(game).view_event(event, 0), None)))
    item = {
        "seq": seq,
        "type": cls.__name__,
        "hand_no": 1,
        "actor": None,
        "actor_kind": "bot",
        "actor_seat": 1,
        "created_at": "2026-01-01T00:00:00Z",
        "data": data,
    }
    # The sentence the events API adds with sentences=true (its players by seat: no table here).
    with translation.override("en"):
        return {**item, "sentence": parts_of(describe(registry.get(game).sentences, item), {})}


def events_of_every_type(game: str) -> list[dict[str, Any]]:
    """The played table's events, and a sample of every event type it did not record."""
    events = list(play_events(game))
    seen = {event["type"] for event in events}
    missing = sorted(set(event_types_by_name(registry.get(game))) - seen)
    types = event_types_by_name(registry.get(game))
    return events + [sample_event(game, types[name], 100_000 + n) for n, name in enumerate(missing)]


@pytest.mark.django_db(transaction=True)
def test_every_event_of_every_game_reads_as_a_sentence():
    """Each line is the server's sentence: its text, its cards as card elements in order. No raw
    type name, no undefined, no object, no placeholder left; the cards shown are cards of the
    event's own data (nothing invented, nothing hidden); the line keeps data-seq and data-type."""
    games = {game: events_of_every_type(game) for game in sorted(EVENT_TABLES)}
    with browser_page() as page:
        for game, events in games.items():
            lines = page.evaluate("(events) => window.sentences(events)", events)
            assert not page.errors, (game, page.errors)
            assert {line["type"] for line in lines} == set(event_types_by_name(registry.get(game))), game
            for event, line in zip(events, lines, strict=True):
                where = (game, event["type"], line["text"])
                assert line["tag"] == "LI" and line["seq"] == str(event["seq"]) and line["type"] == event["type"], where
                words = line["text"].removeprefix(f"#{event['seq']} ")
                assert words.strip() and event["type"] not in words, where
                for wrong in ("undefined", "[object", "NaN", "null", "%("):
                    assert wrong not in words, where
                assert " acts" not in words, where  # every known type has its own sentence
                assert set(line["cards"]) <= codes_in(event["data"]), where
                assert line["elements"] == 0, where  # text and cards only
                # Drawn as the server said it: its text, its cards in order.
                assert words == event["sentence"]["text"], where
                said = [code for part in event["sentence"]["parts"] for code in part.get("cards", [])]
                assert line["cards"] == said, where


def test_an_event_without_a_sentence_reads_as_its_player_acting():
    events = [
        {"seq": 7, "type": "SomethingNew", "actor": None, "actor_kind": "bot", "actor_seat": 2, "data": {"seat": 2}},
        {"seq": 8, "type": "<b>Odd</b>", "actor": "ana", "actor_kind": "user", "actor_seat": None, "data": {}},
        {"seq": 9, "type": "Nobody", "actor": None, "actor_kind": "system", "actor_seat": None, "data": {}},
    ]
    with browser_page() as page:
        lines = page.evaluate("(events) => window.sentences(events)", events)
    assert [line["text"] for line in lines] == ["#7 seat 2 acts", "#8 ana acts", "#9 Something happens at the table"]
    assert [line["type"] for line in lines] == ["SomethingNew", "<b>Odd</b>", "Nobody"]
    assert all(line["elements"] == 0 for line in lines)


def test_a_sentence_is_drawn_as_text_and_cards_never_as_markup():
    parts = [{"text": "<img src=x onerror=alert(1)> plays "}, {"cards": ["Qh", "Td"]}, {"text": " <b>now</b>"}]
    sentence = {"text": "<img src=x onerror=alert(1)> plays Qh Td <b>now</b>", "parts": parts}
    event = {"seq": 3, "type": "CardPlayed", "actor": None, "actor_seat": 1, "data": {}, "sentence": sentence}
    with browser_page() as page:
        (line,) = page.evaluate("(events) => window.sentences(events)", [event])
        assert not page.errors, page.errors
    assert line["text"] == "#3 <img src=x onerror=alert(1)> plays Qh Td <b>now</b>"
    assert line["cards"] == ["Qh", "Td"]
    assert line["elements"] == 0


# --- Five-Card Draw's showdown and the owner's commands ------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_five_card_draw_gives_its_showdown_and_the_owner_s_end_of_a_cash_table():
    views, _events = play_table("five-card-draw")
    moment = views["showdown"]
    state = moment["state"]
    with browser_page() as page:
        answers = page.evaluate("([slug, view]) => window.answers(slug, view)", ["five-card-draw", moment])
        drawn = draw(page, "five-card-draw", moment)
        finished = page.evaluate("([slug, view]) => window.answers(slug, view)", ["five-card-draw", views["finished"]])
    shown = state["last_hand"]["showdown"]
    shares = state["last_hand"]["shares"]
    winners = {share["seat"] for share in shares if not share.get("returned")}
    returned = {share["seat"] for share in shares if share.get("returned")} - winners
    entries = answers["showdown"]
    assert [entry["seat"] for entry in entries] == [hand["seat"] for hand in shown]
    for entry, hand in zip(entries, shown, strict=True):
        assert entry["cards"] == hand["cards"]
        assert entry["category"] == hand["category"] and entry["category_name"] == hand["category_name"]
        assert entry["description"].startswith(hand["description"])
        expected = "wins" if hand["seat"] in winners else "returned" if hand["seat"] in returned else "loses"
        assert entry["outcome"] == expected
        assert entry["tie_break"] == []
    # The panel no longer shows the hands a second time: only the seat's own and face-up cards.
    assert set(drawn["cards"]) <= set((state.get("hand") or {}).get("your_cards") or []) | {
        card for player in state["players"] for card in player.get("face_up") or []
    }
    # A cash table: its owner may end it, until the end is asked for.
    assert state["format"] == "cash" and not state["end_requested"]
    assert answers["ownerActions"] == [{"type": "end_table"}]
    assert finished["ownerActions"] == []


def whiskey_view(**state: Any) -> dict[str, Any]:
    return {
        "game": "whiskey-poker",
        "status": "running",
        "owner": "ana",
        "your_seat": None,
        "legal_actions": [],
        "state": state,
    }


def test_whiskey_poker_offers_the_owner_the_end_of_a_pot_match_only():
    with browser_page() as page:
        asked = [
            page.evaluate("([slug, view]) => window.answers(slug, view)", ["whiskey-poker", whiskey_view(**state)])
            for state in (
                {"scoring": "pot", "end_requested": False, "finished": False},
                {"scoring": "pot", "end_requested": True, "finished": False},
                {"scoring": "points", "end_requested": False, "finished": False},
                {"scoring": "loser_pays", "end_requested": False, "finished": False},
            )
        ]
    assert [answer["ownerActions"] for answer in asked] == [[{"type": "end_match"}], [], [], []]
    assert all(answer["showdown"] is None for answer in asked)


def widow_turn_with_exchanges(slug: str) -> tuple[Any, int, list[dict[str, Any]]]:
    """A widow game in the engine at the first turn that may exchange one card (WX-3)."""
    decider = registry.get(slug)
    config = decider.configure(4, {})
    state = decider.initial_state(config)
    command: dict[str, Any] = {"type": "start"}
    rng = random.Random(3)
    for _ in range(200):
        ctx = playout_widow.context(f"web-{slug}", decider.hand_no(state) + 1, 4)
        for event in decider.decide(state, command, ctx):
            state = decider.evolve(state, event)
        seat = decider.to_act(state)[0]
        legal = [a for a in decider.legal_actions(state, seat) if a["type"] not in ("sit_out", "sit_in", "leave")]
        if any(action["type"] == "exchange_one" for action in legal):
            return state, seat, decider.legal_actions(state, seat)
        command = {**rng.choice([a for a in legal if a["type"] != "knock"] or legal), "seat": seat}
    raise AssertionError("no turn offered an exchange")


@pytest.mark.parametrize("slug", ["la-viuda", "whiskey-poker"])
def test_wx_3_a_widow_game_offers_one_card_exchange_as_one_choice_of_two_cards(slug):
    """WX-3: every pair (a card of the hand, a card of the widow) is offered; the page shows them as
    one form, a card of each, instead of a button per pair, and the form holds every pair."""
    state, seat, legal = widow_turn_with_exchanges(slug)
    view = json.loads(json.dumps({"legal_actions": legal, "state": registry.get(slug).view(state, seat)}))
    exchanges = [action for action in view["legal_actions"] if action["type"] == "exchange_one"]
    with browser_page() as page:
        groups = page.evaluate("([slug, view]) => window.answers(slug, view)", [slug, view])["actionGroups"]
    assert len(groups) == 1 and groups[0]["type"] == "exchange_one"
    group = groups[0]
    assert group["actions"] == exchanges
    fields = {field["name"]: field for field in group["fields"]}
    assert sorted(fields["give"]["cards"]) == sorted(view["state"]["hand"])
    assert sorted(fields["take"]["cards"]) == sorted(view["state"]["widow"])
    assert len(exchanges) == len(fields["give"]["cards"]) * len(fields["take"]["cards"])
    assert all(field["kind"] == "card" and field["label"] for field in group["fields"])


@pytest.mark.django_db(transaction=True)
def test_fd_11_an_uncalled_bet_given_back_reads_as_returned_not_won():
    """FD-11: a pot of one seat's own chips alone goes back to it; the module says it gets them
    back ("returned"), never that it won them, in the showdown and in the last hand's panel."""
    views, _events = play_table("five-card-draw")
    moment = copy.deepcopy(views["showdown"])
    last = moment["state"]["last_hand"]
    shown = {hand["seat"] for hand in last["showdown"]}
    seat = next(share["seat"] for share in last["shares"] if share["seat"] in shown)
    for share in last["shares"]:
        if share["seat"] == seat:
            share["returned"] = "uncalled_bet"
    with browser_page() as page:
        answers = page.evaluate("([slug, view]) => window.answers(slug, view)", ["five-card-draw", moment])
        drawn = draw(page, "five-card-draw", moment)
    outcomes = {entry["seat"]: entry["outcome"] for entry in answers["showdown"]}
    assert outcomes[seat] == "returned"
    assert "gets back an uncalled bet of" in drawn["text"]
