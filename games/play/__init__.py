"""The write side of a table, one module per reason to change.

``unit`` opens a table under its row lock with everything a command needs, loaded once and
carried down (``Locked``); ``tables`` opens, seats and starts tables; ``act`` is a person's action
(``gate``: what they may send, then ``execute``); ``worker`` runs the system's commands, the bots'
turns, deadlines and the sweep; ``execute`` is the one write path; ``seeds`` makes the hands' seeds
ahead and remembers the committed ones. Every command has the same shape: open the unit, check,
decide, append, schedule, answer.
"""

from games.play.act import act
from games.play.execute import SYSTEM, Outcome
from games.play.tables import (
    add_bot,
    create_table,
    join_table,
    leave_table,
    remove_seat,
    set_client_seed,
    start_table,
)
from games.play.unit import table_state
from games.play.worker import (
    choose_for,
    expire_deadline,
    play_bot_turn,
    play_bot_turns,
    run_system_command,
    sweep_deadlines,
)

__all__ = [
    "SYSTEM",
    "Outcome",
    "act",
    "add_bot",
    "choose_for",
    "create_table",
    "expire_deadline",
    "join_table",
    "leave_table",
    "play_bot_turn",
    "play_bot_turns",
    "remove_seat",
    "run_system_command",
    "set_client_seed",
    "start_table",
    "sweep_deadlines",
    "table_state",
]
