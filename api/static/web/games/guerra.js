// Guerra Chevichona's part of the table page (GC-13: everyone sees the same): every pile's size,
// the round's cards thrown face up, the last round's skirmishes, battles and sentence, a round
// settled by lot, the players out, the winners. Server text is set with textContent only.

import { cardBack } from "../cards.js";
import { addStyle, el, listOf } from "./parts.js";

function outWords(reason, t) {
  return {
    short: t("out: too few cards to throw"),
    no_extra: t("out: no extra card for the tie"),
    no_battle_cards: t("out: no card for the battle"),
    left: t("out: left the table"),
    no_cards: t("out: no cards left"),
  }[reason] || t("out");
}

function piles(state, ctx) {
  const { t, nt } = ctx;
  const list = el("ul", { className: "guerra-piles" });
  for (const player of state.players || []) {
    const marks = [];
    if (player.seat === ctx.you) marks.push(t("you"));
    if ((state.awaiting || []).includes(player.seat)) marks.push(t("to throw"));
    if (player.thrown) marks.push(t("has thrown"));
    if ((state.played_by_bot || []).includes(player.seat)) marks.push(t("played by the bot"));
    if (player.out) marks.push(outWords(player.out, t));
    if ((state.winners || []).includes(player.seat)) marks.push(t("winner"));
    list.append(el("li", { dataset: { seat: player.seat }, className: player.out ? "out" : null },
      el("strong", {}, ctx.playerName(player.seat)), ": ", nt("%(count)s card in the pile", "%(count)s cards in the pile", player.cards),
      marks.length ? ` (${marks.join(", ")})` : ""));
  }
  return el("section", { className: "guerra-players", "aria-label": t("Piles") }, el("h3", {}, t("Piles")), list);
}

// One play on the table: a throw's or an extra card's faces, or a battle layer (its face-down
// cards as backs until the round is over, then their faces).
function play(entry, ctx) {
  const { t } = ctx;
  const who = el("span", { className: "who" }, ctx.playerName(entry.seat));
  const row = el("span", { className: "cards" });
  let what;
  if (entry.kind === "battle") {
    what = t("battle in skirmish %(skirmish)s, layer %(layer)s", { skirmish: entry.skirmish, layer: entry.layer });
    // Face down first (their faces once the round is over), then the face-up card that decides.
    const down = el("span", { className: "cards face-down", role: "group", "aria-label": t("face down") });
    if (entry.face_down) for (const code of entry.face_down) down.append(ctx.cardElement(code));
    else for (let n = 0; n < entry.face_down_count; n += 1) down.append(cardBack());
    const up = el("span", { className: "cards face-up", role: "group", "aria-label": t("face up") }, ctx.cardElement(entry.face_up));
    if (entry.face_down_count) row.append(el("span", { className: "label" }, `${t("face down")}: `), down, " ");
    row.append(el("span", { className: "label" }, `${t("face up")}: `), up);
  } else {
    what = entry.kind === "extra" ? t("extra card") : t("thrown");
    for (const code of entry.cards) row.append(ctx.cardElement(code));
  }
  return el("li", { dataset: { seat: entry.seat, kind: entry.kind } }, who, ` · ${what}: `, row);
}

function tableNow(state, ctx) {
  const { t } = ctx;
  if (!(state.table || []).length) return null;
  return el("section", { className: "guerra-table", "aria-label": t("This round") },
    el("h3", {}, t("This round")), el("ul", { className: "guerra-plays" }, state.table.map((entry) => play(entry, ctx))));
}

function lastRound(state, ctx) {
  const { t, nt } = ctx;
  const last = state.last_round;
  if (!last) return null;
  const box = el("section", { className: "guerra-last-round", "aria-label": t("The last round") },
    el("h3", {}, nt("Round %(number)s (%(count)s card each)", "Round %(number)s (%(count)s cards each)", last.size, { number: last.round_no })),
    el("p", { className: "guerra-sentence" }, last.sentence));
  box.append(el("ul", { className: "guerra-plays" }, last.plays.map((entry) => play(entry, ctx))));
  const skirmishes = el("ol", { className: "guerra-skirmishes" });
  for (const skirmish of last.skirmishes || []) {
    skirmishes.append(el("li", {}, t("Skirmish %(number)s: highest %(players)s", {
      number: skirmish.skirmish, players: listOf(skirmish.highest.map((seat) => ctx.playerName(seat))),
    })));
  }
  if ((last.skirmishes || []).length) box.append(skirmishes);
  for (const battle of last.battles || []) {
    box.append(el("p", { className: "guerra-battle" }, t("The battle of skirmish %(number)s went to %(player)s", {
      number: battle.skirmish, player: ctx.playerName(battle.winner),
    })));
  }
  if ((last.ambush || []).length) {
    box.append(el("p", { className: "guerra-ambush" }, t("Ambush by %(players)s", { players: listOf(last.ambush.map((seat) => ctx.playerName(seat))) })));
  }
  for (const lot of last.settled_by_lot || []) {
    box.append(el("p", { className: "guerra-lot", dataset: { drawn: lot.drawn } }, lot.sentence));
  }
  return box;
}

function deckWords(state, t) {
  const decks = { english: t("English deck"), spanish_40: t("Spanish deck of 40"), spanish_48: t("Spanish deck of 48") };
  const parts = [decks[state.deck] || state.deck];
  if (state.jokers) parts.push(t("with jokers"));
  if (state.ace_high) parts.push(t("aces high"));
  if (state.auto_play) parts.push(t("rounds play by themselves"));
  return parts.join(" · ");
}

export function render(view, ctx) {
  addStyle("guerra");
  const { t, nt } = ctx;
  const state = view.state || {};
  const root = el("div", { className: "game guerra" },
    el("p", { className: "guerra-rules" }, deckWords(state, t)),
    el("p", { className: "guerra-round" },
      t("Rounds played: %(count)s of at most %(most)s", { count: state.rounds_played, most: state.max_rounds }),
      state.status === "finished" ? "" : ` · ${nt("Next round: %(count)s card each", "Next round: %(count)s cards each", state.next_round_size)}`));
  root.append(piles(state, ctx));
  if (state.forfeited_cards) root.append(el("p", {}, t("Cards waiting for the next round's taker: %(count)s", { count: state.forfeited_cards })));
  if (state.ambushes) root.append(el("p", {}, t("Ambushes so far: %(count)s", { count: state.ambushes })));
  root.append(...[tableNow(state, ctx), lastRound(state, ctx)].filter(Boolean));
  if (state.status === "finished") {
    const reasons = { all_cards: t("One player holds every card."), max_rounds: t("The round limit was reached: the most cards win.") };
    root.append(el("p", { className: "guerra-end" }, reasons[state.end_reason] || (state.end_reason ? t(state.end_reason) : "")));
    if ((state.winners || []).length) {
      root.append(el("p", { className: "winners" }, t("Winners: %(players)s", { players: listOf(state.winners.map((seat) => ctx.playerName(seat))) })));
    }
  }
  return root;
}

export function describeAction(action, ctx) {
  if (action.type === "throw") return ctx.t("Throw my cards");
  return null;
}

// The table's layout (table.js): each seat's pile as a back with its size, the cards it threw this
// round in front of it; the round in the middle.
export function table(view, ctx) {
  const { t, nt } = ctx;
  const state = view.state || {};
  const seats = {};
  for (const player of state.players || []) {
    const thrown = (state.table || []).filter((entry) => entry.seat === player.seat);
    const marks = [];
    if (player.out) marks.push(outWords(player.out, t));
    if ((state.winners || []).includes(player.seat)) marks.push(t("winner"));
    const front = thrown.length ? el("span", { className: "cards" }, thrown.flatMap((entry) => entry.kind === "battle"
      ? [...(entry.face_down || Array(entry.face_down_count || 0).fill(null)).map((code) => (code ? ctx.cardElement(code) : cardBack())), ctx.cardElement(entry.face_up)]
      : entry.cards.map((code) => ctx.cardElement(code)))) : null;
    seats[player.seat] = {
      stack: nt("%(count)s card", "%(count)s cards", player.cards),
      cards: player.cards ? [null] : null,
      front,
      marks,
    };
  }
  const center = [el("p", { className: "guerra-round" }, t("Rounds played: %(count)s of at most %(most)s", { count: state.rounds_played, most: state.max_rounds }))];
  if (state.last_round && state.last_round.sentence) center.push(el("p", { className: "guerra-sentence" }, state.last_round.sentence));
  return { seats, center, hand: [], dealer: null };
}
