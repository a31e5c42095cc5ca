"""Between hands (CM-21): what a table does once a hand ends and before the next is dealt.

A game whose hands stand alone (Whiskey Poker ``pot`` scoring, a Five-Card Draw cash table)
deals a hand only while at least one person is dealt in: a seat a person holds that is neither
sitting out nor gone (nor, in the game's own terms, unable to play the hand). Otherwise the game
records :class:`DealPostponed` and the table *waits*: no bot plays for nobody. Any later command
that leaves a person dealt in (sitting in, say) deals the next hand; and after ``idle_minutes``
with nobody dealt in, the game's :func:`idle_deadline` sends the system command ``idle_end``,
whose :class:`IdleEnded` ends the table as if its owner had ended it (everyone cashes out).

Each game keeps a ``waiting`` flag in its state (set by ``DealPostponed``, cleared by its deal),
decides with :func:`waits` and answers its deadline with :func:`idle_deadline` while it waits. The
pause of ``between_hands_seconds`` and ``ready`` (the rest of CM-21) belong here too, beside these.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from games.engine.errors import IllegalAction
from games.engine.options import Option
from games.engine.sentences import Describe
from games.engine.words import T, Text

IDLE_END = "idle_end"
DEFAULT_IDLE_MINUTES = 10


@dataclasses.dataclass(frozen=True, slots=True)
class DealPostponed:
    """No person is dealt in (CM-21): the next hand is not dealt; the table waits for one."""


@dataclasses.dataclass(frozen=True, slots=True)
class IdleEnded:
    """Nobody was dealt in for the table's ``idle_minutes`` (CM-21): it ends as if its owner had
    ended it."""


EVENT_TYPES: tuple[type, ...] = (DealPostponed, IdleEnded)

# Among the options of every game whose hands stand alone.
IDLE_OPTION = Option(
    "idle_minutes",
    "int",
    DEFAULT_IDLE_MINUTES,
    1,
    1440,
    help=T("Minutes a table whose hands stand alone waits with no person dealt in before it ends."),
    rules=("CM-21",),
    label=T("Minutes to wait for players"),
)


def waits(people: Iterable[Any] | None, dealt_in: Iterable[int]) -> bool:
    """True when the next hand must wait (CM-21): people hold seats at the table (``people``, the
    seats ``Context.extra`` says they hold) and none of them is among ``dealt_in``. A table no
    person sits at is dealt as before: nobody there can sit in."""
    seated = {int(seat) for seat in people or ()}
    return bool(seated) and not seated.intersection(dealt_in)


def people_of(extra: Mapping[str, Any]) -> tuple[int, ...]:
    """The seats people hold, as ``Context.extra`` tells the engine (none when it does not)."""
    return tuple(int(seat) for seat in extra.get("people") or ())


def idle_deadline(config: Mapping[str, Any]) -> tuple[float, dict[str, Any]]:
    """The deadline of a waiting table: ``idle_minutes`` on, the system's ``idle_end``."""
    return 60.0 * float(config.get("idle_minutes", DEFAULT_IDLE_MINUTES)), {"type": IDLE_END}


def idle_end_refusal(waiting: bool) -> IllegalAction | None:
    """Why ``idle_end`` is refused now (the table does not wait), or ``None``. The server's own
    command, never a player's: its refusal is the ``illegal_action`` of every such command."""
    if waiting:
        return None
    return IllegalAction(T("The table is not waiting for players."))


def history_line(event: Any) -> Text | None:
    """The hand history's line for this module's events, or ``None`` for any other."""
    if isinstance(event, DealPostponed):
        return T("Nobody is dealt in: the table waits for a player to sit in")
    if isinstance(event, IdleEnded):
        return T("Nobody sat in for the time the table waits: it ends as if its owner had ended it")
    return None


# Each event as a sentence for players (``games.engine.sentences``), for the games that wait.
SENTENCES: dict[str, Describe] = {
    "DealPostponed": lambda e: (T("Nobody is dealt in: the table waits for a player to sit in"),),
    "IdleEnded": lambda e: (T("Nobody sat in for the time the table waits: it ends as if its owner had ended it"),),
}
