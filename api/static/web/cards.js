// One card as an element a screen reader can name: <span class="card" role="img" aria-label="…">,
// its face drawn from the service's own card set (cards.svg): the rank as text, the suit (or the
// joker's cap, or a card's back) as an SVG symbol, so no face depends on an emoji font.
import { t } from "./i18n.js";

const RANKS = {
  2: () => t("two"), 3: () => t("three"), 4: () => t("four"), 5: () => t("five"), 6: () => t("six"),
  7: () => t("seven"), 8: () => t("eight"), 9: () => t("nine"), T: () => t("ten"),
  J: () => t("jack"), Q: () => t("queen"), K: () => t("king"), A: () => t("ace"),
};
const SUITS = {
  c: () => t("clubs"), d: () => t("diamonds"), h: () => t("hearts"), s: () => t("spades"),
};
const SUIT_SIGNS = { c: "♣", d: "♦", h: "♥", s: "♠" };
// The Spanish deck (GC-1): 1..12 of oros, copas, espadas, bastos; 10, 11, 12 are sota, caballo, rey.
const SPANISH_SUITS = { o: () => t("coins"), c: () => t("cups"), e: () => t("swords"), b: () => t("batons") };
const SPANISH_RANKS = {
  1: () => t("ace"), 10: () => t("knave"), 11: () => t("knight"), 12: () => t("king"),
};
// The symbols of cards.svg for each suit code.
const FRENCH_SYMBOLS = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const SPANISH_SYMBOLS = { o: "oros", c: "copas", e: "espadas", b: "bastos" };

// Beside this module, whatever path the page was served from (the set's URL is not the page's).
const CARD_SET = new URL("cards.svg", import.meta.url).href;
const SVG = "http://www.w3.org/2000/svg";

// "2c".."9c" are the two to nine of clubs in the French deck and of copas in the Spanish one
// (GC-1): a code alone cannot tell, the deck of the table drawn can. The page draws one table (or
// one hand, or one dispute) at a time, and whatever draws it says its deck first.
let spanishInPlay = false;

// The deck of what the page draws next, by its name in a view or an audit ("spanish_40",
// "spanish_48_jokers", "english"…; none for a game with one deck).
export function useDeck(name) {
  spanishInPlay = typeof name === "string" && name.startsWith("spanish");
}

function isJoker(code) {
  return code === "X1" || code === "X2";
}

// [rank, suit] of a Spanish card ("12b" → [12, "b"]), or null.
function spanish(code) {
  if (!spanishInPlay && /^[2-9][cdhs]$/.test(code)) return null;
  const match = /^(1[0-2]|[1-9])([oceb])$/.exec(code);
  return match ? [Number(match[1]), match[2]] : null;
}

// [rank as shown, symbol] of a French card ("Td" → ["10", "diamonds"]), or null.
function french(code) {
  if (spanish(code) || code.length !== 2 || !RANKS[code[0]] || !FRENCH_SYMBOLS[code[1]]) return null;
  return [code[0] === "T" ? "10" : code[0], FRENCH_SYMBOLS[code[1]]];
}

export function cardName(code) {
  if (isJoker(code)) return t("joker");
  const card = spanish(code);
  if (card) {
    const [rank, suit] = card;
    const rankName = SPANISH_RANKS[rank] ? SPANISH_RANKS[rank]() : RANKS[rank]();
    return t("%(rank)s of %(suit)s", { rank: rankName, suit: SPANISH_SUITS[suit]() });
  }
  if (!french(code)) return code;
  return t("%(rank)s of %(suit)s", { rank: RANKS[code[0]](), suit: SUITS[code[1]]() });
}

// The face in running text (a button's label): "A♥", "10♦" in a left-to-right isolate (U+2066 …
// U+2069), so it stays "10♦" in a Persian sentence rather than "♦10". Text has only the French
// suits' signs: a joker or a Spanish card is named in words.
export function faceInText(code) {
  const card = french(code);
  return card ? `\u2066${card[0]}${SUIT_SIGNS[code[1]]}\u2069` : cardName(code);
}

function symbol(name, className) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `${CARD_SET}#${name}`);
  svg.append(use);
  return svg;
}

// A face-down card: the set's back, named as one.
export function cardBack() {
  const card = document.createElement("span");
  card.className = "card back";
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", t("face-down card"));
  card.append(symbol("back", "back-design"));
  return card;
}

// A card face: the rank above its suit, or the joker's cap (X2 in red, as in a printed deck).
export function cardElement(code) {
  if (code == null) return cardBack();
  const card = document.createElement("span");
  card.className = "card";
  card.setAttribute("role", "img");
  card.dataset.card = code;
  card.setAttribute("aria-label", cardName(code));
  const rank = (text) => Object.assign(document.createElement("span"), { className: "rank", textContent: text });
  const sp = spanish(code);
  const fr = french(code);
  if (isJoker(code)) {
    card.dataset.suit = "joker";
    card.append(symbol("joker", "suit"));
    if (code === "X2") card.classList.add("red");
  } else if (sp) {
    card.dataset.suit = SPANISH_SYMBOLS[sp[1]];
    card.append(rank(String(sp[0])), symbol(SPANISH_SYMBOLS[sp[1]], "suit"));
  } else if (fr) {
    card.dataset.suit = fr[1];
    card.append(rank(fr[0]), symbol(fr[1], "suit"));
    if (code[1] === "d" || code[1] === "h") card.classList.add("red");
  } else {
    card.append(rank(code)); // a code no deck has: shown as it is rather than hidden
  }
  return card;
}

export function cardRow(codes, label) {
  const row = document.createElement("div");
  row.className = "cards";
  row.setAttribute("role", "group");
  if (label) row.setAttribute("aria-label", label);
  for (const code of codes) row.append(cardElement(code));
  return row;
}
