"""The shape of the code, guarded by `make test` as well as `make lint`: the import contracts in
pyproject.toml (which package may import which) and a ceiling on the length of a module."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "ledger", "api", "config")
# A module past this many lines holds more than one concern; split it by concern.
MAX_LINES = 600


def test_import_contracts_hold():
    """Every contract of ``[tool.importlinter]`` is kept (``lint-imports`` prints why one is not)."""
    # The command installed beside this interpreter, so the test checks with the project's pins.
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if command is None:
        pytest.fail(f"lint-imports is not installed beside {sys.executable}: install requirements/dev.txt")
    result = subprocess.run(
        [command, "pyproject.toml", "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, f"import contracts broken:\n{result.stdout}{result.stderr}"


def test_no_module_is_longer_than_the_ceiling():
    """No module of the service (migrations aside: Django writes them) exceeds ``MAX_LINES`` lines."""
    too_long = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.relative_to(ROOT).parts:
                continue
            with path.open(encoding="utf-8") as lines:
                count = sum(1 for _ in lines)
            if count > MAX_LINES:
                too_long[str(path.relative_to(ROOT))] = count
    assert not too_long, f"modules over {MAX_LINES} lines (split them by concern): {too_long}"


def test_the_top_contract_places_every_module_of_games():
    """The top contract puts the engine under the ledger and the rest of ``games`` above it, by name:
    a module of games it does not name could be imported by the ledger unseen, so every top-level
    module or package of games (but the engine) is named there, and nothing else."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    top = next(contract for contract in contracts["contracts"] if contract["layers"][0] == "config")
    assert top["layers"][-2:] == ["ledger", "games.engine"]
    named = {name.strip() for name in top["layers"][2].split(":")}
    present = {
        f"games.{path.stem}"
        for path in (ROOT / "games").iterdir()
        if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").exists()
    }
    assert named == present - {"games.engine"}
    assert "ignore_imports" not in top
