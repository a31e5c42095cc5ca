"""guerra."""

from games.rules.guerra.game import DECIDER

__all__ = ["DECIDER"]
