"""la_viuda."""

from games.rules.la_viuda.game import DECIDER

__all__ = ["DECIDER"]
