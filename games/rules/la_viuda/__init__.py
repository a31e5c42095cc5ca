"""La Viuda (LV-1..LV-13): the Mexican widow game. Do not hold the worst hand.

4 to 7 players, 52 cards and two jokers, play and deal counterclockwise. The widow exchange
(WX-1..WX-7) is ``games.rules.widow``; this package adds the wild rank set by the pot (LV-5), the
worst hand paying a chip (LV-6) with LV-7's tie-break (``tiebreak``), the purchase of La Viuda
(LV-8..LV-10), eliminations and the prize (LV-11).

Readings the rules leave open, as this package plays them:

- La Viuda's own chip is in the pot from the start (LV-2), so the first hand's wild rank is aces.
- La Viuda is offered only to the player who pays their last chip, and only while nobody has
  bought it; a player the service says cannot afford it declines at once (``cannot_afford``).
- LV-7's last step, the manotazo, is drawn again until one hand is left: exactly one player pays.
- The prize is every chip bought at ``chip_value``, plus La Viuda's price when it was bought.
- CM-20: La Viuda is a match, so a player who leaves hands the seat to the table's bot to the end,
  and the result and prize stay theirs. Buying La Viuda spends the player's own money, which the
  bot never decides for them: a player who sat out or left and pays their last chip declines it at
  once (``away``) and is out. A player already out may leave (nothing changes but the
  record) but not sit out or in: there is nothing left to play (``games.rules.widow.presence``).
"""

from games.rules.la_viuda.game import DECIDER

__all__ = ["DECIDER"]
