"""The static files collected as production collects them, for the tests that serve them with DEBUG
off (tests/api/test_static.py, tests/web/test_page.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

from django.core.management import call_command
from django.test import override_settings

import config.settings as production


@contextlib.contextmanager
def collected_into(root: Path) -> Iterator[Path]:
    """Collect the static files into ``root`` with the production storage (hashed, compressed
    names), and serve from there with DEBUG off while the block runs.

    The service's requirements bring no brotli, so production compresses with gzip alone; the
    tests' requirements do bring it (for the font checks), and brotli on every file was most of the
    suite's slowest set-up, for files production never makes."""
    with (
        mock.patch("whitenoise.compress.brotli_installed", False),
        override_settings(STATIC_ROOT=root, STORAGES=production.STORAGES, DEBUG=False),
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
        yield root
