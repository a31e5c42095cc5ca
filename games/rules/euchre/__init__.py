"""Euchre (EU-1..EU-22): partnerships or cutthroat, bowers, going alone and the house rules.

Rule ids: EU-1 partnerships, EU-2 the deck and the deal passing left, EU-3 the packets, EU-4 and
EU-5 the two rounds of bidding, EU-6 makers, EU-7 going alone, EU-8 card order and bowers, EU-9
the lead, EU-10 following suit, EU-11 tricks, EU-12 and EU-13 scoring, EU-14 the target, EU-15
stick the dealer, EU-16 farmer's hand, EU-17 ace-no-face, EU-18 no trump, EU-19 cutthroat, EU-20
what each seat sees, EU-21 stakes, EU-22 timeouts; CM-19 the first-dealer draw.

Readings the rules leave open:
- a lone maker's partner who is the dealer does not pick up the turned card (EU-7), it stays on
  the kitty;
- only one farmer's swap per deal (EU-16), and claims are offered one seat at a time from the
  dealer's left, the dealer last;
- the house-rule offer (EU-16, EU-17) goes to every seat in turn, also to a seat whose hand has
  no claim (it can only ``keep_hand``), so that nobody learns who could claim. Offering it only
  to the seats that can claim would tell everyone who they are: the service shows every player
  whom the table waits for (``to_act``, the deadline, the "your turn" notice), the actor and seq
  of every event, and when it came. A private step for the claimers alone would still have to
  show the table waiting (or not) and would end at once when nobody can claim, so its length
  says whether someone can; hiding that means holding every deal for a fixed claim window even
  when nobody can claim, and bots, which the service runs for the seats in ``to_act``, could no
  longer claim. Asked in turn, every seat's prompt and answer look the same from outside: the
  table waits for that seat, then either a claim (which the rules make public) or a
  ``ClaimDeclined`` comes. What is left is how long a person takes to answer, as with any move;
  bots answer at once either way.
- in cutthroat the maker always plays against everyone, so ``alone`` is refused and a march
  scores 2, never 4; a tie for the highest score past the target plays on (EU-19);
- a timed-out seat passes, or, when stuck, names the first allowed suit in clubs, diamonds,
  hearts, spades order; it declines a claim and plays (or discards) the lowest legal card by EU-8
  order (EU-22).
- CM-20: every seat may sit out, sit in or leave at any moment of the match, not only on its turn;
  the bot plays a leaver's seat to the end and the side's result and prize stay the leaver's.

Modules: ``cards`` (card order and the deal), ``events``, ``state`` (the state and ``evolve``),
``legal`` (refusals, legal actions, the timeout's move), ``decide``, ``view``, ``settlements``,
``audit`` (with ``audit_outcome`` and ``audit_history``), ``bot`` and ``game`` (the game's value, ``DECIDER``).
"""

from __future__ import annotations

from games.rules.euchre.game import DECIDER

__all__ = ["DECIDER"]
