"""Every game's rules; importing this package registers each game with the engine's registry."""

from games.engine.decider import register
from games.rules import euchre, guerra, la_viuda, whiskey_poker

for _module in (euchre, guerra, la_viuda, whiskey_poker):
    register(_module.DECIDER)
