"""Every game's rules, one package each. A game is registered by naming its package here: importing
``games.rules`` imports each and registers its ``DECIDER`` with the engine's registry."""

from importlib import import_module

from games.engine.registry import register

GAMES = (
    "euchre",
    "five_card_draw",
    "guerra",
    "la_viuda",
    "whiskey_poker",
)

for _package in GAMES:
    register(import_module(f"games.rules.{_package}").DECIDER)
