"""whiskey_poker."""

from games.rules.whiskey_poker.game import DECIDER

__all__ = ["DECIDER"]
