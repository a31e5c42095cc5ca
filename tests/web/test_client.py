"""The web client in Chromium, by clicking (issue 17's "Done when"): a person signs up, receives a
deposit, opens a La Viuda money table with bots, plays it to the end, reads the tie-break, opens
the last hand's audit and sees it verified; a table of every other game is played for a hand; a
tampered audit is shown as not verified; the Spanish and Persian pages render, with screenshots
of a table page in each language under var/screenshots/.

The pages are driven only through the DOM hooks of the client's contract (tests/web/client.py)."""

from __future__ import annotations

import random
import secrets

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.engine import presence, registry
from tests.web import api, tie
from tests.web.client import (
    create_table,
    play,
    seat_and_fill,
    seat_and_start,
    set_client_seed,
    sign_in,
    sign_up,
    start,
    wait_for_change,
)

# Small tables that end quickly (each game's option names, as the create-table form names its inputs).
OTHER_GAMES = {
    "euchre": (4, {"target_points": 1}, {"currency": "MXN", "amount": "1.00"}),
    "five-card-draw": (
        3,
        {"format": "tournament", "starting_stack": 10},
        {"currency": "MXN", "amount": "1.00"},
    ),
    "guerra": (3, {"max_rounds": 20}, {"currency": "MXN", "amount": "1.00"}),
    "whiskey-poker": (3, {"chips_per_player": 2}, {"currency": "MXN", "chip_value": "1.00"}),
}


def username() -> str:
    return f"web{secrets.token_hex(4)}"


def last_hand(staff: api.Client, table_id: str) -> int:
    return api.finished_hands(staff, table_id)


def open_hand(page, table_id: str, hand_no: int) -> None:
    """From the table page: its hand list, then one hand."""
    page.goto(f"/#/tables/{table_id}")
    page.locator("a#hands-link").click()
    page.locator(f"#hands a[data-hand='{hand_no}']").click()
    page.locator("#history li").first.wait_for()
    page.locator("#audit").wait_for()


@pytest.mark.long
def test_a_person_plays_a_la_viuda_money_table_to_the_end_and_sees_the_last_hand_verified(page, web_server, screenshot):
    name = username()
    sign_up(page, name)
    api.deposit(web_server, name, "MXN", "50.00")
    page.reload()
    assert page.locator("#wallet [data-currency=MXN]").inner_text() == "\u2066MX$50.00\u2069"

    options = {"chips_per_player": 1, "max_orbits": 1}
    table_id = create_table(page, "la-viuda", 4, options, {"currency": "MXN", "chip_value": "1.00"})
    seat_and_fill(page, 4)

    # The first hand is made to tie for the worst hand (LV-7), so that the tie-break is read on
    # every run: the person types the client seed tests/web/tie.py found for this table's
    # committed server seed, then knocks or passes as it assumed.
    view = table_view(page, table_id)
    seat = view["your_seat"]
    seed = tie.client_seed_for_a_tie(
        config=registry.get("la-viuda").configure(4, {**options, "chip_value": 100, "currency": "MXN"}),
        table_id=table_id,
        seeds=tie.server_seeds(web_server.data_dir / "db.sqlite3", table_id),
        client_seeds=[""] * 4,
        version=view["version"],
        person=seat,
        extra={"can_afford_widow": dict.fromkeys(range(4), True), "people": [seat]},
    )
    set_client_seed(page, seed)
    start(page)
    play_first_hand(page, table_id)

    # The tie-break as the page shows it: each LV-7 step of the first hand's showdown, in words,
    # as its audit tells them.
    shown = first_showdown(page, table_id)
    audit = hand_audit(page, table_id, 1)
    steps = {step["sentence"] for hand in audit["showdown"] for step in hand.get("tie_break") or []}
    assert shown["visible"], shown
    assert set(shown["steps"]) == steps, (shown, steps)
    assert shown["hands"] == len(audit["showdown"])
    screenshot(page, "la-viuda-tie-break-en")

    # Knocking often ends each hand soon; the seeded choice keeps a failing run repeatable.
    play(page, random.Random(17), until=lambda: False, prefer=("knock",), limit=150)
    page.locator("#table[data-status=finished]").wait_for()
    # An ended table counts down to nothing, from the moment it is drawn ended.
    assert page.locator("#countdown").inner_text() == ""
    assert page.locator(".fairness").is_hidden()
    screenshot(page, "la-viuda-finished-en")

    staff = api.staff(web_server)
    last = last_hand(staff, table_id)
    assert last >= 1
    open_hand(page, table_id, last)
    page.locator("button#verify").click()
    page.locator("#verify-result[data-verified=true]").wait_for()
    assert page.locator("#verify-result").inner_text().strip()
    screenshot(page, "la-viuda-hand-verified-en")

    # The tied hand's own page tells the tie-break too (the history names each step).
    open_hand(page, table_id, 1)
    assert any(step in page.locator("#history").inner_text() for step in steps)
    assert not page.errors  # type: ignore[attr-defined]


# The first hand's showdown box on the table page, read in one evaluation: null until it lists
# tie-break steps.
FIRST_SHOWDOWN = """() => {
  const box = document.querySelector("#last-showdown[data-hand='1']");
  const tieBreak = box && box.querySelector("#tie-break");
  if (!tieBreak || !tieBreak.querySelector("li")) return null;
  return {
    visible: tieBreak.checkVisibility(),
    steps: [...tieBreak.querySelectorAll("li")].map((step) => step.innerText),
    hands: box.querySelectorAll("#showdown [data-seat]").length,
  };
}"""


def first_showdown(page, table_id: str) -> dict:
    """The first hand's showdown as the table page draws it, read in one go (the box is drawn again
    whenever the table moves): whether its tie-break is in sight, the steps it lists and how many
    hands it shows."""
    try:
        found = page.wait_for_function(FIRST_SHOWDOWN)
    except PlaywrightTimeout:
        drawn = page.locator("#last-showdown").get_attribute("data-hand")
        showdown = hand_audit(page, table_id, 1).get("showdown")
        raise AssertionError(
            f"no tie-break of hand 1 on the page, which shows hand {drawn!r}; its audit: {showdown}"
        ) from None
    return found.json_value()


def hand_audit(page, table_id: str, hand_no: int) -> dict:
    return page.evaluate(
        "async ([id, no]) => (await fetch(`/api/v1/tables/${id}/hands/${no}/audit/`)).json()", [table_id, hand_no]
    )


def table_view(page, table_id: str) -> dict:
    return page.evaluate("async (id) => (await fetch(`/api/v1/tables/${id}/`)).json()", table_id)


def play_first_hand(page, table_id: str) -> None:
    """Click as tests/web/tie.py assumed (knock, else pass) until the first hand's showdown, and
    never in the second: the page may still draw the first hand's end while the second one already
    waits for the person, so each click is made only at a version the table's own view says is in
    the first hand."""
    for _ in range(200):
        if page.locator("#tie-break li").count() or page.locator("#showdown [data-seat]").count():
            return
        version = page.locator("#table").get_attribute("data-version") or ""
        kinds = page.locator("#actions [data-action]").evaluate_all("els => els.map((e) => e.dataset.action)")
        view = table_view(page, table_id)
        if view["state"]["hand_no"] > 1:
            return
        if not set(kinds) - presence.COMMANDS or str(view["version"]) != version:
            # Not the person's turn (only sit out and leave), or the page not yet at the table's version.
            wait_for_change(page, version, timeout=1000)
            continue
        page.locator(f"#actions [data-action={tie.person_choice(kinds)}]").first.click()
        wait_for_change(page, version)
    raise AssertionError("the first hand did not reach its showdown")


@pytest.mark.parametrize("game", sorted(OTHER_GAMES))
def test_a_table_of_each_other_game_is_played_for_a_hand_by_clicking(page, web_server, screenshot, game):
    seats, options, stake = OTHER_GAMES[game]
    name = username()
    sign_up(page, name)
    api.deposit(web_server, name, "MXN", "50.00")
    page.reload()
    page.locator("#wallet [data-currency=MXN]").wait_for()
    table_id = create_table(page, game, seats, options, stake)
    seat_and_start(page, seats)
    staff = api.staff(web_server)
    play(page, random.Random(5), until=lambda: last_hand(staff, table_id) >= 1, limit=120)
    assert last_hand(staff, table_id) >= 1
    page.locator("#game").wait_for()
    screenshot(page, f"{game}-en")
    assert not page.errors  # type: ignore[attr-defined]


def test_a_tampered_audit_is_shown_as_not_verified(page, web_server):
    # A hand played through the API; the person then looks at it in the browser, where the audit
    # the page receives has one card of its deck changed on the way.
    player = api.register(web_server, username())
    api.deposit(web_server, player.username, "MXN", "50.00")
    table_id = api.table_with_bots(player, "whiskey-poker")
    api.play_until(player, table_id, hands=1)
    sign_in(page, player.username)

    def tamper(route):
        audit = route.fetch().json()
        audit["deck"][3] = next(card for card in audit["deck"][4:] if card != audit["deck"][3])
        route.fulfill(json=audit)

    page.route("**/hands/1/audit/", tamper)
    open_hand(page, table_id, 1)
    page.locator("button#verify").click()
    page.locator("#verify-result[data-verified=false]").wait_for()

    page.unroute("**/hands/1/audit/")
    open_hand(page, table_id, 1)
    page.locator("button#verify").click()
    page.locator("#verify-result[data-verified=true]").wait_for()


# Euchre's turn_seconds label, its deal_pattern choice 2-3, and La Viuda's name, in each language.
LABELS = {
    "en": ("Turn time (seconds)", "Two cards, then three", "La Viuda"),
    "es-mx": ("Tiempo por turno (segundos)", "Dos cartas y luego tres", "La Viuda"),
    "fa": ("زمان هر نوبت (ثانیه)", "دو کارت، سپس سه کارت", "لا ویودا"),
}


@pytest.mark.parametrize(("language", "direction"), [("en", "ltr"), ("es-mx", "ltr"), ("fa", "rtl")])
def test_a_table_page_renders_in_each_language(page, web_server, screenshot, language, direction):
    player = api.register(web_server, username())
    api.deposit(web_server, player.username, "MXN", "50.00")
    table_id = api.table_with_bots(player, "la-viuda")
    sign_in(page, player.username)
    english = page.locator("main").inner_text()

    if language != "en":
        # The language select reloads the page in the chosen language.
        with page.expect_navigation():
            page.locator("#language").select_option(language)
    page.locator("#wallet").wait_for()
    html = page.locator("html")
    assert html.get_attribute("lang").lower() == language
    assert (html.get_attribute("dir") or "ltr") == direction
    lobby = page.locator("main").inner_text()
    if language == "fa":
        assert any("\u0600" <= ch <= "\u06ff" for ch in lobby), lobby[:200]
    if language != "en":
        assert lobby != english  # the lobby is in the chosen language
    # Players read an option's label and a choice's words, not the machine names (which stay the
    # inputs' names and values), and a table's game by its name rather than its slug.
    form = page.locator("form#create-table")
    form.locator("select[name=game]").select_option("euchre")
    assert form.locator("label[for=create-turn_seconds]").inner_text() == LABELS[language][0]
    assert form.locator("select[name=deal_pattern] option[value='2-3']").inner_text() == LABELS[language][1]
    assert page.locator(f"#open-tables a[data-table='{table_id}']").inner_text() == LABELS[language][2]

    page.goto(f"/#/tables/{table_id}")
    page.locator("#table[data-status]").wait_for()
    page.locator("#seats").wait_for()
    screenshot(page, f"table-{language}")
    # A phone-sized screen as well: the same page in a single column.
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, f"table-{language}-phone")
    assert page.locator("html").get_attribute("lang").lower() == language
    table_text = page.locator("#table").inner_text()
    if language == "fa":
        assert any("\u0600" <= ch <= "\u06ff" for ch in table_text), table_text[:200]
    if language == "es-mx":
        # Words of the table page itself (the client's catalogue), not only the server's.
        # ("Seats" is now the felt's label, not a heading; "Events" reads "Sucesos".)
        assert {"Mesa", "Asientos", "Sucesos", "Manos"} & set(table_text.replace(":", " ").split()), table_text[:200]
    assert not page.errors  # type: ignore[attr-defined]
