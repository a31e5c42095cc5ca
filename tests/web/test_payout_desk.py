"""The payout desk and the reports (issue 26) in Chromium: carol and dave leave a Five-Card Draw cash
table with about 1,200.00 MXN each, above the two-person limit; sam approves carol's payout, is
refused a second approval in the API's words, and tina gives it; sam rejects dave's with a reason
(refused first without one). Two large deposits recorded by another member of staff wait on the
desk: sam approves one and rejects the other. The reports page shows the API's figures in the
page's language; ``reconcile`` passes."""

from __future__ import annotations

import secrets
import time

from tests.api.server import manage
from tests.web.api import staff
from tests.web.client import sign_in
from tests.web.desks import arrives, balance, fund, person

CASH = {"format": "cash", "max_buy_in": 100}
STAKE = {"currency": "MXN", "chip_value": "12.00"}  # 100 chips: 1,200.00 MXN


def pending_payouts(server, table_id: str) -> list[dict]:
    page = staff(server).ok("GET", "/payouts/?status=pending&order=oldest&limit=100")
    return [p for p in page["results"] if p["table_id"] == table_id]


def pending_as_shown(page, address: str) -> tuple[str, int]:
    """The reports page's count of pending payouts and the API's, read between two equal answers of
    the API (other tables of the shared server may open payouts meanwhile)."""
    report = "async () => (await fetch('/api/v1/payouts/report/')).json()"
    for _ in range(5):
        before = page.evaluate(report)["pending"]
        page.goto(address)
        page.reload()
        page.locator("#payouts-report [data-figure=pending]").wait_for()
        shown = page.locator("#payouts-report [data-figure=pending]").inner_text()
        if page.evaluate(report)["pending"] == before:
            return shown, before
    raise AssertionError("the pending payouts kept changing")


def item(page, kind: str, number) -> object:
    return page.locator(f"#{kind}s li[data-{kind}='{number}']")


def test_payouts_and_large_deposits_are_decided_on_the_desk_by_two_people(page, chromium, web_server, screenshot):
    tag = secrets.token_hex(3)
    carol, dave = person(web_server, f"carol{tag}"), person(web_server, f"dave{tag}")
    erin = person(web_server, f"erin{tag}")
    sam, tina = f"sam{tag}", f"tina{tag}"
    person(web_server, sam, staff=True)
    person(web_server, tina, staff=True)
    for who in (carol, dave):
        fund(web_server, who.username, 1200)
    table_id = carol.ok("POST", "/tables/", {"game": "five-card-draw", "seats": 3, "options": CASH, "stake": STAKE})[
        "id"
    ]
    carol.ok("POST", f"/tables/{table_id}/join/", {"seat": 0, "chips": 100})
    dave.ok("POST", f"/tables/{table_id}/join/", {"seat": 1, "chips": 100})
    carol.ok("POST", f"/tables/{table_id}/bots/", {"seat": 2})
    carol.ok("POST", f"/tables/{table_id}/start/")
    for who in (carol, dave):
        who.ok("POST", f"/tables/{table_id}/leave/")
    deadline = time.monotonic() + 60
    while len(pending_payouts(web_server, table_id)) < 2:
        assert time.monotonic() < deadline, "the cash table's payouts did not open"
        time.sleep(0.2)  # the hand under way ends by the bots' play and the turn timer
    payouts = {p["player"]: p for p in pending_payouts(web_server, table_id)}
    carols, daves = payouts[carol.username], payouts[dave.username]
    assert carols["approvals_needed"] == 2 and daves["approvals_needed"] == 2

    boss = staff(web_server)
    kept = boss.call("POST", f"/wallets/{erin.username}/deposits/", {"currency": "MXN", "amount": "1500.00"})[1]
    refused = boss.call("POST", f"/wallets/{erin.username}/deposits/", {"currency": "MXN", "amount": "2000.00"})[1]
    kept_id, refused_id = kept["pending_deposit"], refused["pending_deposit"]

    sign_in(page, sam)
    page.locator("#desks a[href='#/desk/payouts']").click()
    carol_item = item(page, "payout", carols["id"])
    carol_item.wait_for()
    assert carol_item.locator("a.audit-link").count() == 1
    carol_item.locator("button[data-decide=approve]").click()
    arrives(page, f"#payouts li[data-payout='{carols['id']}'] .approvals[data-approvals='1']")
    screenshot(page, "payout-desk-en")
    item(page, "payout", carols["id"]).locator("button[data-decide=approve]").click()
    page.locator("#errors p[data-code=second_approver_needed]").wait_for()

    dave_item = item(page, "payout", daves["id"])
    dave_item.locator("button[data-decide=reject]").click()
    page.locator("#errors p").wait_for()  # a rejection needs its reason: the API says so
    assert staff(web_server).ok("GET", "/payouts/?status=pending&limit=100")["results"]
    dave_item.locator("input[name=reason]").fill("Left mid-hand from a shared address; hold for review.")
    dave_item.locator("button[data-decide=reject]").click()
    page.wait_for_function(f"() => !document.querySelector(\"#payouts li[data-payout='{daves['id']}']\")")

    item(page, "deposit", kept_id).locator("button[data-decide=approve]").click()
    page.wait_for_function(f"() => !document.querySelector(\"#deposits li[data-deposit='{kept_id}']\")")
    rejected_item = item(page, "deposit", refused_id)
    rejected_item.locator("input[name=reason]").fill("The transfer never arrived.")
    rejected_item.locator("button[data-decide=reject]").click()
    page.wait_for_function(f"() => !document.querySelector(\"#deposits li[data-deposit='{refused_id}']\")")
    assert balance(erin) == 150000
    states = {d["id"]: d["state"] for d in boss.ok("GET", "/deposits/?limit=100")["results"]}
    assert (states[kept_id], states[refused_id]) == ("approved", "rejected")

    # tina, the second person: carol's payout reaches her wallet.
    before = balance(carol)
    other = chromium.new_context(viewport={"width": 1280, "height": 800}, base_url=web_server.url)
    other.set_default_timeout(15_000)
    second = other.new_page()
    sign_in(second, tina)
    second.goto("/#/desk/payouts")
    item(second, "payout", carols["id"]).locator("button[data-decide=approve]").click()
    second.wait_for_function(f"() => !document.querySelector(\"#payouts li[data-payout='{carols['id']}']\")")
    assert balance(carol) - before == carols["amount_minor"]

    # The reports page: the API's figures, in English and in Persian.
    shown, pending = pending_as_shown(second, "/#/desk/reports")
    assert shown == str(pending)
    disputes = second.evaluate("async () => (await fetch('/api/v1/disputes/report/')).json()")
    assert second.locator("#disputes-report [data-figure=total]").inner_text() == str(disputes["total"])
    shown, pending = pending_as_shown(second, "/?lang=fa#/desk/reports")
    assert shown == str(pending).translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
    screenshot(second, "reports-fa")
    other.close()

    done = manage(web_server, "reconcile")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not page.errors, page.errors
