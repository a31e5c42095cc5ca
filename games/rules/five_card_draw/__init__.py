"""Five-Card Draw (rules FD-1..FD-21, with CM-16 and CM-17 for the low hands).

Readings the rules leave open, chosen here and stated once:

- Cash tables: each person chooses their buy-in between ``min_buy_in`` and ``max_buy_in`` chips
  when they join (``max_buy_in`` if they do not say); a bot buys ``max_buy_in``. A cash player
  with fewer chips than the forced bet (the ante, or the big blind) sits the hand out (FD-2); one
  with no chips left is cashed out (nothing) and leaves, once no pot of passed deals holds chips
  of theirs (FD-6: they wait, dealt out, for that pot). A tournament player short of the forced
  bet posts what they have, all-in; one with no chips is out at once (FD-13), their ante of a
  passed deal staying in its pot. Nobody is dealt in with no chips.
- Top-ups (FD-13): since the next hand is dealt as soon as one ends, "between hands" is read as
  "holding no cards in the hand under way": a cash player not dealt in (short of the forced bet)
  or who has folded may buy more chips, from 1 up to what keeps the stack at most
  ``max_buy_in`` and what the wallet pays for (``topup``). A player short of the forced bet is
  told so in their view (``cannot_post``, ``notice``) and offered the top-up and leaving.
- Leaving and coming back (CM-20, FD-13): a player who sits out has the table's bot play their
  seat at once, until they sit in. At a cash table a player who leaves plays no more turns: the
  engine folds their hand at each of its turns, in the command that reaches it (a draw has no
  fold, so they stand pat there and fold at the next betting turn; an all-in leaver has no turn
  left and their hand is shown down as it stands), and their stack is cashed out when the hand
  is over, like the owner's end of a cash table. A tournament is a match: a player who leaves it
  hands the seat to the bot to the end, and their place and prize stay theirs.
- The first betting round is "nobody opened" (FD-6) only if it was played: when fewer than two
  players could bet (all-in for the antes), it is skipped (FD-20) and the hand goes on to the draw.
- When the stock runs short in a draw (FD-8), the player first takes what is left of it; then the
  discards and folded hands not yet reshuffled are shuffled into a new stock for the rest: the
  cards that player discards in this draw are not among them, their discards of earlier draws
  (triple draw) are.
- A pot left by passed deals (FD-6) belongs to the next hand's main pot; if the table ends first,
  each player still at the table gets back the chips they put into it, and the chips of those
  who have gone are shared equally among them (odd chips by FD-10).
- Tournament players who go out in the same hand are placed by the chips they came into it with
  (fewer is lower), then by seat.

``cards`` holds the deck, wild cards and hand values by variant; ``events`` the events; ``state``
the state and ``evolve``; ``decide`` the commands; ``showdown`` the end of a hand; ``view`` what a
seat sees; ``settlements`` the chips and money; ``audit`` the hand audit's hooks (with
``audit_hand``, ``audit_outcome`` and ``audit_history``) and ``phh`` the PHH export; ``bot`` the
bot (its draws in ``bot_draws``, its hand strength in ``bot_strength``); ``game`` the Decider
wiring them. The betting itself is ``games.rules.betting``.
"""

from games.rules.five_card_draw.game import DECIDER

__all__ = ["DECIDER"]
