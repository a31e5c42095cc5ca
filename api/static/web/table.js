// The table page: seats, whose turn, the countdown, the game's own element, the legal actions as
// controls, the live events, the showdown and its tie-break, chips and money. The page follows
// the table's stream, which brings its view after each wake's events; nothing here knows a game's rules.
import * as api from "./api.js";
import { language, nt, t } from "./i18n.js";
import { cardElement, cardRow, useDeck } from "./cards.js";
import { eventLine } from "./events.js";
import { showdownSections } from "./showdown.js";
import { word } from "./words.js";
import { money as moneyText, signedMoney } from "./numbers.js";
import { app, attempt, el, formValues, section, showError } from "./shell.js";

const modules = new Map();

// games/<slug>.js, or null when the game has no module (the state is then shown as it is).
async function gameModule(slug) {
  if (!modules.has(slug)) {
    modules.set(slug, import(`./games/${slug}.js`).catch(() => null));
  }
  return modules.get(slug);
}

// The game's name in the reader's language, from the games list (asked once per page load); null
// when the list does not name it (the heading then keeps its neutral word, never the slug).
let games = null;
async function gameName(slug) {
  games = games || api.get("games/").catch(() => []);
  const found = (await games).find((game) => game.slug === slug);
  return found ? found.name : null;
}

export function playerName(view, seat) {
  const found = view.seats.find((s) => s.seat === seat);
  if (!found || !found.taken) return t("seat %(seat)s", { seat });
  if (found.player) return found.player;
  return t("bot (seat %(seat)s)", { seat });
}

function money(minor, state) {
  if (!state || !state.currency || minor == null) return null;
  return moneyText(minor, state.currency);
}

// Being there or not (CM-20) is not a move of the game: these have their own place on the page.
const PRESENCE = new Set(["sit_out", "sit_in", "leave"]);

// Where the other seats sit around the table, clockwise from your left, by how many there are.
const SLOTS = ["bl", "left", "tl", "top", "tr", "right", "br"];
const PLACES = {
  1: ["top"], 2: ["left", "right"], 3: ["left", "top", "right"], 4: ["left", "tl", "tr", "right"],
  5: ["left", "tl", "top", "tr", "right"], 6: ["bl", "left", "tl", "tr", "right", "br"], 7: SLOTS,
};

// The game module's layout of the table, {seats: {seat: {stack, cards, front, marks}}, center,
// hand, dealer}, or a plain one from the state's chips.
function layoutOf(view, module, ctx) {
  if (view.state && module && module.table) {
    try {
      const parts = module.table(view, ctx);
      if (parts) return parts;
    } catch (error) {
      showError(error);
    }
  }
  const state = view.state || {};
  const seats = {};
  if (state.chips) state.chips.forEach((chips, seat) => { seats[seat] = { stack: nt("%(count)s chip", "%(count)s chips", chips) }; });
  const center = state.pot != null ? [el("p", { className: "pot" }, nt("Pot: %(count)s chip", "Pot: %(count)s chips", state.pot))] : [];
  return { seats, center, hand: [], dealer: state.dealer ?? null };
}

// One seat at the table: the dealer button, the name, the timer while it acts, its stack (and its
// worth in money), the cards it shows (backs for hidden ones), what it has in front of it.
function seatBox(view, seat, part, layout) {
  const state = view.state || {};
  const acting = view.to_act.includes(seat.seat) && view.status === "running";
  const notes = [...(part.marks || [])];
  // A bot's name already says it is one ("bot (seat 2)").
  if (seat.bot && seat.player) notes.push(t("bot"));
  else if (!seat.bot && seat.played_by_bot) notes.push(t("played by the bot"));
  if (state.out && state.out[seat.seat] && !notes.includes(t("out"))) notes.push(t("out"));
  const chips = state.chips && state.chip_value_minor ? state.chips[seat.seat] : null;
  const you = seat.seat === view.your_seat;
  return el("div", {
    role: "listitem",
    className: ["seat", acting ? "acting" : null, you ? "you" : null].filter(Boolean).join(" "),
    dataset: { seat: seat.seat, taken: seat.taken, bot: seat.bot, playedByBot: seat.played_by_bot },
  },
  el("div", { className: "seat-head" },
    layout.dealer === seat.seat ? el("span", { className: "dealer-button", title: t("dealer"), "aria-label": t("dealer") }, t("D")) : null,
    el("span", { className: "name" }, seat.taken ? playerName(view, seat.seat) : t("empty seat %(seat)s", { seat: seat.seat })),
    you ? el("span", { className: "you-mark" }, ` (${t("you")})`) : null,
    acting ? el("span", { className: "timer", "aria-hidden": "true" }) : null),
  part.stack ? el("span", { className: "chips" }, part.stack, chips != null ? el("span", { className: "worth" }, ` · ${money(chips * state.chip_value_minor, state)}`) : null) : null,
  part.cards && part.cards.length ? cardRow(part.cards, t("%(player)s's cards", { player: playerName(view, seat.seat) })) : null,
  notes.length ? el("span", { className: "notes" }, notes.join(", ")) : null,
  part.front ? el("div", { className: "front" }, part.front) : null);
}

// The table: the other seats around it, the middle (pots, the widow, the trick…) and your seat at
// its foot; a spectator sees seat 0 there.
function feltSection(view, layout) {
  const me = view.your_seat ?? 0;
  const count = view.seats.length;
  const order = [...Array(count).keys()].map((n) => (me + 1 + n) % count).filter((seat) => seat !== me);
  const places = PLACES[order.length] || null;
  const boxes = [];
  order.forEach((number, index) => {
    const seat = view.seats.find((s) => s.seat === number) || { seat: number, taken: false };
    const box = seatBox(view, seat, (layout.seats || {})[number] || {}, layout);
    if (places) box.style.gridArea = places[index];
    boxes.push(box);
  });
  const mine = view.seats.find((s) => s.seat === me);
  if (mine) {
    const box = seatBox(view, mine, (layout.seats || {})[me] || {}, layout);
    box.style.gridArea = "you";
    boxes.push(box);
  }
  return [...boxes, el("div", { className: "center", "aria-label": t("The middle of the table") }, ...(layout.center || []))];
}

function toActText(view) {
  if (view.status === "open") return t("The table is open: waiting for players.");
  if (view.status !== "running" && !view.to_act.length) return t("The table has ended.");
  if (!view.to_act.length) return t("Nobody to act.");
  if (view.your_seat != null && view.to_act.includes(view.your_seat)) return t("Your turn.");
  return t("Waiting for %(names)s.", { names: view.to_act.map((seat) => playerName(view, seat)).join(", ") });
}

// The label of an action without a module's words: its type, then its fields as they are.
function genericLabel(action) {
  const { type, ...fields } = action;
  const parts = Object.entries(fields).map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(" ") : value}`);
  return parts.length ? `${word(type)} (${parts.join(", ")})` : word(type);
}

// A field descriptor made into a labelled control: {name, kind: "number"|"cards"|"card"|"text"|"checkbox", label, min, max, value, cards}.
function fieldControl(field, id) {
  const label = field.label || word(field.name);
  if (field.kind === "cards" || field.kind === "card") {
    const box = el("fieldset", { className: "pick-cards" }, el("legend", {}, label));
    for (const code of field.cards || []) {
      const input = el("input", { type: field.kind === "card" ? "radio" : "checkbox", name: field.name, value: code, required: field.kind === "card" });
      box.append(el("label", { className: "pick" }, input, cardElement(code)));
    }
    return box;
  }
  const type = field.kind === "number" ? "number" : field.kind === "checkbox" ? "checkbox" : "text";
  return el("label", { for: id }, label, el("input", { id, name: field.name, type, min: field.min, max: field.max, value: field.value ?? field.min ?? "", required: type === "number" }));
}

function fieldsOf(action, module, ctx) {
  if (module && module.actionFields) {
    const fields = module.actionFields(action, ctx);
    if (fields) return fields;
  }
  // Generic: an action with a range asks for an amount in it (a bet, a raise, a buy-in).
  if (action.min != null && action.max != null) return [{ name: "amount", kind: "number", min: action.min, max: action.max }];
  return null;
}

// What a form with fields posts: its type, the action's own fixed fields (not the range), the inputs.
function actionFromForm(action, form, fields) {
  const values = formValues(form);
  const { min, max, ...fixed } = action;
  const built = { ...fixed };
  for (const input of form.elements) {
    if (!input.name) continue;
    if (input.type === "checkbox" && input.value !== "on") {
      built[input.name] = [...form.querySelectorAll(`input[name="${input.name}"]:checked`)].map((box) => box.value);
    } else if (input.type === "radio") {
      const checked = form.querySelector(`input[name="${input.name}"]:checked`);
      if (checked) built[input.name] = checked.value;
    } else {
      built[input.name] = values[input.name];
    }
  }
  return fields && fields.build ? fields.build(built, action) : built;
}

// The module's groups of legal actions shown as one form of choices (La Viuda's 25 ways to
// exchange one card become "give one of yours, take one of the widow's"): each group is
// {type, label, actions, fields}, fields of kind "card" (one radio group each). The form posts the
// one offered action whose fields are the choices; the others are drawn one control each.
function groupsOf(view, module, ctx) {
  if (!module || !module.actionGroups) return [];
  try {
    return module.actionGroups(view.legal_actions, ctx) || [];
  } catch (error) {
    showError(error);
    return [];
  }
}

function groupForm(group, index, send) {
  const form = el("form", { dataset: { action: group.type }, className: "action-form" });
  group.fields.forEach((field, n) => form.append(fieldControl(field, `group-${index}-${n}`)));
  form.append(el("button", { type: "submit" }, group.label));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = Object.fromEntries(group.fields.map((field) => [field.name, form.querySelector(`input[name="${field.name}"]:checked`)?.value]));
    const action = group.actions.find((offered) => group.fields.every((field) => offered[field.name] === chosen[field.name]));
    if (action) send(action);
    else showError(new Error(t("That choice is not on offer: choose again.")));
  });
  return form;
}

function actionsSection(view, module, ctx, send) {
  const box = el("div", { id: "actions", role: "group", "aria-label": t("Your actions") });
  const groups = groupsOf(view, module, ctx);
  const grouped = new Set(groups.flatMap((group) => group.actions));
  // The owner's commands are offered among the legal actions too; they have their own section.
  const owners = new Set(ownerActionsOf(view, module).map((action) => action.type));
  view.legal_actions.forEach((action, index) => {
    if (owners.has(action.type) || PRESENCE.has(action.type)) return;
    if (grouped.has(action)) {
      const group = groups.find((candidate) => candidate.actions.includes(action));
      if (group.actions[0] === action) box.append(groupForm(group, index, send));
      return;
    }
    const label = (module && module.describeAction && module.describeAction(action, ctx)) || genericLabel(action);
    const fields = fieldsOf(action, module, ctx);
    if (!fields) {
      const words = module && module.describeActionWords && module.describeActionWords(action, ctx);
      box.append(el("button", { type: "button", dataset: { action: action.type }, "aria-label": words || null, onclick: () => send(action) }, label));
      return;
    }
    const form = el("form", { dataset: { action: action.type }, className: "action-form" });
    if (fields instanceof Node) form.append(fields);
    else (Array.isArray(fields) ? fields : fields.fields || []).forEach((field, n) => form.append(fieldControl(field, `action-${index}-${n}`)));
    form.append(el("button", { type: "submit" }, label));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      send(actionFromForm(action, form, fields));
    });
    box.append(form);
  });
  return box;
}

// The context a game module and the event sentences draw with; its cards are of the table's deck.
function contextOf(view) {
  const state = view.state || {};
  const config = view.config || {};
  useDeck(state.deck || config.deck);
  return { you: view.your_seat, t, nt, cardElement, playerName: (seat) => playerName(view, seat), currency: state.currency || config.currency || null };
}

// The owner's commands that are no legal action of a seat (a cash table's end, a pot match's end):
// the module's ownerActions(view), shown to the table's owner while it runs, posted as actions.
function ownerActionsOf(view, module) {
  if (!module || !module.ownerActions || view.status !== "running" || !app.username || view.owner !== app.username) return [];
  try {
    return module.ownerActions(view) || [];
  } catch (error) {
    showError(error);
    return [];
  }
}

function ownerSection(offered, module, ctx, ask) {
  return offered.map((action) => {
    const label = (module.describeAction && module.describeAction(action, ctx)) || word(action.type);
    return el("button", { type: "button", id: action.type.replace(/_/g, "-"), dataset: { action: action.type }, onclick: () => ask(action, label) }, label);
  });
}

// Your chips at the table, and their worth when the table plays for money.
function yourChips(view) {
  const state = view.state || {};
  const seat = view.your_seat;
  if (seat == null) return null;
  let chips = state.chips ? state.chips[seat] : null;
  if (chips == null && state.players) chips = (state.players.find((player) => player.seat === seat) || {}).stack;
  if (chips == null) return null;
  const worth = state.chip_value_minor ? money(chips * state.chip_value_minor, state) : null;
  const count = nt("%(count)s chip", "%(count)s chips", chips);
  return worth ? t("%(chips)s, worth %(money)s", { chips: count, money: worth }) : count;
}

// What a command about your presence, or an owner's command, does to your chips and money, said
// before it is sent; null when it needs no confirmation (sitting in again).
function consequences(action, view) {
  const state = view.state || {};
  const chips = yourChips(view);
  switch (action.type) {
    case "sit_out":
      return t("The bot plays your seat until you sit in again. Your chips stay at the table, and what the seat wins or loses is yours.");
    case "leave":
      if (state.format === "cash") {
        return chips
          ? t("You fold the hand in play and leave for good. Your chips (%(chips)s) go back to your wallet when the hand ends.", { chips })
          : t("You fold the hand in play and leave for good. Your chips go back to your wallet when the hand ends.");
      }
      return t("You leave for good and cannot sit in again. The bot plays your seat to the end, and the result stays yours: what the seat wins or loses is paid to or from your wallet.");
    case "end_table":
      return t("The table ends after the hand in play, and every player's chips go back to their wallets.");
    case "end_match":
      return t("The match ends after the hand in play and is settled as it stands then.");
    default:
      return null;
  }
}

function openControls(view, reload) {
  if (view.status !== "open") return null;
  const box = el("div", { className: "open-controls" });
  const config = view.config || {};
  const seated = view.your_seat != null;
  if (!seated) {
    const buyIn = config.min_buy_in != null && config.max_buy_in != null && config.format !== "tournament";
    const chips = buyIn ? el("input", { type: "number", name: "chips", id: "join-chips", min: config.min_buy_in, max: config.max_buy_in, value: config.max_buy_in }) : null;
    if (chips) box.append(el("label", { for: "join-chips" }, t("Buy-in chips")), chips);
    box.append(el("button", { type: "button", id: "join", onclick: () => attempt(async () => {
      await api.post(`tables/${view.id}/join/`, chips ? { chips: Number(chips.value) } : {});
      await reload();
    }) }, t("Join")));
  }
  if (app.username && view.owner === app.username) {
    box.append(
      el("button", { type: "button", id: "add-bot", onclick: () => attempt(async () => {
        await api.post(`tables/${view.id}/bots/`, {});
        await reload();
      }) }, t("Add a bot")),
      el("button", { type: "button", id: "start", onclick: () => attempt(async () => {
        await api.post(`tables/${view.id}/start/`, {});
        await reload();
      }) }, t("Start")),
    );
  }
  return box;
}

// The seat's client seed (CM-6), mixed into every hand dealt after it is saved, and the next hand's
// commitment. Built once per page, not on every draw, so a half-typed seed survives the table moving.
function fairnessBox(tableId) {
  const input = el("input", { id: "client-seed", name: "client_seed", maxlength: 64, autocomplete: "off", spellcheck: "false" });
  const saved = el("span", { id: "client-seed-saved", role: "status" });
  const commitment = el("code", { id: "next-commitment" });
  const form = el("form", { id: "client-seed-form" },
    el("label", { for: "client-seed" }, t("Your client seed")),
    input,
    el("button", { type: "submit", id: "set-client-seed" }, t("Save")),
    saved);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    saved.textContent = "";
    attempt(async () => {
      const answer = await api.put(`tables/${tableId}/client-seed/`, { client_seed: input.value });
      input.value = answer.client_seed;
      saved.textContent = t("Saved: it is mixed into every hand dealt from now on.");
    });
  });
  const box = el("section", { className: "fairness", "aria-labelledby": "fairness-heading" },
    el("h2", { id: "fairness-heading" }, t("Fair dealing")),
    el("p", {}, t("Next hand's commitment: "), commitment),
    form);
  box.update = (view) => {
    commitment.textContent = view.next_commitment || "—";
    form.hidden = view.your_seat == null || view.status === "finished";
    box.hidden = view.status === "finished" || (!view.next_commitment && form.hidden);
  };
  return box;
}

// A finished hand's result as showdown entries without cards: each seat's chips won or paid, and
// the money when the hand moved some ({seat, chips, money_minor} of the audit's `result`).
function resultEntries(audit, view) {
  const currency = (view.state || {}).currency || (view.config || {}).currency;
  return (audit.result || []).filter((line) => line.chips).map((line) => ({
    seat: line.seat,
    cards: null,
    category: "",
    category_name: line.chips > 0
      ? nt("won %(count)s chip", "won %(count)s chips", line.chips)
      : nt("paid %(count)s chip", "paid %(count)s chips", -line.chips),
    description: line.money_minor && currency ? signedMoney(line.money_minor, currency) : "",
    outcome: line.chips > 0 ? "wins" : "pays",
    tie_break: [],
  }));
}

// The end of a game: what each seat won or lost over it, in chips and in money, and where its
// prize is (a payout waiting for staff review, paid into the wallet, refused, or back to the
// house's bankroll for a bot): the view's `result`, which the server reads from the books.
function resultSection(view) {
  const lines = view.result || [];
  if (!lines.some((line) => line.chips != null || line.currency)) return null;
  const list = el("ul", {});
  for (const line of lines) {
    const said = [];
    if (line.chips != null) {
      if (line.chips > 0) said.push(nt("won %(count)s chip over the game", "won %(count)s chips over the game", line.chips));
      else if (line.chips < 0) said.push(nt("lost %(count)s chip over the game", "lost %(count)s chips over the game", -line.chips));
      else said.push(t("neither won nor lost chips"));
    }
    const currency = line.currency;
    if (currency && line.paid_minor != null) said.push(t("paid %(money)s to play", { money: moneyText(line.paid_minor, currency) }));
    const payout = line.payout;
    const won = currency ? moneyText(line.won_minor, currency) : null;
    if (currency && payout) {
      if (payout.status === "pending") said.push(t("wins %(money)s: a payout that waits for staff review before it is paid into the wallet", { money: won }));
      else if (payout.status === "rejected") said.push(t("wins %(money)s, but staff refused the payout", { money: won }));
      else if (line.player) said.push(t("wins %(money)s, paid into the wallet", { money: won }));
      else said.push(t("wins %(money)s, back to the house's bankroll for bots", { money: won }));
    } else if (currency) said.push(t("wins no money"));
    const net = currency && line.net_minor != null
      ? el("strong", { className: "net", dataset: { sign: line.net_minor < 0 ? "out" : line.net_minor > 0 ? "in" : "even", netMinor: line.net_minor } },
        line.net_minor > 0 ? t("In all: won %(money)s", { money: moneyText(line.net_minor, currency) })
          : line.net_minor < 0 ? t("In all: lost %(money)s", { money: moneyText(-line.net_minor, currency) })
            : t("In all: neither won nor lost money"))
      : null;
    const yours = view.your_seat === line.seat && payout && line.player;
    list.append(el("li", { dataset: { seat: line.seat, payouts: payout ? payout.status : "", chips: line.chips ?? false } },
      el("strong", {}, playerName(view, line.seat)), ": ", said.join("; "),
      net ? [" ", net] : null,
      yours ? [" ", el("a", { href: "#/wallet", id: "result-wallet-link" }, payout.status === "pending" ? t("Follow it in your money") : t("See it in your money"))] : null));
  }
  return el("section", { id: "game-result", "aria-labelledby": "game-result-heading" },
    el("h2", { id: "game-result-heading" }, t("The game is over: what each won or lost")), list);
}

export async function showTable(main, tableId) {
  let view = await api.get(`tables/${tableId}/`);
  let received = performance.now(); // when `view` came: its seconds_left counts from then
  const module = await gameModule(view.game);
  const root = el("div", { id: "table" });
  const seats = el("div", { id: "seats", className: "felt", role: "list", "aria-label": t("Seats") });
  const toAct = el("p", { id: "to-act", "aria-live": "polite" });
  const countdown = el("p", { id: "countdown", "aria-live": "off" });
  const hand = el("div", { id: "hand", className: "your-hand", role: "group", "aria-label": t("Your hand") });
  const game = el("div", { id: "game" });
  const actions = el("div", { id: "actions" });
  const owner = el("div", { id: "owner-actions", role: "group", "aria-label": t("The owner's commands") });
  const presence = el("div", { id: "presence", role: "group", "aria-label": t("Your place at the table") });
  const confirm = el("div", { id: "confirm", role: "alertdialog", "aria-labelledby": "confirm-words", hidden: true });
  const opening = el("div", { className: "opening" });
  const showdownBox = el("div", { className: "showdown-box", id: "last-showdown" });
  const gameResult = el("div", { className: "game-result" });
  const events = el("ol", { id: "events", "aria-live": "polite", "aria-relevant": "additions" });
  const money = el("p", { className: "money" });
  const fairness = fairnessBox(tableId);
  // The game's name once the games list answers; a neutral word until then, never the slug.
  const title = el("h1", {}, t("Table"));
  root.append(
    el("div", { className: "table-head" }, title, el("a", { id: "hands-link", href: `#/tables/${tableId}/hands` }, t("Hands of this table"))),
    opening,
    el(
      "div",
      { className: "layout" },
      el("div", { className: "play" },
        seats,
        el("section", { className: "hand-area", "aria-label": t("Your hand and your moves") },
          hand,
          el("div", { className: "moves" }, el("div", { className: "turn-line" }, toAct, countdown), actions)),
        gameResult,
        showdownBox,
        el("div", { className: "places" }, presence, owner, confirm),
        section("game-box", t("At the table"), game)),
      el("aside", { className: "side" }, section("events-box", t("Events"), events), money, fairness),
    ),
  );
  gameName(view.game).then((name) => {
    if (name) title.textContent = name;
  });
  main.replaceChildren(root);

  // The seconds left to the deadline as the server counted them when it answered (`seconds_left`,
  // so a phone whose clock is off still counts right), less the time since; drawn with every view
  // (a table that has just ended shows none at once) and every quarter of a second in between.
  const secondsLeft = () => {
    if (!view.deadline || view.status !== "running") return null;
    if (typeof view.seconds_left === "number") return Math.max(0, Math.round(view.seconds_left - (performance.now() - received) / 1000));
    return Math.max(0, Math.round((Date.parse(view.deadline) - Date.now()) / 1000));
  };
  const showCountdown = () => {
    const left = secondsLeft();
    const timers = seats.querySelectorAll(".timer");
    if (left == null) {
      countdown.textContent = "";
      delete countdown.dataset.seconds;
      timers.forEach((timer) => { timer.textContent = ""; });
      return;
    }
    countdown.textContent = nt("%(count)s second left", "%(count)s seconds left", left);
    countdown.dataset.seconds = left;
    timers.forEach((timer) => {
      timer.textContent = t("%(count)s s", { count: left });
      timer.classList.toggle("low", left <= 10);
    });
  };

  let busy = false;
  // A move is chosen from the view shown: if the table moved first (409), the page shows it as it
  // is and says so. Sitting out or in, leaving and the owner's commands mean the same at any
  // version, so they are sent again at the new one (a few times at most) rather than refused.
  const send = (action, again = 0) =>
    attempt(async () => {
      if (busy) return;
      busy = true;
      try {
        for (let tries = 0; ; tries += 1) {
          try {
            const answer = await api.act(tableId, action, view.version);
            draw(answer.table || (await api.get(`tables/${tableId}/`)));
            return;
          } catch (error) {
            if (error.table) draw(error.table);
            const offered = error.table && error.table.legal_actions.some((other) => other.type === action.type);
            if (tries < again && error.status === 409 && offered) continue;
            throw error;
          }
        }
      } finally {
        busy = false;
      }
    });

  // Leaving, sitting out and the owner's commands say first what they do to your chips and money.
  const ask = (action, label) => {
    const words = consequences(action, view);
    if (!words) {
      send(action, 3);
      return;
    }
    const yes = el("button", { type: "button", id: "confirm-yes", dataset: { confirm: action.type }, onclick: () => {
      confirm.hidden = true;
      send(action, 3);
    } }, label);
    const no = el("button", { type: "button", id: "confirm-no", onclick: () => {
      confirm.hidden = true;
    } }, t("Cancel"));
    confirm.replaceChildren(el("p", { id: "confirm-words" }, words), el("div", { className: "confirm-buttons" }, yes, no));
    confirm.hidden = false;
    no.focus();
  };

  let shownActions = null;
  let shownOwner = null;
  let shownPresence = null;
  let lastShowdown = null;
  let dismissed = 0;
  const reload = async () => draw(await api.get(`tables/${tableId}/`));
  // While your prize at a finished table waits for staff review, your notices stream (docs/api.md,
  // /me/stream/) says when it is decided, and the result is read again: "approved, paid into the
  // wallet" shows here as it happens. Closed once nothing of yours waits, or when the page goes.
  let payoutWatch = null;
  const watchPayout = () => {
    const mine = (view.result || []).find((line) => line.seat === view.your_seat && line.payout);
    const waiting = Boolean(mine && mine.payout.status === "pending");
    if (!waiting) {
      if (payoutWatch) payoutWatch.close();
      payoutWatch = null;
      return;
    }
    if (payoutWatch) return;
    payoutWatch = new EventSource(`/api/v1/me/stream/?lang=${encodeURIComponent(language())}`, { withCredentials: true });
    payoutWatch.addEventListener("payout_decided", (message) => {
      let notice = {};
      try {
        notice = JSON.parse(message.data);
      } catch {
        return;
      }
      if (notice.table === tableId) attempt(reload);
    });
    payoutWatch.addEventListener("stream_end", () => {
      if (payoutWatch) payoutWatch.close();
    });
  };

  // The last showdown, from the finished hand's audit (never from a view that happens to be
  // drawn at the right moment: the next hand is dealt in the same moment): in sight until it is
  // dismissed or the next one comes.
  let askedHand = 0;
  const drawShowdown = () => {
    if (!lastShowdown || dismissed === lastShowdown.hand) {
      showdownBox.replaceChildren(...showdownSections([], (seat) => playerName(view, seat)));
      showdownBox.dataset.hand = "";
      return;
    }
    const heading = lastShowdown.shown
      ? t("Last showdown: hand %(no)s", { no: lastShowdown.hand })
      : t("Hand %(no)s is over: who won and who paid", { no: lastShowdown.hand });
    const close = el("button", { type: "button", id: "dismiss-showdown", className: "dismiss", onclick: () => {
      dismissed = lastShowdown.hand;
      drawShowdown();
    } }, t("Dismiss"));
    showdownBox.replaceChildren(...showdownSections(lastShowdown.entries, (seat) => playerName(view, seat), [], heading), close);
    showdownBox.dataset.hand = lastShowdown.hand;
  };
  const showHandEnded = async (handNo) => {
    if (!handNo || handNo <= askedHand) return false;
    askedHand = handNo;
    let audit;
    try {
      audit = await api.get(`tables/${tableId}/hands/${handNo}/audit/`);
    } catch {
      askedHand = Math.min(askedHand, handNo - 1); // not finished yet: asked again when it is
      return false;
    }
    // A hand won without a showdown (everyone else folded) tells what each seat won or paid.
    const shown = Boolean(audit.showdown && audit.showdown.length);
    const entries = shown ? audit.showdown : resultEntries(audit, view);
    if (!entries.length) return false;
    if (lastShowdown && lastShowdown.hand > handNo) return true;
    lastShowdown = { hand: handNo, entries, shown };
    drawShowdown();
    return true;
  };
  // On opening (and at the end): the newest finished hand that showed or moved anything, looking
  // back a few hands past any that moved no chip.
  const showNewestHand = () => api.get(`tables/${tableId}/hands/?limit=5`).then(async (page) => {
    const numbers = page.results.map((hand) => hand.hand_no).sort((a, b) => b - a);
    if (!numbers.length || (lastShowdown && lastShowdown.hand >= numbers[0])) return;
    for (const number of numbers) {
      askedHand = Math.min(askedHand, number - 1);
      if (await showHandEnded(number)) return;
    }
  }).catch(() => {});

  // A card of your hand (or of the widow) is a button when clicking it does something: it plays or
  // discards it when that is a legal action of its own, or chooses it in the action's form (the
  // form's inputs stay, for the keyboard and screen readers, and follow the clicks).
  const targetOf = (code, place) => {
    const direct = view.legal_actions.find((action) => (action.type === "play" || action.type === "discard") && action.card === code);
    if (direct) return { action: direct };
    const inputs = [...actions.querySelectorAll("input[type=radio], input[type=checkbox]")]
      .filter((input) => input.value === code && (place === "widow" ? input.name === "take" : input.name !== "take"));
    return inputs.length ? { input: inputs[0] } : null;
  };
  const clickable = (card, place) => {
    const code = card.dataset.card;
    const target = code ? targetOf(code, place) : null;
    if (!target) return card;
    const button = el("button", { type: "button", className: "card-button", dataset: { card: code, place }, "aria-label": card.getAttribute("aria-label") }, card);
    card.setAttribute("aria-hidden", "true");
    if (target.action) {
      button.dataset.action = target.action.type;
      button.addEventListener("click", () => send(target.action));
    } else {
      button.addEventListener("click", () => {
        target.input.checked = target.input.type === "radio" ? true : !target.input.checked;
        target.input.dispatchEvent(new Event("change", { bubbles: true }));
      });
    }
    return button;
  };
  const syncPressed = () => {
    for (const button of root.querySelectorAll(".card-button")) {
      const target = targetOf(button.dataset.card, button.dataset.place);
      if (target && target.input) button.setAttribute("aria-pressed", String(target.input.checked));
    }
  };
  actions.addEventListener("change", syncPressed);

  const draw = (next) => {
    if (next.version < view.version && next.status === view.status) return; // an answer older than what is shown
    view = next;
    received = performance.now();
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-action]");
    const focusedAction = focused ? focused.dataset.action : null;
    const focusedCard = document.activeElement && document.activeElement.classList && document.activeElement.classList.contains("card-button") ? document.activeElement.dataset.card : null;
    root.dataset.status = view.status;
    root.dataset.version = view.version;
    root.dataset.game = view.game;
    const state = view.state || {};
    const config = view.config || {};
    const currency = state.currency || config.currency;
    const ctx = contextOf(view);
    const layout = layoutOf(view, module, ctx);
    seats.replaceChildren(...feltSection(view, layout));
    const value = state.chip_value_minor && currency ? moneyText(state.chip_value_minor, currency) : null;
    money.textContent = value ? t("One chip is worth %(value)s.", { value }) : "";
    toAct.textContent = toActText(view);
    opening.replaceChildren(...[openControls(view, reload)].filter(Boolean));
    fairness.update(view);
    let element;
    if (!view.state) element = el("p", {}, t("The game has not started."));
    else if (module && module.render) {
      try {
        element = module.render(view, ctx);
      } catch (error) {
        element = el("pre", { className: "dump" }, JSON.stringify(view.state, null, 2));
        showError(error);
      }
    } else element = el("pre", { className: "dump" }, JSON.stringify(view.state, null, 2));
    game.replaceChildren(element);
    // The controls are rebuilt only when the legal actions change: a bot's move elsewhere must
    // not replace the button under a player's finger or take their keyboard focus.
    const actionsKey = JSON.stringify(view.legal_actions);
    if (actionsKey !== shownActions) {
      shownActions = actionsKey;
      const built = actionsSection(view, module, ctx, send);
      actions.replaceChildren(...built.childNodes);
    }
    actions.setAttribute("role", "group");
    actions.setAttribute("aria-label", t("Your actions"));
    hand.replaceChildren(el("div", { className: "cards" }, (layout.hand || []).map((code) => clickable(cardElement(code), "hand"))));
    hand.hidden = !(layout.hand || []).length;
    for (const card of seats.querySelectorAll("[data-part=widow] .card[data-card]")) {
      const spot = document.createComment("");
      card.before(spot);
      spot.replaceWith(clickable(card, "widow"));
    }
    syncPressed();
    showCountdown();
    // Sitting out, sitting in and leaving: apart from the moves, each said before it is sent.
    const offeredPresence = view.legal_actions.filter((action) => PRESENCE.has(action.type));
    const presenceKey = JSON.stringify(offeredPresence);
    if (presenceKey !== shownPresence) {
      shownPresence = presenceKey;
      presence.replaceChildren(...offeredPresence.map((action) => {
        const label = (module && module.describeAction && module.describeAction(action, ctx)) || word(action.type);
        return el("button", { type: "button", dataset: { action: action.type }, onclick: () => ask(action, label) }, label);
      }));
      presence.hidden = !offeredPresence.length;
    }
    // Rebuilt only when they change, as the actions are.
    const offered = ownerActionsOf(view, module);
    const ownerKey = JSON.stringify(offered);
    if (ownerKey !== shownOwner) {
      shownOwner = ownerKey;
      owner.replaceChildren(...ownerSection(offered, module, ctx, ask));
      owner.hidden = !offered.length;
    }
    drawShowdown();
    const result = view.status === "finished" ? resultSection(view) : null;
    gameResult.replaceChildren(...(result ? [result] : []));
    watchPayout();
    if (view.status === "finished") showNewestHand();
    if (focusedCard) {
      const again = hand.querySelector(`.card-button[data-card="${focusedCard}"]`);
      if (again) again.focus();
    } else if (focusedAction) {
      // Keyboard players keep their place: focus goes back to a control of the same action.
      const again = actions.querySelector(`button[data-action="${focusedAction}"], form[data-action="${focusedAction}"] button`) || owner.querySelector(`button[data-action="${focusedAction}"]`) || presence.querySelector(`button[data-action="${focusedAction}"]`);
      if (again) again.focus();
    }
  };
  draw(view);
  showNewestHand();

  // The last events so far, then the stream from the version shown: each event is a line, and after
  // each wake's events the stream brings this seat's view of the table (`view=true`) to redraw from.
  const since = Math.max(0, view.version - 30);
  // Each event with its sentence, said by the server in the page's language (events.js).
  const earlier = await api.get(`tables/${tableId}/events/?after=${since}&sentences=true`);
  for (const event of earlier.results) events.append(eventLine(event, contextOf(view)));
  let lastSeq = earlier.results.length ? earlier.results[earlier.results.length - 1].seq : since;
  let handSeen = earlier.results.reduce((most, event) => Math.max(most, event.hand_no || 0), 0);

  let pending = null;
  const refetch = () => {
    if (pending) return;
    // Not through attempt(): that clears the error region first, and with it the words the
    // stream's end just put there, 50 ms after they came.
    pending = setTimeout(() => {
      pending = null;
      reload().catch(showError);
    }, 50);
  };
  // EventSource cannot send Accept-Language: the page's language goes in the address.
  const stream = new EventSource(`/api/v1/tables/${tableId}/stream/?after=${lastSeq}&sentences=true&view=true&lang=${encodeURIComponent(language())}`, { withCredentials: true });
  const onEvent = (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    if (event.seq <= lastSeq) return;
    lastSeq = event.seq;
    events.append(eventLine(event, contextOf(view)));
    events.scrollTop = events.scrollHeight; // newest last, and in sight
    while (events.children.length > 200) events.firstChild.remove();
    // A hand's end, or the first event of the next hand: the hand before is over, its audit told.
    if (/Ended$/.test(event.type || "")) showHandEnded(event.hand_no);
    if (event.hand_no > handSeen) {
      if (handSeen) showHandEnded(handSeen);
      handSeen = event.hand_no;
    }
  };
  stream.addEventListener("table", (message) => {
    try {
      draw(JSON.parse(message.data));
    } catch (error) {
      showError(error);
    }
  });
  // Every event comes under its own type name (`event: Knocked`): the page lists them all.
  stream.addEventListener("message", onEvent);
  for (const type of JSON.parse(document.getElementById("event-types").textContent)) stream.addEventListener(type, onEvent);
  // The server's last word (docs/api.md, "How a stream ends"): the table finished, or the session
  // that opened the stream ended. The stream is closed so the browser does not reconnect; the
  // page draws the table once more, and says why it no longer moves unless the table is over.
  stream.addEventListener("stream_end", (message) => {
    stream.close();
    let end = {};
    try {
      end = JSON.parse(message.data);
    } catch {
      // a torn message still ends the stream
    }
    events.dataset.streamEnd = end.code || "ended";
    if (end.code !== "table_finished") showError(new Error(end.detail || t("The table's live updates have stopped.")));
    refetch();
  });

  const tick = setInterval(showCountdown, 250);

  app.leave = () => {
    stream.close();
    if (payoutWatch) payoutWatch.close();
    clearInterval(tick);
    if (pending) clearTimeout(pending);
  };
}
