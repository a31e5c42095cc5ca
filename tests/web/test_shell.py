"""The page's shared helpers (api/static/web/shell.js) in headless Chromium."""

from __future__ import annotations

from tests.web.test_game_modules import browser_page

VALUES = """async () => {
  const { formValues } = await import("/web/shell.js");
  const form = document.createElement("form");
  form.innerHTML = `
    <input type="radio" name="outcome" value="upheld" checked>
    <input type="radio" name="outcome" value="rejected">
    <input type="radio" name="show" value="As">
    <input type="radio" name="show" value="Ad">
    <input type="checkbox" name="keep" checked>
    <input type="number" name="chips" value="40">`;
  return formValues(form);
}"""


def test_a_radio_group_gives_its_checked_value_and_none_when_none_is():
    """A dispute's outcome and the ace a Five-Card Draw player shows (FD-7) are radio groups: the
    form's value is the checked input's, not the group's last."""
    with browser_page() as page:
        values = page.evaluate(VALUES)
        assert not page.errors, page.errors
    assert values == {"outcome": "upheld", "show": None, "keep": True, "chips": 40}
