// Euchre's part of the table page (EU-20: what a seat may see): your hand, the turned-up card,
// the bids, trump and the makers, who goes alone, the trick in play and the tricks taken, the
// scores by partnership, the claims shown. Server text is set with textContent only.

import { faceInText } from "../cards.js";
import { addStyle, cardRow, el, listOf } from "./parts.js";


// "A♥ (ace of hearts)": the face as text (cards.js) and the card's name; a joker, whose face in
// text is its name already, just "joker".
function cardWords(code, ctx) {
  const name = ctx.cardElement(code).getAttribute("aria-label") || code;
  const face = faceInText(code);
  return face === name ? name : `${face} (${name})`;
}

function suitName(suit, t) {
  return { c: t("clubs"), d: t("diamonds"), h: t("hearts"), s: t("spades") }[suit] || suit;
}

const SUIT_SIGNS = { c: "♣", d: "♦", h: "♥", s: "♠" };

// Partnerships: seats 0 and 2 against 1 and 3; in cutthroat each seat is on its own (EU-19).
function sides(state) {
  if (state.cutthroat || state.seats !== 4) return [...Array(state.seats).keys()].map((seat) => [seat]);
  return [[0, 2], [1, 3]];
}

function bidWords(bid, t) {
  if (bid === "pass") return t("passed");
  const alone = bid.endsWith(" alone");
  const core = alone ? bid.slice(0, -" alone".length) : bid;
  let words;
  if (core === "no_trump") words = t("called no trump");
  else if (core.startsWith("trump ")) words = t("made %(suit)s trump", { suit: suitName(core.slice(6), t) });
  else words = t(core);
  return alone ? t("%(bid)s, alone", { bid: words }) : words;
}

function scores(state, ctx) {
  const { t, nt } = ctx;
  const list = el("ul", { className: "euchre-scores" });
  for (const side of sides(state)) {
    const names = listOf(side.map((seat) => ctx.playerName(seat)));
    const tricks = side.reduce((sum, seat) => sum + (state.tricks_won[seat] || 0), 0);
    const mine = side.includes(ctx.you);
    const makers = side.includes(state.maker);
    list.append(el("li", { dataset: { seats: side.join(" ") }, className: mine ? "yours" : null },
      el("strong", {}, names), ": ",
      nt("%(count)s point", "%(count)s points", state.scores[side[0]]), " · ",
      nt("%(count)s trick this hand", "%(count)s tricks this hand", tricks),
      makers ? ` · ${t("makers")}` : "",
      (state.winners || []).some((seat) => side.includes(seat)) ? ` · ${t("won the match")}` : ""));
  }
  return el("section", { className: "euchre-score-box", "aria-label": t("Scores") },
    el("h3", {}, nt("Scores (to %(count)s point)", "Scores (to %(count)s points)", state.target_points)), list);
}

function turnedCard(state, ctx) {
  const { t } = ctx;
  if (!state.turned_card) return null;
  let fate = t("turned up");
  if (state.picked_up) fate = t("picked up by the dealer");
  else if (state.turned_down) fate = t("turned down");
  return el("div", { className: "euchre-turned" }, el("h3", {}, t("The kitty's turned card")),
    cardRow([state.turned_card], t("Turned card"), ctx), el("p", {}, fate));
}

function contract(state, ctx) {
  const { t } = ctx;
  if (state.maker < 0) return null;
  const lines = [];
  const trump = state.no_trump ? t("No trump") : t("Trump: %(suit)s", { suit: `${SUIT_SIGNS[state.trump] || ""} ${suitName(state.trump, t)}` });
  lines.push(el("p", { className: "euchre-trump", dataset: { trump: state.trump || "none" } }, trump));
  lines.push(el("p", {}, t("Made by %(player)s; makers: %(players)s", {
    player: ctx.playerName(state.maker),
    players: listOf((state.makers || []).map((seat) => ctx.playerName(seat))),
  })));
  if (state.alone) {
    lines.push(el("p", { className: "euchre-alone" }, t("%(player)s goes alone", { player: ctx.playerName(state.maker) }),
      state.sitting_out >= 0 ? ` · ${t("%(player)s sits this hand out", { player: ctx.playerName(state.sitting_out) })}` : ""));
  }
  return el("div", { className: "euchre-contract" }, lines);
}

function bids(state, ctx) {
  const { t } = ctx;
  if (!(state.bids || []).length) return null;
  return el("div", { className: "euchre-bids" },
    el("h3", {}, t("Bidding, round %(round)s", { round: state.bidding_round })),
    el("ol", {}, state.bids.map((bid) => el("li", { dataset: { seat: bid.seat } }, `${ctx.playerName(bid.seat)}: ${bidWords(bid.bid, t)}`))));
}

function plays(list, ctx) {
  return el("ul", { className: "euchre-plays" }, list.map((play) =>
    el("li", { dataset: { seat: play.seat } }, el("span", { className: "who" }, ctx.playerName(play.seat)), " ", ctx.cardElement(play.card))));
}

function trickInPlay(state, ctx) {
  const { t } = ctx;
  if (!(state.trick || []).length) return null;
  return el("section", { className: "euchre-trick", "aria-label": t("The trick in play") },
    el("h3", {}, t("Trick %(number)s", { number: (state.tricks || []).length + 1 })), plays(state.trick, ctx));
}

function tricksTaken(state, ctx) {
  const { t } = ctx;
  if (!(state.tricks || []).length) return null;
  const list = el("ol", {});
  for (const trick of state.tricks) {
    list.append(el("li", { dataset: { winner: trick.winner } }, el("p", {}, trick.sentence), plays(trick.plays, ctx)));
  }
  return el("details", { className: "euchre-tricks" }, el("summary", {}, t("Tricks taken this hand")), list);
}

function claimsShown(state, ctx) {
  const { t } = ctx;
  if (!(state.shown || []).length) return null;
  return el("div", { className: "euchre-shown" }, el("h3", {}, t("Hands shown")),
    state.shown.map((shown) => el("div", { dataset: { seat: shown.seat } }, ctx.playerName(shown.seat), " ",
      cardRow(shown.cards, t("%(player)s's shown cards", { player: ctx.playerName(shown.seat) }), ctx))));
}

function handSizes(state, ctx) {
  const { t, nt } = ctx;
  return el("ul", { className: "euchre-seats" }, (state.hand_sizes || []).map((count, seat) => {
    const marks = [];
    if (seat === state.dealer) marks.push(t("dealer"));
    if ((state.to_act || []).includes(seat)) marks.push(t("to act"));
    if (seat === state.sitting_out) marks.push(t("sits out"));
    if ((state.played_by_bot || []).includes(seat)) marks.push(t("played by the bot"));
    return el("li", { dataset: { seat } }, ctx.playerName(seat), ": ", nt("%(count)s card in hand", "%(count)s cards in hand", count), marks.length ? ` (${marks.join(", ")})` : "");
  }));
}

function phaseWords(phase, t) {
  return {
    waiting: t("Waiting for the deal"), claims: t("Claims before the bidding"), bidding: t("Bidding"),
    discard: t("The dealer discards"), play: t("Playing tricks"), between: t("Between hands"), finished: t("The match is over"),
  }[phase] || t(phase);
}

export function render(view, ctx) {
  addStyle("euchre");
  const { t } = ctx;
  const state = view.state || {};
  const root = el("div", { className: "game euchre" },
    el("p", { className: "euchre-phase" }, t("Hand %(number)s", { number: state.hand_no }), " · ", phaseWords(state.phase, t),
      state.cutthroat ? ` · ${t("cutthroat")}` : ""));
  root.append(scores(state, ctx));
  if (state.hand && state.hand.length) {
    root.append(el("div", { className: "euchre-hand" }, el("h3", {}, t("Your hand")), cardRow(state.hand, t("Your hand"), ctx)));
  }
  if (state.discard) root.append(el("div", { className: "euchre-discard" }, el("h3", {}, t("Your discard")), cardRow([state.discard], t("Your discard"), ctx)));
  root.append(...[turnedCard(state, ctx), contract(state, ctx), bids(state, ctx), claimsShown(state, ctx), trickInPlay(state, ctx), tricksTaken(state, ctx)].filter(Boolean));
  root.append(handSizes(state, ctx));
  if (state.hand_no <= 1 && (state.first_dealer_draws || []).length) {
    root.append(el("details", { className: "euchre-first-dealer" }, el("summary", {}, t("The draw for the first dealer")), plays(state.first_dealer_draws, ctx)));
  }
  return root;
}

export function describeAction(action, ctx) {
  const { t } = ctx;
  const alone = (words) => (action.alone ? t("%(bid)s, going alone", { bid: words }) : words);
  switch (action.type) {
    case "pass": return t("Pass");
    case "order_up": return alone(t("Order it up"));
    case "pick_up": return alone(t("Pick it up"));
    // Short, so that the second round's seven bids stay on a phone's first screen in every
    // language; describeActionWords says the bid in full for screen readers.
    case "name_trump": {
      const suit = `${SUIT_SIGNS[action.suit] || ""} ${suitName(action.suit, t)}`;
      return action.alone ? t("Trump: %(suit)s, alone", { suit }) : t("Trump: %(suit)s", { suit });
    }
    case "call_no_trump": return alone(t("Call no trump"));
    // A card's move shows its face ("Play K♦"), short enough for a phone's first screen with a
    // dealer's six cards; describeActionWords names the card for screen readers.
    case "play": return t("Play %(card)s", { card: faceInText(action.card) });
    case "discard": return t("Discard %(card)s", { card: faceInText(action.card) });
    case "keep_hand": return t("Keep my hand");
    case "farmers_swap": return t("Farmer's hand: swap %(cards)s", { cards: action.cards.map((code) => faceInText(code)).join(" ") });
    case "ace_no_face": return t("Claim ace-no-face: redeal");
    default: return null;
  }
}

// The accessible name of a card's move: the card in words ("Play K♦ (king of diamonds)").
export function describeActionWords(action, ctx) {
  const { t } = ctx;
  if (action.type === "name_trump") {
    const words = t("Name %(suit)s trump", { suit: suitName(action.suit, t) });
    return action.alone ? t("%(bid)s, going alone", { bid: words }) : words;
  }
  if (action.type === "play") return t("Play %(card)s", { card: cardWords(action.card, ctx) });
  if (action.type === "discard") return t("Discard %(card)s", { card: cardWords(action.card, ctx) });
  return null;
}

// Every Euchre choice is a legal action of its own (one per card, suit or swap): no form needed.
export function actionFields() {
  return null;
}

// The table's layout (table.js): each seat's side's points, its cards as backs, the card it played
// to the trick in front of it; the turned card, trump and the trick's number in the middle.
export function table(view, ctx) {
  const { t, nt } = ctx;
  const state = view.state || {};
  const seats = {};
  const trick = new Map((state.trick || []).map((play) => [play.seat, play.card]));
  const sideOf = (seat) => sides(state).find((side) => side.includes(seat)) || [seat];
  (state.hand_sizes || []).forEach((count, seat) => {
    const marks = [];
    if ((state.makers || []).includes(seat)) marks.push(t("makers"));
    if (seat === state.sitting_out) marks.push(t("sits this hand out"));
    seats[seat] = {
      stack: nt("%(count)s point", "%(count)s points", (state.scores || [])[sideOf(seat)[0]] ?? 0),
      cards: seat === ctx.you ? null : Array(count).fill(null),
      front: trick.has(seat) ? ctx.cardElement(trick.get(seat)) : null,
      marks,
    };
  });
  const center = [el("p", { className: "euchre-phase" }, phaseWords(state.phase, t))];
  if (state.turned_card && !state.picked_up && !state.turned_down && state.maker < 0) {
    center.push(el("div", { className: "euchre-turned", dataset: { part: "turned" } }, cardRow([state.turned_card], t("Turned card"), ctx)));
  }
  if (state.maker >= 0) {
    center.push(el("p", { className: "euchre-trump" }, state.no_trump ? t("No trump") : t("Trump: %(suit)s", { suit: `${SUIT_SIGNS[state.trump] || ""} ${suitName(state.trump, t)}` })));
  }
  if (state.phase === "play") center.push(el("p", {}, t("Trick %(number)s", { number: (state.tricks || []).length + 1 })));
  return { seats, center, hand: state.hand || [], dealer: state.dealer ?? null };
}
