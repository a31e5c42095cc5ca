"""A person at the web client, driven through the contract's DOM hooks only (the lobby's forms,
``#table[data-status][data-version]``, ``#actions [data-action]``, ``#hands``, ``#verify``...), so
the tests keep passing however the pages are laid out."""

from __future__ import annotations

import random
import time

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

PASSWORD = "a long passphrase 42"
PRESENCE = {"sit_out", "sit_in", "leave"}  # being there or not is not a move of the game


def sign_up(page: Page, username: str, password: str = PASSWORD) -> None:
    page.goto("/")
    form = page.locator("form#signup")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(password)
    form.locator("[type=submit]").click()
    page.locator("#wallet").wait_for()


def sign_in(page: Page, username: str, password: str = PASSWORD, *, url: str = "/") -> None:
    page.goto(url)
    form = page.locator("form#signin")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(password)
    form.locator("[type=submit]").click()
    page.locator("#wallet").wait_for()


def create_table(page: Page, game: str, seats: int, options: dict, stake: dict) -> str:
    """Open a table from the lobby's form; the id of the table page it leads to."""
    form = page.locator("form#create-table")
    form.locator("select[name=game]").select_option(game)
    form.locator("input[name=seats]").fill(str(seats))
    # The options left as they are: their inputs emptied, so the server applies its defaults (an
    # option filled with its default may be one the other options refuse, e.g. Whiskey Poker's
    # lives with pot scoring).
    games = page.evaluate("async () => (await fetch('/api/v1/games/')).json()")
    for option in next(g for g in games if g["slug"] == game)["options"]:
        field = form.locator(f"input[name={option['name']}]:not([type=checkbox])")
        if option["name"] not in options and field.count():
            field.fill("")
    for name, value in options.items():
        field = form.locator(f"[name={name}]")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        elif field.get_attribute("type") == "checkbox":
            field.set_checked(bool(value))
        else:
            field.fill(str(value))
    for name, value in stake.items():
        form.locator(f"input[name={name}]").fill(str(value))
    invalid = form.evaluate(
        "f => [...f.elements].filter((e) => e.willValidate && !e.checkValidity()).map((e) => `${e.name}: ${e.validationMessage}`)"
    )
    assert not invalid, invalid
    form.locator("[type=submit]").click()
    try:
        page.wait_for_function("/^#\\/tables\\/[^/]+$/.test(location.hash)")
    except PlaywrightTimeout:
        raise AssertionError(f"no table opened: {page.locator('#errors').inner_text()}") from None
    page.locator("#table[data-status=open]").wait_for()
    return page.url.rsplit("/", 1)[1]


def seat_and_fill(page: Page, seats: int) -> None:
    """Join the table and fill the other seats with bots, by clicking."""
    with page.expect_response(lambda answer: answer.url.endswith("/join/") and answer.ok):
        page.locator("button#join").click()
    for _ in range(seats - 1):
        with page.expect_response(lambda answer: answer.url.endswith("/bots/") and answer.ok):
            page.locator("button#add-bot").click()
        page.locator("button#add-bot").wait_for()  # drawn again after the table was reloaded


def start(page: Page) -> None:
    """Start the table, by clicking."""
    with page.expect_response(lambda answer: answer.url.endswith("/start/") and answer.ok):
        page.locator("button#start").click()
    page.locator("#table:not([data-status=open])").wait_for()


def seat_and_start(page: Page, seats: int) -> None:
    """Join the table, fill the other seats with bots and start it, by clicking."""
    seat_and_fill(page, seats)
    start(page)


def set_client_seed(page: Page, seed: str) -> None:
    """Type the seat's client seed on the table page and save it."""
    page.locator("input#client-seed").fill(seed)
    with page.expect_response(lambda answer: answer.url.endswith("/client-seed/") and answer.ok):
        page.locator("button#set-client-seed").click()
    page.locator("#client-seed-saved:not(:empty)").wait_for()


def _version(page: Page) -> str:
    return page.locator("#table").get_attribute("data-version") or ""


def wait_for_change(page: Page, version: str, timeout: float = 5000) -> bool:
    """Wait until the table view is drawn at another version (or ends); False when it was not."""
    try:
        page.wait_for_function(
            "v => { const t = document.querySelector('#table');"
            " return t && (t.dataset.version !== v || t.dataset.status === 'finished'); }",
            arg=version,
            timeout=timeout,
        )
        return True
    except PlaywrightTimeout:
        return False


def _choose(page: Page, rng: random.Random, prefer: tuple[str, ...], prefer_odds: float):
    # The kinds read in one go: the controls are drawn again whenever the table moves.
    controls = page.locator("#actions [data-action]")
    kinds = controls.evaluate_all("els => els.map((e) => e.dataset.action)")
    found = [(kind, index) for index, kind in enumerate(kinds) if kind and kind not in PRESENCE]
    if not found:
        return None
    preferred = [item for item in found if item[0] in prefer]
    kind, index = rng.choice(preferred) if preferred and rng.random() < prefer_odds else rng.choice(found)
    return kind, controls.nth(index)


def _fill_and_submit(form, rng: random.Random) -> None:
    """An action form: one card of each radio group, any number inputs left at what they offer, then submit."""
    radios = form.locator("input[type=radio]")
    names = {radios.nth(i).get_attribute("name") for i in range(radios.count())}
    for name in names:
        group = form.locator(f"input[type=radio][name='{name}']")
        group.nth(rng.randrange(group.count())).check()
    form.locator("[type=submit]").click()


def click_one_action(page: Page, rng: random.Random, prefer: tuple[str, ...] = (), prefer_odds: float = 0.5) -> bool:
    """Click one of the legal actions at random (seeded), and wait for the table to move on; False
    when there was nothing to click (someone else's turn)."""
    chosen = _choose(page, rng, prefer, prefer_odds)
    if chosen is None:
        return False
    _kind, control = chosen
    version = _version(page)
    try:
        if control.evaluate("e => e.tagName", timeout=2000) == "FORM":
            _fill_and_submit(control, rng)
        else:
            control.click(timeout=2000)
    except PlaywrightError:
        return True  # the controls were drawn again under the click (a bot or the stream moved): look again
    wait_for_change(page, version)
    return True


def play(page: Page, rng: random.Random, *, until, prefer: tuple[str, ...] = (), limit: float = 90) -> None:
    """Click through the person's turns until ``until()`` says enough (or the table ends)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if page.locator("#table").get_attribute("data-status") == "finished" or until():
            return
        if not click_one_action(page, rng, prefer):
            wait_for_change(page, _version(page), timeout=1000)
    raise AssertionError(f"the table did not get there in {limit} s by clicking")
