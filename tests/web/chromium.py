"""Debian's Chromium and the flags it runs with in the tests and the benchmark: headless, no sandbox
(CI runs as root), and nothing that reaches out of the machine on its own. Playwright gives each
launch a fresh profile (--user-data-dir) of its own; it never downloads a browser here."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
