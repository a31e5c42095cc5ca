"""Your money in Chromium (issue 25): two people's Euchre money table ends, on opposite teams so
one of them wins; the table's page says what each seat won or lost in money, as the view's
`result` says, and where the winner's prize is (a payout waiting for staff review, linked to the
wallet). On the wallet page the payout waits; staff approve it through the API and the wallet page
shows it approved, with its reason and the line that paid it, and the table's page "paid into the
wallet", neither reloaded. On a 390 px phone, in
English and in Persian (right to left), the wallet page is no wider than the screen."""

from __future__ import annotations

import secrets

from tests.web.api import staff
from tests.web.client import sign_in
from tests.web.desks import balance, fund, person, play_to_the_end

PHONE = {"width": 390, "height": 844}
EUCHRE = {
    "game": "euchre",
    "seats": 4,
    "options": {"target_points": 3},
    "stake": {"currency": "MXN", "amount": "10.00"},
}


def overflow(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def test_a_money_tables_result_and_its_payouts_approval_reach_the_wallet_page(chromium, web_server, screenshot):
    tag = secrets.token_hex(3)
    alice, bob = person(web_server, f"alice{tag}"), person(web_server, f"bob{tag}")
    for who in (alice, bob):
        fund(web_server, who.username, 100)
    table_id = alice.ok("POST", "/tables/", EUCHRE)["id"]
    alice.ok("POST", f"/tables/{table_id}/join/", {"seat": 0})
    bob.ok("POST", f"/tables/{table_id}/join/", {"seat": 1})  # seats 0 and 2 are partners: bob is not alice's
    for seat in (2, 3):
        alice.ok("POST", f"/tables/{table_id}/bots/", {"seat": seat})
    alice.ok("POST", f"/tables/{table_id}/start/")
    final = play_to_the_end([alice, bob], table_id)
    lines = {line["seat"]: line for line in final["result"]}
    winning = next(seat for seat in (0, 1) if lines[seat]["payout"])
    winner, loser = (alice, bob) if winning == 0 else (bob, alice)
    payout = lines[winning]["payout"]
    assert payout["status"] == "pending"

    context = chromium.new_context(viewport=PHONE, base_url=web_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        sign_in(page, winner.username)
        page.goto(f"/#/tables/{table_id}")
        page.locator("#game-result li[data-seat]").first.wait_for()
        # Each person's result in money, as the view says it: the winner's prize waits for review.
        for seat in (0, 1):
            net = page.locator(f"#game-result li[data-seat='{seat}'] .net")
            assert net.get_attribute("data-net-minor") == str(lines[seat]["net_minor"])
        lost = page.locator(f"#game-result li[data-seat='{1 - winning}']")
        assert "lost" in lost.locator(".net").inner_text() and "10.00" in lost.inner_text()
        assert page.locator(f"#game-result li[data-seat='{winning}']").get_attribute("data-payouts") == "pending"
        assert overflow(page) <= 0, overflow(page)
        screenshot(page, "wallet-table-result-phone-en")

        # The table page stays open; the wallet, through the result's link, opens beside it.
        table_page = page
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(web_server.url + "/" + table_page.locator("#result-wallet-link").get_attribute("href"))
        waiting = page.locator(f"#my-payouts li[data-payout='{payout['id']}'][data-status=pending]")
        waiting.wait_for()
        assert page.locator("#wallet-lines li[data-kind=buy_in_reserved]").count() >= 1
        for shown_page in (page, table_page):
            shown_page.evaluate("() => { window.notReloaded = true; }")
        shown = page.locator("#wallet-page").get_attribute("data-version")

        staff(web_server).ok("POST", f"/payouts/{payout['id']}/approve/", {"reason": f"clean game {tag}"})
        approved = page.locator(f"#my-payouts li[data-payout='{payout['id']}'][data-status=approved]")
        approved.wait_for()
        # Both pages heard it on /me/stream/: neither was reloaded.
        table_page.locator(f"#game-result li[data-seat='{winning}'][data-payouts=approved]").wait_for()
        assert "paid into the wallet" in table_page.locator(f"#game-result li[data-seat='{winning}']").inner_text()
        for shown_page in (page, table_page):
            assert shown_page.evaluate("() => window.notReloaded === true")
        table_page.close()
        assert page.locator("#wallet-page").get_attribute("data-version") != shown
        assert f"clean game {tag}" in approved.locator(".reason").inner_text()
        page.locator(f"#wallet-lines li[data-kind=payout_paid][data-payout='{payout['id']}']").wait_for()
        held = page.locator("#balances li[data-currency=MXN]").get_attribute("data-minor")
        assert held == str(balance(winner))
        assert overflow(page) <= 0, overflow(page)
        screenshot(page, "wallet-phone-en")

        # The same page in Persian, right to left, in its own words and no wider than the phone.
        page.goto("/?lang=fa#/wallet")
        approved.wait_for()
        assert page.evaluate("() => document.documentElement.dir") == "rtl"
        assert page.locator("main h1").inner_text() == "پول شما"
        assert "Approved" not in approved.inner_text()
        assert overflow(page) <= 0, overflow(page)
        screenshot(page, "wallet-phone-fa")

        # The loser's wallet shows no payout of this table, and their stake paid in words.
        context.clear_cookies()
        sign_in(page, loser.username, url="/?lang=en")
        page.goto("/?lang=en#/wallet")
        page.locator("#wallet-lines li").first.wait_for()
        assert page.locator(f"#my-payouts li[data-payout='{payout['id']}']").count() == 0
        assert "Stake for a game" in page.locator("#wallet-lines").inner_text()
        assert not errors, errors
    finally:
        context.close()
