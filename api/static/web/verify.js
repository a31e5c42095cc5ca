// A finished hand checked in the browser, trusting nothing the server computed (CM-5..CM-10).
//
// From the revealed server seed alone this recomputes the commitment (SHA-256 of the seed) and,
// with the hand's client seed, table and number, the whole shuffled deck: the HMAC-SHA256 stream
// of CM-7, the unbiased draw of CM-8 and the Fisher-Yates of CM-9 over the canonical deck of CM-3.
// Only WebCrypto is used. The Python twins are games/engine/fairness.py and docs/verify_hand.py;
// tests/web/test_verify.py checks that all three give the same decks.

const encoder = new TextEncoder();
const WORD_RANGE = 2 ** 32;

// The canonical orders (CM-3, GC-1, WP-8), as games/engine/cards.py DECKS names them.
const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const JOKERS = ["X1", "X2"];

function english(ranks = RANKS) {
  const cards = [];
  for (const rank of RANKS) {
    if (!ranks.includes(rank)) continue;
    for (const suit of SUITS) cards.push(rank + suit);
  }
  return cards;
}

function spanish(size) {
  const cards = [];
  for (let number = 1; number <= 12; number += 1) {
    if (size === 40 && (number === 8 || number === 9)) continue;
    for (const suit of "oceb") cards.push(`${number}${suit}`);
  }
  return cards;
}

const DECKS = {
  english_52: () => english(),
  english_53: () => [...english(), JOKERS[0]],
  english_54: () => [...english(), ...JOKERS],
  euchre_24: () => english("9TJQKA"),
  spanish_40: () => spanish(40),
  spanish_48: () => spanish(48),
  spanish_40_jokers: () => [...spanish(40), ...JOKERS],
  spanish_48_jokers: () => [...spanish(48), ...JOKERS],
};
// Whiskey Poker's reduced packs: ten ranks up for 2 players, one rank more for each player more.
for (let players = 2; players <= 7; players += 1) {
  DECKS[`reduced_${players}`] = () => english(RANKS.slice(8 - (players - 2)));
}

/** A deck in canonical order by its name; null for a name the engine does not know. */
export function deckByName(name) {
  return Object.hasOwn(DECKS, name) ? DECKS[name]() : null;
}

export const deckNames = Object.keys(DECKS);

/** Lowercase hex of a byte array. */
export function toHex(bytes) {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The bytes of a hex string; null when it is not one. */
export function fromHex(hex) {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** The commitment of a seed (CM-5): SHA-256 of its bytes, lowercase hex. */
export async function commitment(seedBytes) {
  return toHex(await crypto.subtle.digest("SHA-256", seedBytes));
}

/**
 * The random stream of one purpose in one hand (CM-7): the blocks
 * HMAC-SHA256(server_seed, "table:hand:client:purpose:counter"), counter 0, 1, 2, ... read
 * 4 bytes at a time as big-endian words. `next()` gives the next word, `uniform(m)` an integer in
 * [0, m) without modulo bias (CM-8).
 */
export async function stream(seedBytes, tableId, handNo, clientSeed, purpose = "deck") {
  const key = await crypto.subtle.importKey("raw", seedBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const prefix = `${tableId}:${handNo}:${clientSeed}:${purpose}:`;
  let counter = 0;
  let block = null;
  let offset = 32;
  async function next() {
    if (offset >= 32) {
      block = new DataView(await crypto.subtle.sign("HMAC", key, encoder.encode(prefix + counter)));
      counter += 1;
      offset = 0;
    }
    const word = block.getUint32(offset, false);
    offset += 4;
    return word;
  }
  async function uniform(m) {
    if (!(m >= 1 && m <= WORD_RANGE)) throw new RangeError(`uniform() needs 1 <= m <= 2**32, got ${m}`);
    // The top of the word range that m does not divide evenly is rejected, so no value is favoured.
    const limit = WORD_RANGE - (WORD_RANGE % m);
    for (;;) {
      const word = await next();
      if (word < limit) return word % m;
    }
  }
  return { next, uniform };
}

/** Fisher-Yates from the last position down (CM-9) over `cards` as given; position 0 is the top card. */
export async function shuffle(cards, random) {
  const result = [...cards];
  for (let i = result.length - 1; i > 0; i -= 1) {
    const j = await random.uniform(i + 1);
    [result[i], result[j]] = [result[j], result[i]];
  }
  return result;
}

/** `cards` shuffled with the stream of `purpose` of one hand, as games.engine.fairness.shuffled. */
export async function shuffled(cards, seedBytes, tableId, handNo, clientSeed, purpose = "deck") {
  return shuffle(cards, await stream(seedBytes, tableId, handNo, clientSeed, purpose));
}

// The sentences go through Django's JavaScript catalogue (/jsi18n/, the page's language) when the
// page has loaded it; verify.js imports nothing, so it also runs on a bare page.
function t(msgid, values) {
  const text = typeof window !== "undefined" && window.gettext ? window.gettext(msgid) : msgid;
  if (!values) return text;
  return window.interpolate ? window.interpolate(text, values, true) : text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
}

const PROBLEMS = {
  no_seed: () => t("No server seed has been revealed for this hand yet."),
  bad_seed: () => t("The revealed server seed is not hexadecimal."),
  other_table: () => t("This audit is of another table."),
  unknown_deck: (computed) => t("The audit names a deck this page does not know: %(deck)s.", { deck: computed.deck_name }),
  no_deck: () => t("The audit does not list the deck it dealt."),
};

/**
 * Check a hand's audit (the JSON of GET /api/v1/tables/{id}/hands/{no}/audit/) in the browser.
 *
 * `tableId` is the table the person is looking at: the stream is keyed by it, not by the audit's
 * own word, so an audit of another table does not pass. Returns
 * `{verified, commitment_ok, deck_ok, details, computed}`: `details` are sentences for the person
 * (translated when the page has the catalogue), `computed` the machine fields behind them:
 * `problem` (null, "no_seed", "bad_seed", "unknown_deck", "no_deck", "other_table"), `commitment`
 * (the recomputed one), `deck` (the recomputed order), `deck_name`, and `first_difference` (the
 * first position, from 0, where the audit's deck differs; null when none does).
 * `deck_ok` is null when the hand dealt no deck (nothing to recompute).
 */
export async function verifyHand(audit, tableId) {
  const table = String(tableId ?? audit.table_id ?? "");
  const computed = {
    problem: null,
    commitment: null,
    deck: null,
    deck_name: audit.deck_name ?? null,
    first_difference: null,
  };
  const outcome = (commitmentOk, deckOk) => {
    const details = [];
    if (computed.problem) details.push(PROBLEMS[computed.problem](computed));
    if (computed.commitment !== null) {
      details.push(
        commitmentOk
          ? t("The commitment matches: SHA-256 of the revealed seed is %(commitment)s.", computed)
          : t("The commitment does not match: SHA-256 of the revealed seed is %(commitment)s, the audit says %(claimed)s.", {
              ...computed,
              claimed: String(audit.commitment ?? "-"),
            }),
      );
    }
    if (deckOk === true) {
      details.push(t("The whole deck (%(count)s cards) is the one the seeds deal.", { count: computed.deck.length }));
    } else if (computed.first_difference !== null) {
      details.push(t("The deck differs from the one the seeds deal at card %(position)s from the top.", { position: computed.first_difference + 1 }));
    } else if (deckOk === null && computed.commitment !== null) {
      details.push(t("The hand dealt no deck: only the commitment is checked."));
    }
    return { verified: commitmentOk && deckOk !== false, commitment_ok: commitmentOk, deck_ok: deckOk, details, computed };
  };
  const failed = (problem) => {
    computed.problem = problem;
    return outcome(false, false);
  };
  if (audit.table_id && String(audit.table_id).toLowerCase() !== table.toLowerCase()) return failed("other_table");
  if (!audit.server_seed) return failed("no_seed");
  const seed = fromHex(audit.server_seed);
  if (!seed || seed.length === 0) return failed("bad_seed");

  computed.commitment = await commitment(seed);
  const commitmentOk = typeof audit.commitment === "string" && computed.commitment === audit.commitment.toLowerCase();

  let deckOk = null;
  const claimed = Array.isArray(audit.deck) ? audit.deck : null;
  if (audit.deck_name || claimed) {
    const canonical = audit.deck_name ? deckByName(audit.deck_name) : null;
    if (!canonical) {
      computed.problem = "unknown_deck";
      deckOk = false;
    } else {
      computed.deck = await shuffled(
        canonical, seed, table, Number(audit.hand_no), audit.client_seed ?? "", audit.purpose || "deck",
      );
      if (claimed) {
        const length = Math.max(claimed.length, computed.deck.length);
        for (let i = 0; i < length; i += 1) {
          if (claimed[i] !== computed.deck[i]) {
            computed.first_difference = i;
            break;
          }
        }
        deckOk = computed.first_difference === null;
      } else {
        // The audit names a deck but does not say what it dealt: nothing to compare with.
        computed.problem = "no_deck";
        deckOk = false;
      }
    }
  }
  return outcome(commitmentOk, deckOk);
}
