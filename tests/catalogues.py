"""The translation catalogues as a test run needs them: compiled (``make test`` does it first; a
single test file run by hand does it here) and read afresh by Django."""

from __future__ import annotations

from django.core.management import call_command
from django.utils.translation import trans_real


def compiled() -> None:
    """Every ``.po`` newer than its ``.mo`` compiled, and Django's cache of catalogues emptied so
    that the next lookup reads them."""
    call_command("compile_catalogues", verbosity=0)
    trans_real._translations = {}
    trans_real._default = None
    for cached in (trans_real.check_for_language, trans_real.get_supported_language_variant):
        if hasattr(cached, "cache_clear"):
            cached.cache_clear()
