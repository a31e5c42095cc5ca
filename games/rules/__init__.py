"""Every game's rules; importing this package registers each game with the engine's registry."""

from games.engine.decider import register
from games.rules import guerra

for _module in (guerra,):
    register(_module.DECIDER)
