"""The Five-Card Draw module of the table page with a top-up (FD-13) and the one draw action
(FD-7): a player short of the forced bet reads the server's notice and gets a chips field within
the offered range; the draw's form offers the aces of ``show_ace`` and sends ``show`` only for
the counts that need it. Views made by the engine itself (pure tables of tests/rules), drawn in
headless Chromium."""

from __future__ import annotations

from typing import Any

from games.engine.words import english
from games.rules.five_card_draw import DECIDER
from tests.rules.draw_decks import table
from tests.rules.test_draw_top_up import short_at_blinds
from tests.web.test_game_modules import browser_page, draw

BUILD = """async ([action, built, view]) => {
  const module = await import("/web/games/five-card-draw.js");
  const t = (msgid, values) => values ? msgid.replace(/%\\((\\w+)\\)s/g, (w, n) => n in values ? String(values[n]) : w) : msgid;
  const nt = (singular, plural, count, values) => t(count === 1 ? singular : plural, { count, ...(values || {}) });
  const cardElement = (code) => { const card = document.createElement("span"); card.dataset.card = code; return card; };
  const ctx = { you: view.your_seat, t, nt, cardElement, playerName: (seat) => "seat " + seat };
  module.render(view, ctx);
  const fields = module.actionFields(action, ctx);
  return {
    label: module.describeAction(action, ctx),
    radios: [...fields.querySelectorAll("input[type=radio]")].map((input) => input.value),
    text: fields.textContent,
    built: fields.build(built, action),
  };
}"""


def page_view(state: Any, seat: int) -> dict[str, Any]:
    """The table page's view of ``seat``: the engine's view (its words in English) and legal actions."""
    seen = DECIDER.view(state, seat)
    seen["notice"] = english(seen["notice"]) if seen["notice"] is not None else None
    for kind in ("hand", "last_hand"):
        if seen.get(kind):
            for shown in seen[kind].get("showdown", []):
                for key in ("category_name", "description", "low_category_name", "low_description"):
                    shown[key] = english(shown[key]) if shown.get(key) is not None else None
    return {"your_seat": seat, "legal_actions": DECIDER.legal_actions(state, seat), "state": seen}


def test_fd_13_the_page_tells_a_short_player_and_offers_a_chips_field():
    view = page_view(short_at_blinds().state, 2)
    top_up = next(action for action in view["legal_actions"] if action["type"] == "top_up")
    with browser_page() as page:
        shown = draw(page, "five-card-draw", view)
        assert not page.errors, page.errors
        assert view["state"]["notice"] in shown["text"]
        assert "too few chips for the forced bet" in shown["text"]
        index = view["legal_actions"].index(top_up)
        assert shown["labels"][index] == "Top up"
        chips = [field for field in shown["fields"][index]["inputs"] if field["name"] == "chips"]
        assert chips and (chips[0]["min"], chips[0]["max"]) == ("1", str(top_up["max"]))
        made = page.evaluate(BUILD, [top_up, {"type": "top_up", "chips": "40"}, view])
        assert made["built"] == {"type": "top_up", "chips": 40}


def test_fd_7_the_draw_form_shows_the_aces_and_sends_show_only_when_needed():
    hands = {0: "As 5d 8h Tc Qc", 1: "3c 6d 9h Js Kd", 2: "4c 7d 9c Th Kh"}
    t = table(3, {"opening": "anything_opens", "ace_rule": "four_with_ace"}, button=2, hands=hands)
    for seat in (0, 1, 2):
        t.act(seat, "check")
    view = page_view(t.state, 0)
    (action,) = [option for option in view["legal_actions"] if option["type"] == "draw"]
    assert action["show_ace"] == {"min": 4, "max": 4, "aces": ["As"], "keep": True}
    with browser_page() as page:
        four = page.evaluate(BUILD, [action, {"type": "draw", "discard": ["5d", "8h", "Tc", "Qc"], "show": "As"}, view])
        assert four["radios"] == ["As"] and "show an ace and keep it" in four["text"] and four["label"] == "Draw"
        assert four["built"] == {"type": "draw", "discard": ["5d", "8h", "Tc", "Qc"], "show": "As"}
        two = page.evaluate(BUILD, [action, {"type": "draw", "discard": ["5d", "8h"], "show": "As"}, view])
        assert two["built"] == {"type": "draw", "discard": ["5d", "8h"]}
        assert not page.errors, page.errors
