"""Guerra Chevichona: the many-player War (rules GC-1..GC-15; GC-15 ``ace_high`` puts the Spanish
1 above the 12).

Nobody has a choice to make: a round is played as soon as every player still in has sent ``throw``
(or the turn timer throws for the absent ones, or ``auto_play`` plays it), and ``decide`` then
plays the whole round, battles and tie-breaks included, in one go. A round's events are therefore
always recorded together, after the round is over.

Leaving and coming back (CM-20): ``throw`` is how a person plays a round, so the seat of a player
who sat out is thrown for by the table's bot as soon as a round awaits it, with no wait for the
turn timer; with ``auto_play`` the rounds play themselves on the clock anyway, and a sat-out seat
only has its throws sent by the bot rather than its player. A match is one game, so a player who
leaves is not out: the bot throws for their seat to the end, and the result (and the stake it
wins or loses) stays theirs.

Readings the rules leave open, chosen here and stated once:

- The deal (GC-2) gives card ``j`` of the shuffled deck to seat ``j mod n``; each pile keeps the
  dealt order, the first card dealt to a seat on top, so seat ``i``'s pile is ``deck[i::n]``.
- Within a battle layer (GC-5) the cards go seat by seat, each seat's face-down cards before its
  face-up one.
- A player who is out cannot take the round: a pitched battle (GC-8) counts the battles won by
  players still in. Whenever only one player is left in a round, that player takes it at once.
- Forfeited piles (GC-5, GC-10) go under the taker's pile in the order they were forfeited.
- Stalemate (GC-14, now a written rule): when every player who must still put down a card (a
  round's throw, a battle layer, an extra card) has none, one of the contenders is drawn with the match's fair stream, purpose
  ``stalemate-N`` for the N-th such draw (CM-7, CM-8); the others are out. Without it the cards
  on the table would belong to nobody and the match could not end.
- A turn timeout throws for every player still awaited (the timer restarts at each throw).
- Players with no card left when a round is over are out at once (``no_cards``); players with some
  cards but fewer than the next round asks for are out when that round is played (GC-10) and are
  not awaited for it.

``cards`` holds the decks, card values and the deal; ``events`` the events; ``state`` the state and
``evolve``; ``decide`` the commands; ``legal`` their one judge and the legal actions; ``round`` the
playing of a round; ``view`` what a seat sees; ``settlements`` the stakes and prize; ``audit`` the
hand audit's hooks; ``bot`` the bot; ``game`` the game's value wiring them.
"""

from games.rules.guerra.game import DECIDER

__all__ = ["DECIDER"]
