// One card as an element a screen reader can name: <span class="card" role="img" aria-label="…">.
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
const SPANISH_SIGNS = { o: "🪙", c: "🏆", e: "⚔", b: "🪵" };
const SPANISH_RANKS = {
  1: () => t("ace"), 10: () => t("knave"), 11: () => t("knight"), 12: () => t("king"),
};

export function cardName(code) {
  if (code === "X1" || code === "X2") return t("joker");
  const spanish = /^(\d{1,2})([oceb])$/.exec(code);
  if (spanish && !/^[2-9][cdhs]$/.test(code)) {
    const rank = Number(spanish[1]);
    const rankName = SPANISH_RANKS[rank] ? SPANISH_RANKS[rank]() : (RANKS[rank] ? RANKS[rank]() : String(rank));
    return t("%(rank)s of %(suit)s", { rank: rankName, suit: SPANISH_SUITS[spanish[2]]() });
  }
  const rank = RANKS[code[0]];
  const suit = SUITS[code[1]];
  if (!rank || !suit || code.length !== 2) return code;
  return t("%(rank)s of %(suit)s", { rank: rank(), suit: suit() });
}

// The short face shown on screen: "A♥", "10♦", "1🪙", "🃏".
export function cardFace(code) {
  if (code === "X1" || code === "X2") return "🃏";
  const spanish = /^(\d{1,2})([oceb])$/.exec(code);
  if (spanish && !/^[2-9][cdhs]$/.test(code)) return spanish[1] + SPANISH_SIGNS[spanish[2]];
  const rank = code[0] === "T" ? "10" : code[0];
  return rank + (SUIT_SIGNS[code[1]] || code.slice(1));
}

// The face in running text: a left-to-right isolate (U+2066 … U+2069), so "10♦" stays "10♦" in a
// Persian sentence or button rather than "♦10".
export function faceInText(code) {
  return `\u2066${cardFace(code)}\u2069`;
}

export function cardElement(code) {
  const card = document.createElement("span");
  card.className = "card";
  card.setAttribute("role", "img");
  if (code == null) {
    card.classList.add("back");
    card.setAttribute("aria-label", t("face-down card"));
    card.textContent = "🂠";
    return card;
  }
  card.dataset.card = code;
  card.setAttribute("aria-label", cardName(code));
  card.textContent = cardFace(code);
  if (/^.[dh]$/.test(code)) card.classList.add("red");
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
