"""Whiskey Poker (WP-1..WP-9): the North American widow game.

2 to 9 players, 52 cards, no wild cards, play and deal clockwise. The widow exchange (WX-1..WX-7)
is ``games.rules.widow``; this package adds the three ways of scoring (WP-5..WP-8): ``pot``
(antes, the best hand takes the pot, cash-out at ``chip_value``), ``loser_pays`` (lives without
money value) and ``points`` (the reduced pack's race to ``target_points``).

Readings the rules leave open, as this package plays them:

- Tied best hands split the pot; the odd chips go one at a time from the dealer's left (WP-5).
- In ``loser_pays`` every hand tied for worst pays a life; in ``points`` every hand tied for best
  scores a point, and everyone at ``target_points`` after a hand wins.
- A pot-scoring match ends with one player left (a player who cannot ante is out) or after the
  hand in which the table's owner ends it; the most chips win, ties all win (WP-6).
- The reduced pack's lowest rank plays low in a wheel straight, as the ace's neighbour (WP-8).
- CM-20 in ``pot`` scoring: a leaver's turns are passed at once for the rest of the hand (a pass
  with the widow face down, a knock once it is up, as the timer plays), their chips are cashed
  out when it ends and they are dealt no later hand; once every person has left, the match ends
  after the hand as the owner's end would. In ``loser_pays`` and ``points`` the bot plays the
  leaver's seat to the end and the result stays theirs. A player already out may leave, not sit
  out or in.
"""

from games.rules.whiskey_poker.game import DECIDER

__all__ = ["DECIDER"]
