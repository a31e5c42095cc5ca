"""A client generated from the document plays a whole table of every game. openapi-python-client
generates it from ``/api/schema/`` into a temporary directory at test time (nothing generated is
committed); the test then only calls its operations with its models: create a table, fund and
join, add bots, start, and act from the seat's ``legal_actions`` until the table is finished. No
line here knows the shape of a table, an action or an event: an action is a legal action sent back
(``Action.from_dict(legal.to_dict())``); one the rules refuse (a bet needs an amount) is
answered with the ``Error`` model and another is tried."""

from __future__ import annotations

import importlib
import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import attrs
import pytest

from api.schema import FREE_OBJECTS
from games.engine.presence import is_presence_action
from tests.api.server import serve

pytestmark = pytest.mark.long

PACKAGE = "gameledger_client"

# What each table is: game terms only (test data), in the models' own from_dict.
TABLES = {
    "euchre": {"seats": 4, "options": {"target_points": 3}, "stake": {"currency": "MXN", "amount": "10.00"}},
    "five-card-draw": {
        "seats": 3,
        "options": {"format": "tournament", "starting_stack": 10, "forced_bets": "blinds"},
        "stake": {"currency": "MXN", "amount": "10.00"},
    },
    "guerra": {"seats": 3, "options": {"max_rounds": 30}, "stake": {"currency": "MXN", "amount": "10.00"}},
    "la-viuda": {"seats": 4, "options": {}, "stake": {"currency": "MXN", "chip_value": "5.00"}},
    "whiskey-poker": {
        "seats": 3,
        "options": {"scoring": "pot", "chips_per_player": 3},
        "stake": {"currency": "MXN", "chip_value": "2.00"},
    },
}


def _generate(url: str, into: Path):
    request = urllib.request.Request(url + "/api/schema/", headers={"Accept": "application/vnd.oai.openapi+json"})
    with urllib.request.urlopen(request) as answer:
        (into / "schema.json").write_bytes(answer.read())
    bin_dir = Path(sys.executable).parent
    # The PHH export is TOML; the generator reads it as the text it is.
    (into / "config.json").write_text(json.dumps({"content_type_overrides": {"application/toml": "text/plain"}}))
    run = subprocess.run(
        [
            str(bin_dir / "openapi-python-client"),
            "generate",
            "--config",
            str(into / "config.json"),
            "--path",
            str(into / "schema.json"),
            "--meta",
            "none",
            "--output-path",
            str(into / PACKAGE),
        ],
        cwd=into,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
        capture_output=True,
        text=True,
        timeout=240,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    # Every part of the document made it into the client: no schema skipped, no response omitted.
    assert "Warning" not in output and "Unable" not in output, output
    sys.path.insert(0, str(into))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(into))


def _module(package, name: str):
    return importlib.import_module(f"{package.__name__}.{name}")


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("server")
    with serve(data_dir, worker=True) as server:
        package = _generate(server.url, tmp_path_factory.mktemp("client"))
        yield package, server
    for name in [name for name in sys.modules if name == PACKAGE or name.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def _refused(answer) -> bool:
    """Whether ``answer`` is an error: the generator makes each operation's error status a model of
    its own (``PostActionResponse409``), the problem with that operation's codes as an enum."""
    return bool(re.search(r"Response[45][0-9][0-9]$", type(answer).__name__)) and answer.type_.startswith(
        "urn:gameledger:problem:"
    )


def _client(package, server, token: str):
    return _module(package, "client").AuthenticatedClient(base_url=server.url, token=token, prefix="Token")


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_generated_client_plays_a_whole_table(generated, game):
    package, server = generated
    models = _module(package, "models")
    api = lambda path: _module(package, f"api.{path}")  # noqa: E731
    staff = _client(package, server, server.token)
    anonymous = _module(package, "client").Client(base_url=server.url)

    name = f"p{random.randrange(10**9)}"
    token = api("auth.register").sync(
        client=anonymous, body=models.RegisterRequest(username=name, password="a long passphrase 42")
    )
    assert isinstance(token, models.Token), token
    player = _client(package, server, token.token)
    terms = TABLES[game]
    stake = terms["stake"]
    deposit = api("ledger.create_deposit").sync(
        username=name,
        client=staff,
        body=models.DepositRequest.from_dict({"currency": stake["currency"], "amount": "1000.00"}),
    )
    assert not _refused(deposit), deposit

    prefix = "".join(part.capitalize() for part in game.replace("_", "-").split("-"))
    request = getattr(models, prefix + "CreateTableRequest").from_dict({"game": game, **terms})
    # A table is its game's table (told apart by ``game``), with that game's view.
    game_table, game_view = getattr(models, prefix + "Table"), getattr(models, prefix + "View")
    table = api("tables.create_table").sync(client=player, body=request)
    assert isinstance(table, game_table), table
    joined = api("tables.join_table").sync(table_id=str(table.id), client=player, body=models.JoinRequest(seat=0))
    assert isinstance(joined, game_table), joined
    for seat in range(1, terms["seats"]):
        added = api("tables.add_bot").sync(table_id=str(table.id), client=player, body=models.JoinRequest(seat=seat))
        assert isinstance(added, game_table), added
    started = api("tables.start_table").sync(table_id=str(table.id), client=player)
    assert isinstance(started, game_table), started

    rng = random.Random(11)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        view = api("tables.get_table").sync(table_id=str(table.id), client=player)
        assert isinstance(view, game_table), view
        assert isinstance(view.state, game_view), view.state
        if view.status == "finished":
            break
        # The player plays its turns; sitting out, in or leaving (CM-20) is not what this test means.
        options = [legal for legal in view.legal_actions if not is_presence_action(legal.to_dict())]
        if not options:
            time.sleep(0.05)
            continue
        rng.shuffle(options)
        for legal in options:
            body = models.ActionRequest(action=models.Action.from_dict(legal.to_dict()), expected_version=view.version)
            result = api("play.post_action").sync(table_id=str(table.id), client=player, body=body)
            if isinstance(result, models.ActionResult):
                break
            assert _refused(result), result
            if result.status == 409:
                break  # the table moved on (a bot, a timer): look again
    else:
        pytest.fail(f"the {game} table did not finish in time")
    events = api("play.list_events").sync(table_id=str(table.id), client=player)
    assert isinstance(events, models.EventsPage) and events.results, events
    assert json.dumps(events.to_dict())  # every event parsed into its game's model and back


def test_no_model_is_a_free_form_dict_but_the_ones_declared_free(generated):
    # A model whose only attribute is a dict of anything is what the generator makes of an object
    # without properties. Only the objects api.schema.FREE_OBJECTS lists may be one, and the
    # stake's `{}` alternative (no money), which may hold nothing at all (maxProperties 0). A map
    # of typed values (a dispute's links, a report's counts) is no free dict.
    package, _ = generated
    models = _module(package, "models")
    free = set()
    for name in dir(models):
        model = getattr(models, name)
        if not attrs.has(model):
            continue
        fields = attrs.fields(model)
        if [field.name for field in fields] == ["additional_properties"] and "Any" in str(fields[0].type):
            free.add(name)
    # ``/components/schemas/Error/properties/fields`` is the generator's ``ErrorFields``; a whole
    # component keeps its name.
    declared = set()
    for where in FREE_OBJECTS:
        owner, _, field = where.removeprefix("/components/schemas/").partition("/properties/")
        declared.add(owner + "".join(part.capitalize() for part in field.split("_")))
    no_money = {name for name in free if name.endswith("CreateTableRequestStakeType1")}
    assert len(no_money) == len(TABLES)
    # An event recorded without fields is ``{}`` (maxProperties 0), as the stake's no-money one.
    schemas = json.loads((Path(package.__file__).parents[1] / "schema.json").read_text())["components"]["schemas"]
    empty = {name for name, schema in schemas.items() if schema.get("maxProperties") == 0}
    assert empty and empty <= free
    assert free - no_money - empty == declared
