"""What a seat may see of Guerra Chevichona (GC-13). Every seat and spectator sees the same:
nobody holds a hand, and what is hidden (a pile's order, the face-down cards of a round not yet
over, the deal) is hidden from all."""

from __future__ import annotations

from typing import Any

from games.engine.codec import encode_event
from games.rules.guerra.state import Play, State, awaited
from games.rules.guerra.words import lot_sentence, round_sentence, seat_names

# The game's slug, which every view names.
GAME = "guerra"


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Pile sizes, who is in, which seats the table's bot plays (CM-20), the cards on the table
    face up and the last round (GC-13);
    never a pile's order, nor a face-down card of a round not yet over."""
    return {
        "game": GAME,
        "status": "finished" if state.finished else "running" if state.hand_no else "waiting",
        "seat": seat,
        "deck": state.match.deck,
        "jokers": state.match.jokers,
        "ace_high": state.match.ace_high,
        "max_rounds": state.match.max_rounds,
        "auto_play": state.match.auto_play,
        "rounds_played": state.round_no,
        "next_round_size": state.size,
        "players": [
            {
                "seat": i,
                "cards": len(state.piles[i]) if state.piles else 0,
                "out": (state.out[i] or None) if state.out else None,
                "thrown": state.thrown[i] if state.thrown else False,
            }
            for i in range(state.seats)
        ],
        "awaiting": list(awaited(state)),
        "played_by_bot": sorted(state.presence.away),
        "forfeited_cards": len(state.forfeited),
        "table": [_play_view(play, round_over=False) for play in state.table],
        "last_round": _last_round_view(state),
        "ambushes": state.ambushes,
        "winners": list(state.winners),
        "end_reason": state.end_reason or None,
        "hand_no": state.hand_no,
        "commitment": state.match.commitment or None,
        "next_commitment": state.match.next_commitment,
        "client_seed": state.match.client_seed if state.hand_no else None,
        "server_seed": state.match.server_seed if state.finished else None,
    }


def _last_round_view(state: State) -> dict[str, Any] | None:
    """The last round once it is over, every card face up (GC-13), in words too; None before one."""
    last = state.last_round
    if last is None:
        return None
    names = seat_names(state.seats)
    return {
        "round_no": last.round_no,
        "size": last.size,
        "plays": [_play_view(play, round_over=True) for play in last.plays],
        "skirmishes": [{"skirmish": k + 1, "highest": list(seats)} for k, seats in enumerate(last.skirmishes)],
        "battles": [{"skirmish": k, "winner": winner} for k, winner in last.battles],
        "ambush": list(last.ambush),
        "taker": last.taker,
        "cards_taken": last.count,
        "sentence": round_sentence(last.round_no, last.taker, last.count, bool(last.ambush), names),
        # GC-14: a round settled by lot says so, why, and who was drawn.
        "settled_by_lot": [
            {"players": list(players), "drawn": drawn, "sentence": lot_sentence(players, drawn, names)}
            for players, drawn in last.draws
        ],
    }


def view_event(event: Any, seat: int | None) -> dict[str, Any]:
    """An event's public fields: nobody sees a deal, a forfeited pile or a shuffled pile, and
    battles' face-down cards only in ``RoundTaken`` (GC-13)."""
    type_name, public, _secret = encode_event(event)
    return {"type": type_name, **public}


def _play_view(play: Play, round_over: bool) -> dict[str, Any]:
    if play.kind != "battle":
        return {"seat": play.seat, "kind": play.kind, "cards": list(play.cards)}
    data: dict[str, Any] = {
        "seat": play.seat,
        "kind": "battle",
        "skirmish": play.skirmish,
        "layer": play.layer,
        "face_up": play.cards[-1],
        "face_down_count": len(play.cards) - 1,
    }
    if round_over:
        data["face_down"] = list(play.cards[:-1])
    return data
