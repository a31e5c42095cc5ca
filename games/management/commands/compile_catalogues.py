"""``manage.py compile_catalogues``: every ``.po`` catalogue of the project compiled to its ``.mo``.

Pure Python (Babel), so a fresh machine needs no gettext tools: ``make run`` and ``make test`` run
it first, and a deployment runs it beside ``collectstatic``. A ``.mo`` newer than its ``.po`` is
left as it is unless ``--force``. The catalogues are the Django apps' ``locale/`` folders and
``LOCALE_PATHS`` (the engine's and each game's)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand


def catalogue_folders() -> list[Path]:
    """Every ``locale/`` folder of the project: its apps' and ``LOCALE_PATHS``."""
    base = Path(settings.BASE_DIR).resolve()
    # A virtualenv inside the checkout (``make``'s ``.venv``) holds installed apps whose catalogues
    # come compiled; they are not the project's.
    installed = Path(sys.prefix).resolve()
    folders = [Path(folder) for folder in settings.LOCALE_PATHS]
    for config in apps.get_app_configs():
        path = Path(config.path).resolve()
        if path.is_relative_to(base) and not path.is_relative_to(installed):
            folders.append(path / "locale")
    return sorted({folder for folder in folders if folder.is_dir()})


def compile_po(po: Path, force: bool = False) -> bool:
    """``po`` written as the ``.mo`` beside it; whether it was (not when already newer)."""
    mo = po.with_suffix(".mo")
    if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        return False
    with po.open("rb") as source:
        catalog = read_po(source, abort_invalid=True)
    temporary = mo.with_suffix(".mo.tmp")
    with temporary.open("wb") as target:
        # Fuzzy entries are guesses awaiting review: a reader never gets one.
        write_mo(target, catalog, use_fuzzy=False)
    temporary.replace(mo)
    return True


class Command(BaseCommand):
    help = "Compile every .po catalogue of the project to .mo (pure Python, Babel)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--force", action="store_true", help="Compile even when the .mo is newer.")

    def handle(self, *args: Any, **options: Any) -> None:
        compiled = 0
        for folder in catalogue_folders():
            for po in sorted(folder.glob("*/LC_MESSAGES/*.po")):
                if compile_po(po, force=options["force"]):
                    compiled += 1
                    if options["verbosity"] > 1:
                        self.stdout.write(f"compiled {po}")
        if options["verbosity"] > 0:
            self.stdout.write(f"{compiled} catalogue(s) compiled")
