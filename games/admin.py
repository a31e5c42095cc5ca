"""The games side of the admin: payout review shows each payout's table (game, players, result and
audit link) as ``games.audit.table_summary`` describes it; the ledger cannot import games."""

from games.audit import table_summary
from ledger.admin import describe_tables_with

describe_tables_with(table_summary)
