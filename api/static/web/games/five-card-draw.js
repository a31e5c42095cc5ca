// Five-Card Draw's part of the table page (FD-19: what a seat may see): your cards, everyone's
// face-up cards (a shotgun card, an ace shown to draw four), stacks, bets, pots, the phase, how
// many each drew, and the last hand's pots and shares. The hands shown at the showdown go to the
// page's #showdown (showdown(view)); the owner's end of a cash table is ownerActions(view).
// Server text is set with textContent only.

import { t } from "../i18n.js";
import { faceInText } from "../cards.js";
import { number } from "../numbers.js";
import { addStyle, cardRow, el, listOf } from "./parts.js";


let lastView = null; // the view render() last drew: actionFields needs your cards for a draw

// "A♥ (ace of hearts)": the face as text (cards.js) and the card's name; a joker, whose face in
// text is its name already, just "joker".
function cardWords(code, ctx) {
  const name = ctx.cardElement(code).getAttribute("aria-label") || code;
  const face = faceInText(code);
  return face === name ? name : `${face} (${name})`;
}

// The table's rules in words; an unknown code shows as it is.
function rules(state, t) {
  const betting = { no_limit: t("no limit"), pot_limit: t("pot limit"), fixed_limit: t("fixed limit") };
  const forced = { ante: t("antes"), blinds: t("blinds") };
  const parts = [betting[state.betting] || state.betting, forced[state.forced_bets] || state.forced_bets];
  if (state.variant === "triple_draw") parts.push(t("triple draw"));
  if (state.opening === "jacks_or_better") parts.push(t("jacks or better to open"));
  if (state.ace_rule && state.ace_rule !== "none") parts.push(t("an ace shown lets you draw four"));
  if (state.wild && state.wild !== "none") parts.push(t("wild cards: %(wild)s", { wild: String(state.wild) }));
  if (state.shotgun) parts.push(t("shotgun: one card dealt face up"));
  if (state.high_low) parts.push(t("high-low split"));
  if (state.format === "tournament") parts.push(t("tournament"));
  return parts.filter(Boolean).join(" · ");
}

function phaseWords(hand, t) {
  if (!hand) return "";
  if (hand.phase === "drawing") return t("Draw %(number)s", { number: hand.draw });
  if (hand.phase === "betting") return t("Betting round %(number)s", { number: hand.street + 1 });
  if (hand.phase === "showdown") return t("Showdown");
  return t(hand.phase);
}

function playerStatus(player, state, t) {
  const words = [];
  if (player.eliminated) words.push(t("out of the game"));
  if (player.folded) words.push(t("folded"));
  if (player.all_in) words.push(t("all in"));
  if (player.leaving) words.push(t("leaving after this hand"));
  if (player.cannot_post) words.push(t("too few chips for the forced bet: not dealt in"));
  if (!player.present && !player.eliminated) words.push(t("away"));
  if ((state.played_by_bot || []).includes(player.seat)) words.push(t("played by the bot"));
  return words.join(", ");
}

function playersTable(state, ctx) {
  const { t, nt } = ctx;
  const hand = state.hand;
  const table = el("table", { className: "fcd-players" },
    el("caption", {}, t("Players")),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("Player")), el("th", { scope: "col" }, t("Stack")),
      el("th", { scope: "col" }, t("Bet this round")), el("th", { scope: "col" }, t("In the pot")),
      el("th", { scope: "col" }, t("Face-up cards")), el("th", { scope: "col" }, t("Drew")),
      el("th", { scope: "col" }, t("Status")))));
  const body = el("tbody");
  for (const player of state.players || []) {
    const name = ctx.playerName(player.seat);
    const marks = [];
    if (hand ? hand.button === player.seat : state.button === player.seat) marks.push(t("dealer"));
    if (hand && hand.opener === player.seat) marks.push(t("opened"));
    if ((state.to_act || []).includes(player.seat)) marks.push(t("to act"));
    if (player.seat === ctx.you) marks.push(t("you"));
    const drew = (player.drew || []).length
      ? player.drew.map((count) => nt("%(count)s card", "%(count)s cards", count)).join(" / ")
      : "";
    // data-label names each cell on a phone, where the rows stack and the header is hidden.
    body.append(el("tr", { dataset: { seat: player.seat }, className: player.folded ? "folded" : null },
      el("th", { scope: "row" }, name, marks.length ? el("span", { className: "marks" }, ` (${marks.join(", ")})`) : null),
      el("td", { dataset: { label: t("Stack") } }, number(player.stack)),
      el("td", { dataset: { label: t("Bet this round") } }, player.bet != null ? number(player.bet) : ""),
      el("td", { dataset: { label: t("In the pot") } }, player.contributed != null ? number(player.contributed) : ""),
      el("td", { dataset: { label: t("Face-up cards") } }, (player.face_up || []).length ? cardRow(player.face_up, t("%(player)s's face-up cards", { player: name }), ctx) : ""),
      el("td", { dataset: { label: t("Drew") } }, drew),
      el("td", { dataset: { label: t("Status") } }, playerStatus(player, state, t))));
  }
  table.append(body);
  return table;
}

// A pot as players name it: the main pot, a side pot, or a bet nobody called (one seat's chips
// alone, which go back to it) — never a "side pot" of one player.
function potName(pot, index, ctx) {
  const { t } = ctx;
  if (pot.eligible.length === 1) return t("Uncalled bet of %(player)s", { player: ctx.playerName(pot.eligible[0]) });
  return index === 0 ? t("Main pot") : t("Side pot %(number)s", { number: index });
}

function potsList(pots, ctx, heading) {
  const { t, nt } = ctx;
  if (!pots || !pots.length) return null;
  const list = el("ul", { className: "fcd-pots" });
  pots.forEach((pot, index) => {
    const name = potName(pot, index, ctx);
    const who = listOf(pot.eligible.map((seat) => ctx.playerName(seat)));
    list.append(el("li", { dataset: { pot: index } }, nt("%(pot)s: %(count)s chip, for %(players)s", "%(pot)s: %(count)s chips, for %(players)s", pot.amount, { pot: name, players: who })));
  });
  return el("div", {}, el("h3", {}, heading), list);
}

function shareWords(share, ctx) {
  const { t, nt } = ctx;
  const pot = share.pot === 0 ? t("the main pot") : t("side pot %(number)s", { number: share.pot });
  const values = { player: ctx.playerName(share.seat), pot };
  let words;
  // A pot of the seat's own chips alone, or the passed deals' pot paid back, is returned, not won.
  if (share.returned === "uncalled_bet") words = nt("%(player)s gets back an uncalled bet of %(count)s chip", "%(player)s gets back an uncalled bet of %(count)s chips", share.chips, values);
  else if (share.returned === "passed_deals") words = nt("%(player)s gets back %(count)s chip of the passed deals' pot", "%(player)s gets back %(count)s chips of the passed deals' pot", share.chips, values);
  else if (share.half === "high") words = nt("%(player)s wins %(count)s chip, the high half of %(pot)s", "%(player)s wins %(count)s chips, the high half of %(pot)s", share.chips, values);
  else if (share.half === "low") words = nt("%(player)s wins %(count)s chip, the low half of %(pot)s", "%(player)s wins %(count)s chips, the low half of %(pot)s", share.chips, values);
  else words = nt("%(player)s wins %(count)s chip from %(pot)s", "%(player)s wins %(count)s chips from %(pot)s", share.chips, values);
  return share.shown ? words : `${words} ${t("(hand not shown)")}`;
}

function lastHand(last, ctx) {
  const { t } = ctx;
  const box = el("section", { className: "fcd-last-hand", "aria-label": t("The last hand") },
    el("h3", {}, t("Hand %(number)s, the last one", { number: last.hand_no })));
  if (last.passed) box.append(el("p", {}, t("Nobody opened: the pot carries over to the next hand.")));
  const pots = potsList(last.pots, ctx, t("Pots"));
  if (pots) box.append(pots);
  if (last.shares && last.shares.length) {
    box.append(el("ul", { className: "fcd-shares" }, last.shares.map((share) => el("li", { dataset: { seat: share.seat } }, shareWords(share, ctx)))));
  }
  return box;
}

function endWords(state, ctx) {
  const { t } = ctx;
  const reasons = { owner_ended: t("The owner ended the table."), no_people_left: t("No people are left at the table."), one_player_left: t("One player is left.") };
  const lines = [];
  if (state.end_reason) lines.push(el("p", {}, reasons[state.end_reason] || t(state.end_reason)));
  if (state.winners && state.winners.length) {
    lines.push(el("p", { className: "winners" }, t("Winners: %(players)s", { players: listOf(state.winners.map((seat) => ctx.playerName(seat))) })));
  }
  return lines;
}

export function render(view, ctx) {
  addStyle("five-card-draw");
  lastView = view;
  const { t, nt } = ctx;
  const state = view.state || {};
  const hand = state.hand;
  const root = el("div", { className: "game five-card-draw" },
    el("p", { className: "fcd-rules" }, rules(state, t)));
  if (state.end_requested && state.status !== "finished") root.append(el("p", { role: "status" }, t("The owner ends the table after this hand.")));
  // FD-2, FD-13: the server's own words (textContent) for a player who cannot post the forced bet.
  if (state.notice) root.append(el("p", { role: "status", className: "fcd-notice" }, String(state.notice)));
  if (hand) {
    root.append(el("p", { className: "fcd-phase" },
      t("Hand %(number)s", { number: hand.hand_no }), " · ", phaseWords(hand, t),
      " · ", t("Highest bet this round: %(chips)s", { chips: hand.current_bet }),
      " · ", t("Cards left in the stock: %(count)s", { count: hand.stock })));
    if (hand.your_cards && hand.your_cards.length) {
      root.append(el("div", { className: "fcd-yours" }, el("h3", {}, t("Your cards")), cardRow(hand.your_cards, t("Your cards"), ctx)));
    }
    root.append(el("p", { className: "fcd-pot" }, nt("Pot: %(count)s chip", "Pot: %(count)s chips", state.pot)));
    const pots = potsList(hand.pots, ctx, t("Pots"));
    if (pots) root.append(pots);
    if (hand.carried) root.append(el("p", {}, nt("Carried over from the hand before: %(count)s chip", "Carried over from the hand before: %(count)s chips", hand.carried)));
  }
  root.append(playersTable(state, ctx));
  if (state.last_hand) root.append(lastHand(state.last_hand, ctx));
  root.append(...endWords(state, ctx));
  return root;
}

// The hands shown, for the page's #showdown: the hand in play's showdown, else the last hand's.
// Each as {seat, cards, category, category_name, description, outcome, tie_break}; a seat with a
// share of a pot "wins", one that only gets its uncalled bet back "returned", any other shown hand
// "loses" (the pots and shares stay in the panel).
// A high-low hand's low half is named after its high one.
export function showdown(view) {
  const state = view.state || {};
  const current = state.hand && state.hand.showdown && state.hand.showdown.length ? state.hand.showdown : null;
  const last = state.last_hand || null;
  const shown = current || (last && last.showdown) || [];
  if (!shown.length) return null;
  // Shares are known once the hand is over: the current hand's showdown has none yet.
  const shares = current ? null : (last && last.shares) || [];
  return shown.map((hand) => {
    const high = hand.description || "";
    const low = hand.low_category ? [hand.low_category_name || hand.low_category, hand.low_description].filter(Boolean).join(": ") : "";
    let outcome = "";
    if (shares) {
      const own = shares.filter((share) => share.seat === hand.seat);
      if (own.some((share) => !share.returned)) outcome = "wins";
      else outcome = own.length ? "returned" : "loses";
    }
    return {
      seat: hand.seat,
      cards: hand.cards,
      category: hand.category,
      category_name: hand.category_name || hand.category,
      description: low ? `${high}; ${t("Low hand")}: ${low}` : high,
      outcome,
      tie_break: [],
    };
  });
}

// The owner's commands now: a cash table's owner ends it (after the hand in play) with end_table.
export function ownerActions(view) {
  const state = view.state || {};
  if (state.format === "cash" && !state.end_requested && state.status !== "finished") return [{ type: "end_table" }];
  return [];
}

export function describeAction(action, ctx) {
  const { t } = ctx;
  switch (action.type) {
    case "fold": return t("Fold");
    case "check": return t("Check");
    case "call": return t("Call %(chips)s", { chips: action.amount });
    case "all_in": return t("All in (%(chips)s)", { chips: action.amount });
    case "bet": return t("Bet");
    case "raise": return t("Raise to");
    case "draw": return t("Draw");
    case "top_up": return t("Top up");
    case "end_table": return t("End the table after this hand");
    default: return null;
  }
}

// A chip amount within the action's bounds, with quick buttons for the least, the pot and the most.
function amountField(action, ctx) {
  const { t } = ctx;
  const id = `fcd-amount-${action.type}`;
  const input = el("input", { id, name: "amount", type: "number", min: action.min, max: action.max, step: 1, value: action.min, required: true, inputmode: "numeric" });
  const quick = el("span", { className: "fcd-quick", role: "group", "aria-label": t("Quick amounts") });
  const pot = lastView && lastView.state ? lastView.state.pot : null;
  const presets = [[t("Least"), action.min]];
  if (pot != null && pot > action.min && pot < action.max) presets.push([t("Pot size"), pot]);
  presets.push([t("Most"), action.max]);
  for (const [label, value] of presets) {
    // The amount in the page's digits (Persian ones on a Persian page); the data field stays a number.
    const button = el("button", { type: "button", dataset: { amount: value } }, `${label} ${number(value)}`);
    button.addEventListener("click", () => { input.value = String(value); input.focus(); });
    quick.append(button);
  }
  const box = el("div", { className: "fcd-amount" },
    el("label", { for: id }, ctx.nt("Amount (%(min)s to %(count)s chip)", "Amount (%(min)s to %(count)s chips)", action.max, { min: action.min })), input, quick);
  box.build = (built) => ({ ...built, amount: Number(built.amount) });
  return box;
}

// The cards to throw away: one checkbox per card of your hand, and with an ace rule the ace to show.
function drawField(action, ctx) {
  const { t } = ctx;
  const hand = (lastView && lastView.state && lastView.state.hand) || {};
  const yours = hand.your_cards || [];
  const box = el("fieldset", { className: "fcd-draw" },
    el("legend", {}, t("Cards to discard (%(min)s to %(max)s)", { min: action.min, max: action.max })));
  for (const code of yours) {
    const input = el("input", { type: "checkbox", name: "discard", value: code });
    box.append(el("label", { className: "pick" }, input, ctx.cardElement(code)));
  }
  // One draw action with its whole range; under an ace rule, show_ace names the counts that need
  // an ace shown ({min, max, aces, keep}), and the ace is sent only for those counts.
  const rule = action.show_ace || null;
  const aces = rule ? rule.aces || [] : [];
  if (aces.length) {
    const words = rule.keep
      ? t("To discard %(min)s to %(max)s cards, show an ace and keep it.", { min: rule.min, max: rule.max })
      : t("To discard %(min)s to %(max)s cards, show an ace.", { min: rule.min, max: rule.max });
    const show = el("fieldset", { className: "fcd-show" }, el("legend", {}, t("The ace you show")), el("p", {}, words));
    aces.forEach((code, index) => {
      show.append(el("label", { className: "pick" }, el("input", { type: "radio", name: "show", value: code, required: true, checked: index === 0 }), ctx.cardElement(code)));
    });
    box.append(show);
  }
  box.build = (built) => {
    const discard = Array.isArray(built.discard) ? built.discard : [];
    const { show_ace: _rule, ...drawn } = { ...built, discard };
    if (!rule || discard.length < rule.min) delete drawn.show;
    return drawn;
  };
  return box;
}

// A top-up (FD-13): how many chips to buy, within the action's bounds (the table's most, the wallet).
function topUpField(action, ctx) {
  const id = "fcd-top-up";
  const input = el("input", { id, name: "chips", type: "number", min: action.min, max: action.max, step: 1, value: action.max, required: true, inputmode: "numeric" });
  const box = el("div", { className: "fcd-amount" },
    el("label", { for: id }, ctx.nt("Chips to buy (%(min)s to %(count)s chip)", "Chips to buy (%(min)s to %(count)s chips)", action.max, { min: action.min })), input);
  box.build = (built) => ({ ...built, chips: Number(built.chips) });
  return box;
}

export function actionFields(action, ctx) {
  if (action.type === "top_up") return topUpField(action, ctx);
  if ((action.type === "bet" || action.type === "raise") && action.min != null) return amountField(action, ctx);
  if (action.type === "draw") return drawField(action, ctx);
  return null;
}

// The table's layout (table.js): each seat's stack, its cards (face-up ones shown, the others as
// backs; the hands shown at a showdown face up), its bet in front of it; the pots in the middle,
// an uncalled bet named as one rather than as a side pot; your cards; the button.
export function table(view, ctx) {
  const { t, nt } = ctx;
  const state = view.state || {};
  const hand = state.hand || null;
  const shown = new Map(((hand && hand.showdown) || []).map((entry) => [entry.seat, entry.cards]));
  const seats = {};
  for (const player of state.players || []) {
    let cards = null;
    const dealt = hand && !player.folded && !player.eliminated && !player.cannot_post;
    if (shown.has(player.seat)) cards = shown.get(player.seat);
    else if (dealt && player.seat !== ctx.you) {
      const up = player.face_up || [];
      cards = [...up, ...Array(Math.max(0, 5 - up.length)).fill(null)];
    }
    seats[player.seat] = {
      stack: nt("%(count)s chip", "%(count)s chips", player.stack),
      cards,
      front: player.bet ? el("span", { className: "bet", dataset: { chips: player.bet } }, nt("%(count)s chip", "%(count)s chips", player.bet)) : null,
      marks: playerStatus(player, state, t) ? [playerStatus(player, state, t)] : [],
    };
  }
  const center = [];
  if (hand) {
    center.push(el("p", { className: "fcd-phase" }, phaseWords(hand, t)));
    const pots = el("ul", { className: "pots", dataset: { part: "pots" } });
    (hand.pots || []).forEach((pot, index) => {
      const name = potName(pot, index, ctx);
      pots.append(el("li", { dataset: { pot: index } }, `${name}: `, nt("%(count)s chip", "%(count)s chips", pot.amount)));
    });
    if (!(hand.pots || []).length) pots.append(el("li", {}, nt("Pot: %(count)s chip", "Pot: %(count)s chips", state.pot || 0)));
    center.push(pots);
  }
  return { seats, center, hand: (hand && hand.your_cards) || [], dealer: hand ? hand.button : state.button ?? null };
}
