"""The path of one action: which project files a ``POST /actions/`` passes through, in order.

    .venv/bin/python -m pytest tests/benchmarks/path_of_an_action.py -q -s

A Five-Card Draw table of two people is opened, seated and started over HTTP; then one person's
action is sent with ``sys.setprofile`` on, and every Python call whose code lives in the project
(``api``, ``games``, ``ledger``, ``config``; not the tests, not the libraries) is kept. It prints:

- files: the project files below the view the action enters, in the order first entered (the
  engine and the game's rules left out: the pure core, entered wherever a game is asked);
- stays: calls from one project file into another (each a stay in the callee);
- climbs back up: calls into a file that is already on the stack below (a lower layer calling
  back into a higher one, or a module entered again from deeper down);
- entries per file: how often each file was entered from another (and how often by calling one of
  its own functions, rather than a method of a value it defines, a closure or a generator), and
  from which files.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.api.play import Game, person, set_up

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tuple(str(ROOT / name) + "/" for name in ("api", "games", "ledger", "config"))
CORE = (str(ROOT / "games" / "engine") + "/", str(ROOT / "games" / "rules") + "/")

pytestmark = pytest.mark.django_db(transaction=True)


def _project_file(filename: str) -> str | None:
    if not filename.startswith(PROJECT):
        return None
    return str(Path(filename).relative_to(ROOT))


GENERATOR = 0x20 | 0x80 | 0x200


def trace(run):
    """``run()`` under the profiler: ``(caller file, callee file, stack files, by name)`` of every
    call that moves from one project file into another; ``by name`` when the callee is one of the
    module's own functions (not a method of a value, a closure or a generator resumed)."""
    stack: list[str | None] = []
    moves: list[tuple[str | None, str, tuple[str, ...], bool]] = []

    def profile(frame, event, arg):
        if event == "call":
            code = frame.f_code
            here = _project_file(code.co_filename)
            below = next((f for f in reversed(stack) if f is not None), None)
            if here is not None and here != below:
                by_name = "." not in code.co_qualname and not code.co_flags & GENERATOR
                moves.append((below, here, tuple(f for f in stack if f is not None), by_name))
            stack.append(here)
        elif event == "return" and stack:
            stack.pop()

    sys.setprofile(profile)
    try:
        result = run()
    finally:
        sys.setprofile(None)
    return result, moves


def report(moves) -> dict:
    """The moves below the view (``api/views.py``), the pure core (engine, rules) left out."""
    files: list[str] = []
    entries: Counter[str] = Counter()
    by_name: Counter[str] = Counter()
    callers: dict[str, set[str]] = {}
    climbs = 0
    moves = [
        m
        for m in moves
        if (m[1] == "api/views.py" or "api/views.py" in m[2]) and not m[1].startswith(("games/engine/", "games/rules/"))
    ]
    for caller, callee, stack, named in moves:
        callers.setdefault(callee, set()).add(caller or "-")
        if callee not in files:
            files.append(callee)
        entries[callee] += 1
        by_name[callee] += named
        if callee in stack:
            climbs += 1
    return {
        "files": files,
        "callers": callers,
        "stays": len(moves),
        "climbs": climbs,
        "entries": entries,
        "by_name": by_name,
    }


def test_print_the_path_of_one_action(task_queue):
    owner, staff = person("alice"), person("sam", staff=True)
    spec = Game("five-card-draw", 2, people=(0, 1))
    table_id, clients = set_up(spec, owner, staff)
    task_queue.run_until_idle()
    views = {seat: client.get(f"/api/v1/tables/{table_id}/").json() for seat, client in clients.items()}
    seat = next(s for s, v in views.items() if v["legal_actions"] and s in v["to_act"])
    view = views[seat]
    action = next(a for a in view["legal_actions"] if a["type"] not in ("sit_out", "leave", "sit_in"))
    action = {k: v for k, v in action.items() if k in ("type", "seat")} | (
        {"amount": action["min"]} if "min" in action else {}
    )
    body = {"action": action, "expected_version": view["version"]}
    response, moves = trace(lambda: clients[seat].post(f"/api/v1/tables/{table_id}/actions/", body, format="json"))
    assert response.status_code == 200, response.json()
    found = report(moves)
    print()
    print("action:", action)
    print("files below the view, in the order first entered (engine and rules left out):")
    for name in found["files"]:
        entered, named = found["entries"][name], found["by_name"][name]
        print(f"  {name}  entered {entered}x ({named}x by a function of its own) from {sorted(found['callers'][name])}")
    print("files:", len(found["files"]))
    print("stays (calls from one project file into another):", found["stays"])
    print("climbs back up (calls into a file already on the stack):", found["climbs"])
    assert found["files"]
