"""The machinery La Viuda and Whiskey Poker share around the widow exchange, and nothing of either
game: ``exchange`` (WX-1..WX-7, written once), ``events`` and ``state`` (what both record and
fold), ``hand`` (first dealer, deal, shown hands), ``options``, ``decide``, ``view``, ``audit``
and ``bot`` helpers. The fast state copy replay relies on is the engine's (``games.engine.replace``)."""
