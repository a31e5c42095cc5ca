"""Betting machinery any betting game can use (Five-Card Draw first), and nothing of any game:
``state`` (a betting round and ``start_round``), ``limits`` (the legal actions with exact amounts
for no-limit, pot-limit and fixed limit, FD-4), ``actions`` (``act`` applies one action, FD-20)
and ``pots`` (side pots and their award, FD-9..FD-12)."""
