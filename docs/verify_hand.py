#!/usr/bin/env python3
"""Check a hand's fair shuffle with nothing but Python's standard library (CM-5..CM-10, CM-18).

Usage:
    python verify_hand.py audit.json
    python verify_hand.py --server-seed HEX --commitment HEX --table-id UUID --hand-no N \\
        --client-seed 'alice|bob' --deck-name english_52 [--purpose deck]
    python verify_hand.py --server-seed HEX --table-id UUID --hand-no N --client-seed '||' \\
        --deck-name english_52 --purpose reshuffle-1 --cards '2c 7d Kh ...'

The audit JSON holds ``server_seed`` (hex), ``commitment``, ``table_id``, ``hand_no``,
``client_seed``, and the deck as ``deck_name``; optionally ``deck``, the order the
server says it dealt (a list of card codes), which is then compared. The script prints whether
``sha256(server_seed)`` equals the commitment and the shuffled deck, top card first. With
``events`` (a hand audit's), every later shuffle of some cards is recomputed too (CM-18): a
``StockReshuffled`` event's ``cards``, put in the deck's canonical order and shuffled with purpose
``reshuffle-N``, must give its new ``stock``. ``--cards`` (or ``cards`` in the JSON) shuffles
just those cards that way, with ``--purpose``. Exit status 0 when everything given matches, 1
otherwise.

Deck names: english_52, english_53 (one joker), english_54 (jokers), euchre_24, spanish_40, spanish_48, spanish_40_jokers,
spanish_48_jokers, reduced_2 .. reduced_7 (Whiskey Poker's reduced packs).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKERS = ["X1", "X2"]


def english(ranks: str = RANKS) -> list[str]:
    """Canonical order (CM-3): ranks ascending, suits c d h s within a rank."""
    return [rank + suit for rank in RANKS if rank in ranks for suit in SUITS]


def spanish(size: int) -> list[str]:
    """Canonical Spanish order (GC-1): numbers 1..12 (no 8 or 9 in the 40), suits o c e b."""
    numbers = [n for n in range(1, 13) if size == 48 or n not in (8, 9)]
    return [f"{n}{suit}" for n in numbers for suit in "oceb"]


def deck_named(name: str) -> list[str]:
    """A deck in canonical order by name."""
    decks = {
        "english_52": english(),
        "english_53": english() + JOKERS[:1],
        "english_54": english() + JOKERS,
        "euchre_24": english("9TJQKA"),
        "spanish_40": spanish(40),
        "spanish_48": spanish(48),
        "spanish_40_jokers": spanish(40) + JOKERS,
        "spanish_48_jokers": spanish(48) + JOKERS,
    }
    for players in range(2, 8):
        decks[f"reduced_{players}"] = english(RANKS[8 - (players - 2) :])
    if name not in decks:
        raise SystemExit(f"unknown deck {name!r}; known: {', '.join(decks)}")
    return decks[name]


def stream(server_seed: bytes, table_id: str, hand_no: int, client_seed: str, purpose: str):
    """The blocks HMAC-SHA256(server_seed, 'table:hand:client:purpose:counter'), 4 bytes at a time (CM-7)."""
    counter = 0
    while True:
        message = f"{table_id}:{hand_no}:{client_seed}:{purpose}:{counter}".encode()
        block = hmac.new(server_seed, message, hashlib.sha256).digest()
        counter += 1
        for start in range(0, 32, 4):
            yield int.from_bytes(block[start : start + 4], "big")


def uniform(words, m: int) -> int:
    """A uniform integer in [0, m), rejecting the biased top of the range (CM-8)."""
    limit = 2**32 - (2**32 % m)
    for x in words:
        if x < limit:
            return x % m
    raise AssertionError("unreachable")


def shuffle(cards: list[str], words) -> list[str]:
    """Fisher-Yates from the last position down (CM-9); position 0 is the top card."""
    cards = list(cards)
    for i in range(len(cards) - 1, 0, -1):
        j = uniform(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def in_canonical_order(cards: list[str], canonical: list[str]) -> list[str]:
    """Some cards of a deck in the deck's canonical order, before a later shuffle (CM-18)."""
    position = {card: i for i, card in enumerate(canonical)}
    strange = [card for card in cards if card not in position]
    if strange:
        raise SystemExit(f"cards not in the deck: {' '.join(strange)}")
    return sorted(cards, key=position.__getitem__)


def reshuffles(audit: dict, seed: bytes, canonical: list[str]) -> bool:
    """Every StockReshuffled event of the audit recomputed (CM-18): True when each matches."""
    ok = True
    for event in audit.get("events") or []:
        if event.get("type") != "StockReshuffled":
            continue
        fields = {**(event.get("data") or {}), **(event.get("secret") or {})}
        purpose = f"reshuffle-{fields['number']}"
        words = stream(seed, audit["table_id"], int(audit["hand_no"]), audit.get("client_seed", ""), purpose)
        result = shuffle(in_canonical_order(list(fields["cards"]), canonical), words)
        print(f"{purpose} of {len(fields['cards'])} cards (top card first):")
        print(" ".join(result))
        matches = result == list(fields["stock"])
        ok &= matches
        print(f"{purpose}: {'matches the audit' if matches else 'DIFFERS from the audit'}")
    return ok


def verify(audit: dict) -> tuple[bool, list[str]]:
    """Print the checks of one audit; True when everything it claims is confirmed."""
    seed = bytes.fromhex(audit["server_seed"])
    ok = True
    digest = hashlib.sha256(seed).hexdigest()
    if audit.get("commitment"):
        matches = digest == audit["commitment"].lower()
        ok &= matches
        print(f"commitment: {'matches' if matches else 'DOES NOT MATCH'} (sha256 of the seed is {digest})")
    else:
        print(f"commitment: none given (sha256 of the seed is {digest})")
    claimed = audit.get("deck")
    name = audit.get("deck_name") or (claimed if isinstance(claimed, str) else "english_52")
    canonical = deck_named(name)
    purpose = audit.get("purpose", "deck")
    words = stream(seed, audit["table_id"], int(audit["hand_no"]), audit.get("client_seed", ""), purpose)
    some = audit.get("cards")
    result = shuffle(in_canonical_order(list(some), canonical) if some else canonical, words)
    what = f"{len(some)} cards of {name}" if some else name
    print(f"deck ({what}, purpose {purpose}, top card first):")
    print(" ".join(result))
    if isinstance(claimed, list):
        if claimed == result:
            print("deck: matches the audit")
        else:
            ok = False
            where = next((i for i, (a, b) in enumerate(zip(claimed, result)) if a != b), min(len(claimed), len(result)))
            print(f"deck: DIFFERS from the audit at position {where}")
    ok &= reshuffles(audit, seed, canonical)
    return ok, result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Verify a hand's fair shuffle (CM-5..CM-10).")
    parser.add_argument("audit", nargs="?", help="audit JSON file")
    parser.add_argument("--server-seed")
    parser.add_argument("--commitment")
    parser.add_argument("--table-id")
    parser.add_argument("--hand-no", type=int)
    parser.add_argument("--client-seed", default="")
    parser.add_argument("--deck-name", default="english_52")
    parser.add_argument("--purpose", default="deck")
    parser.add_argument("--cards", help="shuffle only these cards (space-separated), e.g. a reshuffle's")
    args = parser.parse_args(argv)
    if args.audit:
        with open(args.audit, encoding="utf-8") as handle:
            audit = json.load(handle)
    else:
        if not (args.server_seed and args.table_id and args.hand_no):
            parser.error("give an audit file, or --server-seed, --table-id and --hand-no")
        audit = {
            "server_seed": args.server_seed,
            "commitment": args.commitment,
            "table_id": args.table_id,
            "hand_no": args.hand_no,
            "client_seed": args.client_seed,
            "deck_name": args.deck_name,
            "purpose": args.purpose,
            "cards": args.cards.split() if args.cards else None,
        }
    ok, _ = verify(audit)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
