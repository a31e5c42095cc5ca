"""The web client's first load and how fast a click shows on the table, in Debian's Chromium.

Run with the project's Python: ``python tests/benchmarks/bench_web.py [--clicks 30]`` (``make bench``
runs it with the others). Serves the service as ``make run`` does, in subprocesses (uvicorn with a
Celery worker and beat, SQLite and the file broker in a throwaway DATA_DIR: tests/api/server.py),
then with headless Chromium (/usr/bin/chromium, driven by Playwright):

- page weight: every byte the first load of the lobby and of a table page (in English and in
  Persian) transfers (HTML, ES modules, CSS, fonts, the card set, the /jsi18n/ catalogue and the
  API's JSON), summed from Chromium's network events (``encodedDataLength``: bytes on the wire,
  headers included), with a cold cache; compressed as production serves them with ``--make-run``
  (collected static files), as they are in the source tree otherwise;
- click to update: the time from clicking one of the legal actions at a La Viuda table with bots
  to the table view drawn again (``#table[data-version]`` changing), median and spread over
  ``--clicks`` clicks.

With ``--make-run`` the service is ``make run`` itself (supervisord and config/supervisord.conf, its log level
and worker pool) on a free port and a throwaway DATA_DIR, rather than the test harness's copy of it.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import gzip
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.api.server import Server, serve  # noqa: E402
from tests.web import api  # noqa: E402
from tests.web.chromium import CHROMIUM, CHROMIUM_FLAGS  # noqa: E402
from tests.web.client import PRESENCE, sign_in  # noqa: E402

# One click measured inside the page, so the figure is the browser's own (no round trip to Python):
# from the click to the MutationObserver seeing the table drawn at another version.
CLICK = """async ([skip]) => {
  const table = document.querySelector('#table');
  const buttons = [...document.querySelectorAll('#actions button[data-action]')]
    .filter((b) => !skip.includes(b.dataset.action));
  if (!buttons.length) return null;
  const button = buttons[Math.floor(Math.random() * buttons.length)];
  const before = table.dataset.version;
  const changed = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (table.dataset.version !== before) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(table, { attributes: true, attributeFilter: ['data-version'] });
    setTimeout(() => { observer.disconnect(); resolve(null); }, 5000);
  });
  const start = performance.now();
  button.click();
  const end = await changed;
  return end === null ? null : end - start;
}"""


def kind_of(url: str) -> str:
    path = url.split("?", 1)[0].split("#", 1)[0]
    if "/api/" in path:
        return "api"
    if "/jsi18n/" in path:
        return "jsi18n"
    name = path.rsplit("/", 1)[-1]
    if "." in name:
        return name.rsplit(".", 1)[-1] if name.endswith((".js", ".css")) else name
    return "html"


def compressed_size(cdp, request_id: str, on_wire: int) -> int:
    """What a response weighs sent compressed (gzip -9 of its body, its headers as they were): as
    whitenoise serves the collected static files and a compressing proxy the rest. A body that
    does not shrink (a font, already compressed) counts as it is."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        answer = cdp.send("Network.getResponseBody", {"requestId": request_id})
    except PlaywrightError:  # no body kept (a redirect, an empty answer)
        return on_wire
    body = base64.b64decode(answer["body"]) if answer["base64Encoded"] else answer["body"].encode()
    headers = max(on_wire - len(body), 0)
    return min(on_wire, headers + len(gzip.compress(body, compresslevel=9)))


def page_weight(browser, base_url: str, path: str, cookies=None) -> dict[str, int]:
    """Bytes transferred by one cold load of ``path``, by kind, from Chromium's network events."""
    context = browser.new_context(base_url=base_url)
    if cookies:
        context.add_cookies(cookies)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    urls: dict[str, str] = {}
    sizes: dict[str, int] = {}
    cdp.on("Network.requestWillBeSent", lambda event: urls.setdefault(event["requestId"], event["request"]["url"]))
    cdp.on(
        "Network.loadingFinished", lambda event: sizes.__setitem__(event["requestId"], int(event["encodedDataLength"]))
    )
    page.goto(path, wait_until="networkidle")
    time.sleep(0.5)  # the stream (EventSource) stays open: it is not counted, it never finishes loading
    by_kind: dict[str, int] = defaultdict(int)
    for request_id, size in sizes.items():
        by_kind[kind_of(urls.get(request_id, ""))] += size
        by_kind["compressed"] += compressed_size(cdp, request_id, size)
    by_kind["requests"] = len(sizes)
    context.close()
    return dict(by_kind)


def click_times(browser, server, clicks: int) -> list[float]:
    person = api.register(server)
    api.deposit(server, person.username, "MXN", "100.00")
    context = browser.new_context(base_url=server.url)
    page = context.new_page()
    sign_in(page, person.username)
    times: list[float] = []
    rng = random.Random(3)
    deadline = time.monotonic() + 300
    table_id = None
    while len(times) < clicks and time.monotonic() < deadline:
        if table_id is None or page.locator("#table").get_attribute("data-status") == "finished":
            # Many chips and orbits, and no knocking from us: a long table with many turns.
            table_id = api.table_with_bots(person, "la-viuda")
            page.goto(f"/#/tables/{table_id}")
            page.locator("#table[data-version]").wait_for()
        elapsed = page.evaluate(CLICK, [sorted({"knock", *PRESENCE})])
        if elapsed is None:
            time.sleep(0.05 + rng.random() * 0.05)  # someone else's turn
            continue
        times.append(elapsed)
    context.close()
    return times


@contextlib.contextmanager
def make_run(data_dir: Path):
    """``make run`` on a free port with its own DATA_DIR, and a staff token made in that database."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {
        key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL")
    }
    env.update(DATA_DIR=str(data_dir), PORT=str(port))
    log = open(data_dir / "make-run.log", "w")  # noqa: SIM115 - closed below
    # Its own process group, so that stopping it stops supervisord's three processes too.
    process = subprocess.Popen(
        ["make", "run"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1):
                    break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError((data_dir / "make-run.log").read_text()) from None
                time.sleep(0.2)
        else:
            # 300 tries a fifth of a second apart: a minute without an answer is a failed start.
            raise RuntimeError(
                "make run did not answer /healthz within a minute:\n" + (data_dir / "make-run.log").read_text()
            )
        script = (
            "from django.contrib.auth import get_user_model;from knox.models import AuthToken;"
            "u = get_user_model().objects.create_user(username='bench-staff', password=None, is_staff=True);"
            "print('TOKEN=' + AuthToken.objects.create(u)[1])"
        )
        shell_env = {**env, "DEBUG": "true", "SECRET_KEY": (data_dir / "secret_key").read_text().strip()}
        out = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", script],
            cwd=ROOT,
            env=shell_env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        token = next(line[6:] for line in out.splitlines() if line.startswith("TOKEN="))
        yield Server(url=url, token=token, data_dir=data_dir)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, 15)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
        log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30, help="0 measures the page weights only")
    parser.add_argument("--make-run", action="store_true", help="measure `make run` itself")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} is missing: apt-get install chromium chromium-driver")
    from playwright.sync_api import sync_playwright

    api.TABLES["la-viuda"] = {
        "seats": 4,
        "options": {"chips_per_player": 10, "max_orbits": 50},
        "stake": {"currency": "MXN", "chip_value": "1.00"},
    }
    with (
        tempfile.TemporaryDirectory(prefix="bench_web_", ignore_cleanup_errors=True) as data_dir,
        make_run(Path(data_dir)) if args.make_run else serve(Path(data_dir), worker=True) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        lobby = page_weight(browser, server.url, "/")
        person = api.register(server)
        api.deposit(server, person.username, "MXN", "100.00")
        table_id = api.table_with_bots(person, "la-viuda")
        context = browser.new_context(base_url=server.url)
        page = context.new_page()
        sign_in(page, person.username)
        cookies = context.cookies()
        context.close()
        # In English and in Persian: a Persian page also loads its font (Vazirmatn).
        tables = {
            language: page_weight(browser, server.url, f"/?lang={language}#/tables/{table_id}", cookies)
            for language in ("en", "fa")
        }
        times = click_times(browser, server, args.clicks) if args.clicks else []
        browser.close()
    print(f"served by {'make run' if args.make_run else 'the test harness (tests/api/server.py)'}")
    pages = [("lobby, signed out", lobby)] + [(f"table page ({lang}), signed in", w) for lang, w in tables.items()]
    for name, weight in pages:
        counts = {kind: size for kind, size in weight.items() if kind not in ("requests", "compressed")}
        parts = ", ".join(f"{kind} {size / 1024:.1f}" for kind, size in sorted(counts.items()))
        print(
            f"first load of the {name}: {sum(counts.values()) / 1024:.1f} KiB in {weight['requests']} requests "
            f"({parts} KiB); {weight['compressed'] / 1024:.1f} KiB compressed"
        )
    if times:
        print(
            f"click to updated table, {len(times)} clicks: median {statistics.median(times):.0f} ms, "
            f"min {min(times):.0f} ms, max {max(times):.0f} ms"
        )
    elif args.clicks:
        print("click to updated table: no click could be measured")


if __name__ == "__main__":
    main()
