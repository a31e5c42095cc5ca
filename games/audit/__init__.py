"""Hand audits: who may read a table's finished hands (``hand``), the eight named verification
checks (``checks``), the audit JSON and the list of finished hands (``record``), the hand's history
and PHH export and table replays (``history``), and payout review's view of a table (``payouts``).

The functions below are what the API and the management commands use."""

from games.audit.checks import FAIL, PASS, SKIP, Check, TableWalk, Verification, verify_hand
from games.audit.hand import check_may_audit, finished_hand, may_audit
from games.audit.history import hand_history, hand_phh, replay_view
from games.audit.payouts import payout_json, table_summary
from games.audit.record import finished_hand_numbers, hand_audit, hand_results, hand_summaries

__all__ = [
    "FAIL",
    "PASS",
    "SKIP",
    "Check",
    "TableWalk",
    "Verification",
    "check_may_audit",
    "finished_hand",
    "finished_hand_numbers",
    "hand_audit",
    "hand_history",
    "hand_phh",
    "hand_results",
    "hand_summaries",
    "may_audit",
    "payout_json",
    "replay_view",
    "table_summary",
    "verify_hand",
]
