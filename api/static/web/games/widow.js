// What La Viuda and Whiskey Poker share on the table: your hand, the widow (face up or down), the
// pot, the wild rank, the knocks, and the exchange actions' words.
import { nt, t } from "../i18n.js";
import { faceInText } from "../cards.js";

function el(tag, className, ...children) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  for (const child of children) if (child != null) element.append(child);
  return element;
}

function row(cards, label, ctx) {
  const box = el("div", "cards");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", label);
  for (const code of cards) box.append(ctx.cardElement(code));
  return box;
}


function wildWords(rank) {
  const plurals = {
    2: () => t("twos"), 3: () => t("threes"), 4: () => t("fours"), 5: () => t("fives"), 6: () => t("sixes"),
    7: () => t("sevens"), 8: () => t("eights"), 9: () => t("nines"), T: () => t("tens"), J: () => t("jacks"),
    Q: () => t("queens"), K: () => t("kings"), A: () => t("aces"),
  };
  return plurals[rank] ? t("Wild: %(rank)s and the jokers", { rank: plurals[rank]() }) : null;
}

export function renderWidow(view, ctx, extra) {
  const state = view.state;
  const root = el("div", "widow-game");
  root.dataset.phase = state.phase ?? "";
  const facts = el("ul", "facts");
  const fact = (text, name) => {
    const item = el("li", null, text);
    if (name) item.dataset.fact = name;
    facts.append(item);
  };
  fact(t("Hand %(no)s", { no: state.hand_no ?? "—" }), "hand-no");
  fact(nt("Pot: %(count)s chip", "Pot: %(count)s chips", state.pot ?? 0), "pot");
  if (state.wild_rank) fact(wildWords(state.wild_rank) || state.wild_rank, "wild");
  if (state.dealer != null) fact(t("Dealer: %(name)s", { name: ctx.playerName(state.dealer) }), "dealer");
  if (state.turn != null) fact(t("Turn: %(name)s", { name: ctx.playerName(state.turn) }), "turn");
  if (state.knocks && state.knocks.length) {
    fact(t("Knocked: %(names)s", { names: state.knocks.map((seat) => ctx.playerName(seat)).join(", ") }), "knocks");
  }
  if (state.turns_before_forced_knock != null) fact(t("Turns before a forced knock: %(count)s", { count: state.turns_before_forced_knock }), "forced");
  for (const line of extra(state, ctx)) fact(line);
  root.append(facts);

  // The widow and the pot are drawn in the middle of the table (table.js), from table(view).
  // Your hand is drawn large at the foot of the table (table.js), from table(view).hand.
  if (state.finished) {
    const winner = state.winner != null ? t("The game is over: %(name)s wins.", { name: ctx.playerName(state.winner) }) : t("The game is over.");
    root.append(el("p", "finished", winner));
  }
  return root;
}

// The table's layout (table.js): each seat's stack (`stackOf(state, seat)`, chips, lives or
// points), its hidden hand as backs while a hand is in play, a knock in front of the seat; the pot,
// the widow and the wild rank in the middle; your hand.
export function widowTable(view, ctx, stackOf) {
  const state = view.state || {};
  const inPlay = state.phase != null && !state.finished;
  const seats = {};
  for (let seat = 0; seat < (state.seats || 0); seat += 1) {
    const out = Boolean((state.out || [])[seat]);
    const marks = [];
    if (out) marks.push(t("out"));
    const knocked = (state.knocks || []).includes(seat);
    seats[seat] = {
      stack: stackOf(state, seat),
      cards: inPlay && (state.order || []).includes(seat) && seat !== ctx.you ? [null, null, null, null, null] : null,
      front: knocked ? el("span", "knock", t("knocked")) : null,
      marks,
    };
  }
  const center = [];
  const pot = el("p", "pot", nt("Pot: %(count)s chip", "Pot: %(count)s chips", state.pot ?? 0));
  pot.dataset.part = "pot";
  center.push(pot);
  if (state.widow) {
    const widow = row(state.widow, t("The widow"), ctx);
    widow.dataset.part = "widow";
    center.push(widow);
  } else if (inPlay) {
    const widow = row([null, null, null, null, null], t("The widow, face down"), ctx);
    widow.dataset.part = "widow";
    center.push(widow);
  }
  if (state.wild_rank) center.push(el("p", "wild", wildWords(state.wild_rank) || ""));
  return { seats, center, hand: state.hand || [], dealer: state.dealer ?? null };
}

export function describeWidowAction(action, ctx) {
  switch (action.type) {
    case "pass":
      return t("Pass");
    case "knock":
      return t("Knock");
    case "exchange_all":
      return t("Take the whole widow");
    case "exchange_one":
      return t("Give %(give)s, take %(take)s", { give: faceInText(action.give), take: faceInText(action.take) });
    case "buy_widow":
      return t("Buy the widow");
    case "decline_widow":
      return t("Decline the widow");
    case "sit_out":
      return t("Sit out");
    case "sit_in":
      return t("Sit in");
    case "leave":
      return t("Leave the table");
    case "end_match":
      return t("End the match");
    default:
      return null;
  }
}


// Every "give this card, take that one" offered, as one form: a card of your hand and a card of
// the widow (WX-3), rather than a button for each of the 25 pairs.
export function widowActionGroups(actions) {
  const exchanges = actions.filter((action) => action.type === "exchange_one");
  if (exchanges.length < 2) return [];
  const distinct = (name) => [...new Set(exchanges.map((action) => action[name]))];
  return [{
    type: "exchange_one",
    label: t("Exchange these two cards"),
    actions: exchanges,
    fields: [
      { name: "give", kind: "card", label: t("Give one of your cards"), cards: distinct("give") },
      { name: "take", kind: "card", label: t("Take one of the widow's cards"), cards: distinct("take") },
    ],
  }];
}
