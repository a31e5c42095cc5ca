"""A forgotten password in the browser (issue 25, item 3): a person who gave an address at sign-up
asks for a link from the sign-in form, opens the mailed link, chooses a new password and signs in
with it; the old one no longer works."""

from __future__ import annotations

import re
import secrets
import time

from tests.web.client import PASSWORD, sign_in

LINK = re.compile(r"https?://\S+#/reset/\S+/\S+")


def mailed_link(mail_dir, timeout: float = 15.0) -> str:
    """The reset link of the one mail the server wrote (the file backend, tests/api/server.py)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for mail in sorted(mail_dir.glob("*.log")) if mail_dir.exists() else []:
            found = LINK.search(mail.read_text())
            if found:
                return found.group(0)
        time.sleep(0.05)
    raise AssertionError(f"no reset link was mailed in {timeout} s")


def test_a_person_resets_a_forgotten_password_from_the_mailed_link(page, web_server):
    username = "reset" + secrets.token_hex(4)
    address = f"{username}@example.com"
    page.goto("/")
    form = page.locator("form#signup")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("input[name=email]").fill(address)
    form.locator("[type=submit]").click()
    page.locator("#signout").click()

    page.locator("#forgot-link").click()
    page.locator("form#forgot input[name=email]").fill(address)
    page.locator("form#forgot [type=submit]").click()
    page.locator("#password-reset .notice").wait_for()

    link = mailed_link(web_server.data_dir / "mail")
    page.goto(link)
    page.locator("form#reset input[name=new_password]").fill("a brand new passphrase 7")
    page.locator("form#reset [type=submit]").click()
    page.locator("#password-new .notice").wait_for()
    assert "#/reset/" not in page.url  # the used link leaves the address bar

    page.goto("/")
    form = page.locator("form#signin")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("[type=submit]").click()
    page.locator("#errors p[data-code=authentication_failed]").wait_for()
    assert page.locator("#wallet").count() == 0
    sign_in(page, username, "a brand new passphrase 7")
