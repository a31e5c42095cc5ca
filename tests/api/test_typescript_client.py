"""A TypeScript client generated from the document the way a client developer would: openapi-typescript
with its default flags, then ``tsc --noEmit`` in strict mode over ``tests/api/typescript/play.ts``, a
script that plays a table of each game reading its typed view (the hand, the pots, the trick, the
showdown) without a cast. ``wrong.ts`` holds three wrong reads (a missing field, a wrong type, another
game's view) that must each fail. Under ``long`` (CI), the script is compiled and run with Node
against a served API and plays a table of each game to its end. Node and npm are needed: without them the test skips on a
developer's machine and fails in CI (``tests.conftest.require``); the pinned packages are installed
by ``npm ci`` from ``tests/api/typescript/package-lock.json``."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.api.contract import document
from tests.api.server import serve
from tests.conftest import require

pytestmark = [pytest.mark.node, pytest.mark.django_db]

HERE = Path(__file__).resolve().parent / "typescript"


def _run(*command: str, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=HERE, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def generated() -> Path:
    require(bool(shutil.which("node") and shutil.which("npm")), "Node.js and npm (node 20)")
    installed = _run("npm", "ci", "--no-audit", "--no-fund", timeout=600)
    require(installed.returncode == 0, f"the packages of tests/api/typescript (npm ci: {installed.stderr[-500:]})")
    out = HERE / "generated"
    out.mkdir(exist_ok=True)
    (out / "schema.json").write_text(json.dumps(document()))
    # No flag: what a newcomer gets.
    made = _run(
        str(HERE / "node_modules/.bin/openapi-typescript"), "generated/schema.json", "-o", "generated/schema.d.ts"
    )
    assert made.returncode == 0, made.stdout + made.stderr
    return out / "schema.d.ts"


def _tsc(config: str) -> subprocess.CompletedProcess[str]:
    return _run(str(HERE / "node_modules/.bin/tsc"), "-p", config)


def test_a_script_that_plays_every_game_type_checks(generated):
    checked = _tsc("tsconfig.json")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_three_wrong_reads_each_fail_to_type_check(generated):
    checked = _tsc("tsconfig.wrong.json")
    assert checked.returncode != 0
    failing = {int(line) for line in re.findall(r"^wrong\.ts\((\d+),\d+\): error TS", checked.stdout, re.MULTILINE)}
    lines = (HERE / "wrong.ts").read_text().splitlines()
    wrong = {number for number, line in enumerate(lines, start=1) if "// WRONG" in line}
    assert len(wrong) == 3
    assert failing == wrong, checked.stdout


@pytest.fixture(scope="module")
def compiled(generated) -> Path:
    built = _tsc("tsconfig.run.json")
    assert built.returncode == 0, built.stdout + built.stderr
    return HERE / "generated" / "js" / "run.js"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("server"), worker=True) as served:
        yield served


@pytest.mark.long
@pytest.mark.parametrize("game", ["euchre", "five-card-draw", "guerra", "la-viuda", "whiskey-poker"])
def test_the_script_plays_a_whole_table(compiled, server, game):
    env = {**os.environ, "GAME": game, "BASE_URL": server.url, "STAFF_TOKEN": server.token}
    played = subprocess.run(["node", str(compiled)], cwd=HERE, env=env, capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stdout + played.stderr
    # The finished table's screen, read from the typed view.
    assert played.stdout.strip(), played.stderr
