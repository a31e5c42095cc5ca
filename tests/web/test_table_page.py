"""The table page against the running service (issue 17): the heading never shows the game's slug,
the events read as sentences with their seq and type kept as attributes, and the owner of a
Five-Card Draw cash table or of a Whiskey Poker pot match gets the command that ends it."""

from __future__ import annotations

import secrets

from tests.web import api
from tests.web.client import sign_in


def username() -> str:
    return f"web{secrets.token_hex(4)}"


def table_of(player: api.Client, game: str, seats: int, options: dict, stake: dict | None = None) -> str:
    """A table of ``game`` with the player at seat 0 and bots in the rest, started."""
    body = {"game": game, "seats": seats, "options": options, **({"stake": stake} if stake else {})}
    table_id = str(player.ok("POST", "/tables/", body)["id"])
    player.ok("POST", f"/tables/{table_id}/join/", {"seat": 0})
    for seat in range(1, seats):
        player.ok("POST", f"/tables/{table_id}/bots/", {"seat": seat})
    player.ok("POST", f"/tables/{table_id}/start/")
    return table_id


def test_the_heading_is_the_game_s_name_and_never_its_slug(page, web_server):
    player = api.register(web_server, username())
    table_id = table_of(player, "five-card-draw", 3, {"format": "cash"})
    sign_in(page, player.username)
    name = next(game["name"] for game in player.ok("GET", "/games/") if game["slug"] == "five-card-draw")

    page.goto(f"/#/tables/{table_id}")
    page.locator("#table[data-status]").wait_for()
    page.wait_for_function("(name) => document.querySelector('#table h1').textContent === name", arg=name)

    # Without the games list the heading keeps its neutral word.
    page.route("**/api/v1/games/", lambda route: route.abort())
    page.reload()
    page.locator("#table[data-status]").wait_for()
    page.locator("#events li").first.wait_for()
    assert page.locator("#table h1").inner_text() == "Table"
    assert not page.errors  # type: ignore[attr-defined]


def test_the_events_read_as_sentences(page, web_server):
    player = api.register(web_server, username())
    table_id = table_of(player, "five-card-draw", 3, {"format": "cash"})
    sign_in(page, player.username)
    page.goto(f"/#/tables/{table_id}")
    page.locator("#events li").first.wait_for()
    events = player.ok("GET", f"/tables/{table_id}/events/?after=0&sentences=true")["results"]
    lines = page.locator("#events li").evaluate_all(
        "els => els.map((e) => ({seq: e.dataset.seq, type: e.dataset.type, text: e.textContent,"
        " cards: [...e.querySelectorAll('[data-card]')].map((c) => c.dataset.card)}))"
    )
    assert lines
    by_seq = {str(event["seq"]): event for event in events}
    for line in lines:
        event = by_seq[line["seq"]]
        assert line["type"] == event["type"]
        words = line["text"].removeprefix(f"#{line['seq']} ")
        assert words and event["type"] not in words and "undefined" not in words, line
        # The server's sentence, drawn: its words in order, its cards as card elements.
        parts = event["sentence"]["parts"]
        assert line["cards"] == [code for part in parts for code in part.get("cards", [])], line
        at = 0
        for part in parts:
            if "text" in part:
                found = words.find(part["text"], at)
                assert found >= at, (line, part)
                at = found + len(part["text"])
    assert not page.errors  # type: ignore[attr-defined]


def test_the_owner_ends_a_five_card_draw_cash_table(page, web_server):
    player = api.register(web_server, username())
    table_id = table_of(player, "five-card-draw", 3, {"format": "cash"})
    sign_in(page, player.username)
    page.goto(f"/#/tables/{table_id}")
    button = page.locator("#owner-actions button#end-table[data-action=end_table]")
    button.wait_for()
    assert page.locator("#actions #end-table").count() == 0  # not among the seat's legal actions
    button.click()
    # Nothing is sent before the owner confirms, having read what it does to everyone's chips.
    page.locator("#confirm #confirm-words").wait_for()
    assert "wallet" in page.locator("#confirm #confirm-words").inner_text()
    assert player.ok("GET", f"/tables/{table_id}/")["state"]["end_requested"] is False
    page.locator("#confirm-yes[data-confirm=end_table]").click()
    page.locator("#end-table").wait_for(state="detached")
    view = player.ok("GET", f"/tables/{table_id}/")
    assert view["state"]["end_requested"] or view["status"] == "finished"
    assert not page.errors  # type: ignore[attr-defined]


def test_the_owner_ends_a_whiskey_poker_pot_match_and_nobody_else_sees_the_command(page, chromium, web_server):
    player = api.register(web_server, username())
    api.deposit(web_server, player.username, "MXN", "50.00")
    table_id = table_of(
        player, "whiskey-poker", 3, {"scoring": "pot", "chips_per_player": 5}, {"currency": "MXN", "chip_value": "1.00"}
    )
    # Someone else looking at the table: no owner's command.
    other = api.register(web_server, username())
    context = chromium.new_context(base_url=web_server.url)
    try:
        watcher = context.new_page()
        sign_in(watcher, other.username)
        watcher.goto(f"/#/tables/{table_id}")
        watcher.locator("#table[data-status=running]").wait_for()
        watcher.locator("#events li").first.wait_for()
        assert watcher.locator("#end-match").count() == 0
    finally:
        context.close()

    sign_in(page, player.username)
    page.goto(f"/#/tables/{table_id}")
    button = page.locator("#owner-actions button#end-match[data-action=end_match]")
    button.wait_for()
    button.click()
    page.locator("#confirm-yes[data-confirm=end_match]").click()
    page.locator("#end-match").wait_for(state="detached")
    view = player.ok("GET", f"/tables/{table_id}/")
    assert view["state"]["end_requested"] or view["status"] == "finished"
    assert not page.errors  # type: ignore[attr-defined]


def test_a_signed_out_session_ends_the_table_page_s_stream_with_its_words(page, web_server):
    """The table page listens for the stream's last word: signing out (here from another part of
    the same browser) ends the stream the session opened within a second, the page closes it
    rather than reconnect, and shows the server's reason."""
    player = api.register(web_server, username())
    table_id = table_of(player, "five-card-draw", 3, {"format": "cash"})
    sign_in(page, player.username)
    page.goto(f"/#/tables/{table_id}")
    page.locator("#events li").first.wait_for()
    page.evaluate(
        """async () => {
          const csrf = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="))?.split("=")[1];
          await fetch("/api/v1/auth/session/", {method: "DELETE", headers: {"X-CSRFToken": csrf}});
        }"""
    )
    page.locator("#events[data-stream-end=session_ended]").wait_for(timeout=5_000)
    assert "session has ended" in page.locator("body").inner_text()


def test_sitting_out_and_leaving_stand_apart_from_the_moves_and_ask_first(page, web_server):
    """Sit out, sit in and leave are not among the moves beside the hand: they have their own
    place, and sitting out or leaving says first what happens to your chips and money; cancelled,
    nothing is sent."""
    player = api.register(web_server, username())
    api.deposit(web_server, player.username, "MXN", "50.00")
    table_id = table_of(player, "five-card-draw", 3, {"format": "cash"}, {"currency": "MXN", "chip_value": "0.10"})
    sign_in(page, player.username)
    page.goto(f"/#/tables/{table_id}")
    page.locator("#presence button[data-action=leave]").wait_for()
    kinds = page.locator("#actions [data-action]").evaluate_all("els => els.map((e) => e.dataset.action)")
    assert not {"sit_out", "sit_in", "leave"} & set(kinds), kinds

    page.locator("#presence button[data-action=leave]").click()
    words = page.locator("#confirm #confirm-words").inner_text()
    assert "fold" in words and "wallet" in words, words
    page.locator("#confirm-no").click()
    page.locator("#confirm").wait_for(state="hidden")
    assert player.ok("GET", f"/tables/{table_id}/")["seats"][0]["played_by_bot"] is False

    page.locator("#presence button[data-action=sit_out]").click()
    assert "bot plays your seat" in page.locator("#confirm #confirm-words").inner_text()
    page.locator("#confirm-yes[data-confirm=sit_out]").click()
    page.locator("#presence button[data-action=sit_in]").wait_for()
    assert player.ok("GET", f"/tables/{table_id}/")["seats"][0]["played_by_bot"] is True
    page.locator("#presence button[data-action=sit_in]").click()  # coming back needs no warning
    page.locator("#presence button[data-action=sit_out]").wait_for()
    assert not page.errors  # type: ignore[attr-defined]


def test_a_spanish_deck_table_draws_its_cards_in_spanish_suits(page, web_server):
    """GC-1: at a Guerra table of the Spanish deck "2c".."9c" are copas, not clubs: the page draws
    every card (the felt, the events) with the table's deck, from the card set."""
    player = api.register(web_server, username())
    table_id = table_of(player, "guerra", 2, {"deck": "spanish_40", "max_rounds": 10})
    api.play_until(player, table_id, hands=1, limit=60)
    sign_in(page, player.username)
    page.goto(f"/#/tables/{table_id}")
    page.locator("#events li .card[data-card]").first.wait_for()
    cards = page.locator(".card[data-card]").evaluate_all(
        "els => els.map((e) => ({code: e.dataset.card, suit: e.dataset.suit, label: e.getAttribute('aria-label'),"
        " symbols: [...e.querySelectorAll('use')].map((u) => u.getAttribute('href').split('#')[1])}))"
    )
    assert cards
    for card in cards:
        assert card["suit"] in ("oros", "copas", "espadas", "bastos", "joker"), card
        assert card["symbols"] == [card["suit"]], card
        assert not any(word in card["label"] for word in ("clubs", "diamonds", "hearts", "spades")), card
    assert not page.errors  # type: ignore[attr-defined]
