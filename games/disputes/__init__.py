"""Disputed hands (issue 16): a player who sat at a table files a dispute on one finished hand (or
on a payout) within ``DISPUTE_WINDOW_DAYS``; auditors see the open ones oldest first with the hand's
audit and the player's own views of it, and decide; an upheld dispute's compensation is paid from
the house's compensation account through the ledger, with a second member of staff above the
two-person limit. The dispute row holds what was filed and where it stands; every step (filed,
taken, decided, approved, paid, payouts held and released) is an append-only ``DisputeStep``.

``services`` writes, ``selectors`` reads, ``models`` are the rows; the app registers its payout hold
and its reconcile check when it is ready."""
