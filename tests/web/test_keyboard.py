"""The web client with the keyboard alone (issue 17: "can be played with the keyboard"): a person
signs in and plays turns of a Whiskey Poker table, the one-card exchange form included, with Tab,
the arrow keys, Space and Enter; never a mouse click. Cards are named for screen readers in the
page's language."""

from __future__ import annotations

import secrets

from tests.web import api
from tests.web.client import PASSWORD, wait_for_change

# Keys enough to reach any control of the table page from wherever the focus is.
MAX_TABS = 150


def tab_to(page, selector: str) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def sign_in_with_keys(page, username: str) -> None:
    page.goto("/")
    tab_to(page, "form#signin input[name=username]")
    page.keyboard.type(username)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.locator("#wallet").wait_for()


def my_turn(page, timeout: float = 15_000) -> None:
    """Wait for the person's turn: a game action among the controls, not only sit out and leave."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('#actions [data-action]')]"
        ".some((e) => !['sit_out', 'sit_in', 'leave'].includes(e.dataset.action))",
        timeout=timeout,
    )


def table_of(player: api.Client, game: str, options: dict) -> str:
    """A started table of ``game`` for three: the player at seat 0, bots in the others."""
    body = {"game": game, "seats": 3, "options": options, "stake": {"currency": "MXN", "chip_value": "1.00"}}
    table_id = str(player.ok("POST", "/tables/", body)["id"])
    player.ok("POST", f"/tables/{table_id}/join/", {"seat": 0})
    for seat in (1, 2):
        player.ok("POST", f"/tables/{table_id}/bots/", {"seat": seat})
    player.ok("POST", f"/tables/{table_id}/start/")
    return table_id


def test_a_person_plays_whiskey_poker_turns_with_the_keyboard_alone(page, web_server):
    player = api.register(web_server, f"keys{secrets.token_hex(4)}")
    api.deposit(web_server, player.username, "MXN", "50.00")
    # Chips enough that the match outlasts the turns played here, whoever loses the hands.
    table_id = table_of(player, "whiskey-poker", {"scoring": "pot", "chips_per_player": 10})
    sign_in_with_keys(page, player.username)
    page.goto(f"/#/tables/{table_id}")
    page.locator("#table[data-status=running]").wait_for()

    exchanged = passed = 0
    for _ in range(40):
        if page.locator("#table").get_attribute("data-status") != "running" or (exchanged and passed):
            break
        my_turn(page)
        version = page.locator("#table").get_attribute("data-version") or ""
        if page.locator("#actions form[data-action=exchange_one]").count() and not exchanged:
            # The exchange form: Tab into each radio group, an arrow key to move to another card
            # (which also checks it), then Enter on the submit button.
            tab_to(page, "#actions form[data-action=exchange_one] input[name=give]")
            page.keyboard.press("ArrowRight")
            tab_to(page, "#actions form[data-action=exchange_one] input[name=take]")
            page.keyboard.press("ArrowRight")
            give = page.locator("input[name=give]:checked").get_attribute("value")
            take = page.locator("input[name=take]:checked").get_attribute("value")
            tab_to(page, "#actions form[data-action=exchange_one] button[type=submit]")
            page.keyboard.press("Enter")
            assert wait_for_change(page, version, timeout=10_000)
            # The exchange made is the one chosen (the hand may have ended since, so it is read
            # from the events rather than from the hand).
            events = player.ok("GET", f"/tables/{table_id}/events/?after={version}")["results"]
            made = [event["data"] for event in events if event["type"] == "CardExchanged"]
            assert made and (made[0]["seat"], made[0]["gave"], made[0]["took"]) == (0, give, take), (give, take, events)
            exchanged += 1
        else:
            # Any game action but knocking, which would end the hand before an exchange is offered.
            tab_to(page, "#actions button[data-action=pass], #actions button[data-action=exchange_all]")
            page.keyboard.press("Enter" if passed % 2 else "Space")
            assert wait_for_change(page, version, timeout=10_000)
            passed += 1
    assert exchanged and passed, (exchanged, passed)
    assert not page.errors  # type: ignore[attr-defined]


def test_cards_are_named_for_screen_readers_in_the_page_s_language(page, web_server):
    player = api.register(web_server, f"keys{secrets.token_hex(4)}")
    api.deposit(web_server, player.username, "MXN", "50.00")
    table_id = api.table_with_bots(player, "la-viuda")
    sign_in_with_keys(page, player.username)
    page.goto(f"/?lang=es-mx#/tables/{table_id}")
    page.locator(".your-hand .card").first.wait_for()
    cards = page.locator(".your-hand .card").evaluate_all(
        "els => els.map((e) => ({role: e.getAttribute('role'), label: e.getAttribute('aria-label'), code: e.dataset.card}))"
    )
    assert len(cards) == 5
    for card in cards:
        assert card["role"] == "img"
        # "as de corazones", "10 de tréboles", "comodín": the card in Spanish, never its code.
        if card["code"] in ("X1", "X2"):
            assert card["label"] == "comodín", card
        else:
            assert " de " in card["label"] and card["label"] != card["code"], card
