"""verify.js on real audits: a hand of each game played through the API, its audit as the server
serves it (GET /tables/{id}/hands/{no}/audit/) verified in the browser, and the same audit with one
card of its deck changed not verified."""

from __future__ import annotations

import pytest

from tests.web import api

IMPORT = "const v = await import('/static/web/verify.js');"


@pytest.mark.parametrize("game", sorted(api.TABLES))
def test_verify_js_confirms_a_real_hand_and_refuses_it_tampered(page, web_server, game):
    player = api.register(web_server)
    api.deposit(web_server, player.username, amount="100.00")
    table_id = api.table_with_bots(player, game)
    api.play_until(player, table_id, hands=1)
    audit = player.ok("GET", f"/tables/{table_id}/hands/1/audit/")
    assert audit["server_seed"] and audit["deck"], audit

    page.goto("/healthz")
    verify = f"async ([audit, tableId]) => {{ {IMPORT} return v.verifyHand(audit, tableId); }}"
    result = page.evaluate(verify, [audit, table_id])
    assert (result["verified"], result["commitment_ok"], result["deck_ok"]) == (True, True, True), result["computed"]
    assert result["computed"]["deck"] == audit["deck"]

    tampered = list(audit["deck"])
    tampered[0], tampered[-1] = tampered[-1], tampered[0]
    result = page.evaluate(verify, [{**audit, "deck": tampered}, table_id])
    assert (result["verified"], result["deck_ok"], result["computed"]["first_difference"]) == (False, False, 0)
