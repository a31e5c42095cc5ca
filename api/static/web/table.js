// The table page: seats, whose turn, the countdown, the game's own element, the legal actions as
// controls, the live events, the showdown and its tie-break, chips and money. The page follows
// the table's stream, which brings its view after each wake's events; nothing here knows a game's rules.
import * as api from "./api.js";
import { nt, t } from "./i18n.js";
import { cardElement } from "./cards.js";
import { eventLine } from "./events.js";
import { showdownSections } from "./showdown.js";
import { word } from "./words.js";
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
  return `${(minor / 100).toFixed(2)} ${state.currency}`;
}

function seatsSection(view) {
  const state = view.state || {};
  const list = el("ol", { className: "seats" });
  for (const seat of view.seats) {
    const chips = state.chips ? state.chips[seat.seat] : null;
    const notes = [];
    if (seat.seat === view.your_seat) notes.push(t("you"));
    if (seat.bot) notes.push(t("bot"));
    else if (seat.played_by_bot) notes.push(t("played by the bot"));
    if (state.dealer === seat.seat) notes.push(t("dealer"));
    if (state.out && state.out[seat.seat]) notes.push(t("out"));
    if (view.to_act.includes(seat.seat)) notes.push(t("to act"));
    list.append(
      el(
        "li",
        {
          dataset: { seat: seat.seat, taken: seat.taken, bot: seat.bot, playedByBot: seat.played_by_bot },
          className: view.to_act.includes(seat.seat) ? "acting" : null,
        },
        el("span", { className: "name" }, seat.taken ? playerName(view, seat.seat) : t("empty seat %(seat)s", { seat: seat.seat })),
        notes.length ? el("span", { className: "notes" }, ` (${notes.join(", ")})`) : null,
        chips != null
          ? el("span", { className: "chips" }, " ", nt("%(count)s chip", "%(count)s chips", chips),
              state.chip_value_minor ? ` = ${money(chips * state.chip_value_minor, state)}` : "")
          : null,
      ),
    );
  }
  return list;
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
    if (owners.has(action.type)) return;
    if (grouped.has(action)) {
      const group = groups.find((candidate) => candidate.actions.includes(action));
      if (group.actions[0] === action) box.append(groupForm(group, index, send));
      return;
    }
    const label = (module && module.describeAction && module.describeAction(action, ctx)) || genericLabel(action);
    const fields = fieldsOf(action, module, ctx);
    if (!fields) {
      box.append(el("button", { type: "button", dataset: { action: action.type }, onclick: () => send(action) }, label));
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

// The showdown's entries {seat, cards, category, category_name, description, outcome, tie_break}:
// the game module's showdown(view) when it has one, else the state's own `showdown`.
function showdownOf(view, module) {
  if (module && module.showdown) {
    try {
      return module.showdown(view) || null;
    } catch (error) {
      showError(error);
      return null;
    }
  }
  return (view.state && view.state.showdown) || null;
}

// The context a game module and the event sentences draw with.
function contextOf(view) {
  const state = view.state || {};
  const config = view.config || {};
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

function ownerSection(offered, module, ctx, send) {
  return offered.map((action) => {
    const label = (module.describeAction && module.describeAction(action, ctx)) || word(action.type);
    return el("button", { type: "button", id: action.type.replace(/_/g, "-"), dataset: { action: action.type }, onclick: () => send(action) }, label);
  });
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

export async function showTable(main, tableId) {
  let view = await api.get(`tables/${tableId}/`);
  const module = await gameModule(view.game);
  const root = el("div", { id: "table" });
  const seats = el("div", { id: "seats" });
  const toAct = el("p", { id: "to-act", "aria-live": "polite" });
  const countdown = el("p", { id: "countdown", "aria-live": "off" });
  const game = el("div", { id: "game" });
  const actions = el("div", { id: "actions" });
  const owner = el("div", { id: "owner-actions", role: "group", "aria-label": t("The owner's commands") });
  const opening = el("div", { className: "opening" });
  const showdownBox = el("div", { className: "showdown-box" });
  const events = el("ol", { id: "events", "aria-live": "polite", "aria-relevant": "additions" });
  const money = el("p", { className: "money" });
  const fairness = fairnessBox(tableId);
  // The game's name once the games list answers; a neutral word until then, never the slug.
  const title = el("h1", {}, t("Table"));
  root.append(
    title,
    el("p", {}, el("a", { id: "hands-link", href: `#/tables/${tableId}/hands` }, t("Hands of this table"))),
    opening,
    el(
      "div",
      { className: "layout" },
      el("div", { className: "play" }, toAct, countdown, game, actions, owner, showdownBox),
      el("aside", { className: "side" }, section("seats-box", t("Seats"), seats, money), fairness, section("events-box", t("Events"), events)),
    ),
  );
  gameName(view.game).then((name) => {
    if (name) title.textContent = name;
  });
  main.replaceChildren(root);

  // The seconds left to the deadline, drawn with every view (a table that has just ended shows
  // none at once) and every quarter of a second in between.
  const showCountdown = () => {
    if (!view.deadline || view.status !== "running") {
      countdown.textContent = "";
      delete countdown.dataset.seconds;
      return;
    }
    const left = Math.max(0, Math.round((Date.parse(view.deadline) - Date.now()) / 1000));
    countdown.textContent = nt("%(count)s second left", "%(count)s seconds left", left);
    countdown.dataset.seconds = left;
  };

  let busy = false;
  const send = (action) =>
    attempt(async () => {
      if (busy) return;
      busy = true;
      try {
        const answer = await api.act(tableId, action, view.version);
        draw(answer.table || (await api.get(`tables/${tableId}/`)));
      } catch (error) {
        if (error.table) draw(error.table);
        throw error;
      } finally {
        busy = false;
      }
    });

  let shownActions = null;
  let shownOwner = null;
  let lastShowdown = null;
  const reload = async () => draw(await api.get(`tables/${tableId}/`));

  const draw = (next) => {
    if (next.version < view.version && next.status === view.status) return; // an answer older than what is shown
    view = next;
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-action]");
    const focusedAction = focused ? focused.dataset.action : null;
    root.dataset.status = view.status;
    root.dataset.version = view.version;
    root.dataset.game = view.game;
    seats.replaceChildren(seatsSection(view));
    const state = view.state || {};
    const config = view.config || {};
    const currency = state.currency || config.currency;
    const value = state.chip_value || config.chip_value || "—";
    if (currency && state.pot != null) money.textContent = nt("Chip value %(value)s %(currency)s; pot %(count)s chip", "Chip value %(value)s %(currency)s; pot %(count)s chips", state.pot, { value, currency });
    else if (currency) money.textContent = t("Chip value %(value)s %(currency)s", { value, currency });
    else money.textContent = state.pot != null ? nt("Pot %(count)s chip", "Pot %(count)s chips", state.pot) : "";
    toAct.textContent = toActText(view);
    showCountdown();
    opening.replaceChildren(...[openControls(view, reload)].filter(Boolean));
    fairness.update(view);
    const ctx = contextOf(view);
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
    // Rebuilt only when they change, as the actions are.
    const offered = ownerActionsOf(view, module);
    const ownerKey = JSON.stringify(offered);
    if (ownerKey !== shownOwner) {
      shownOwner = ownerKey;
      owner.replaceChildren(...ownerSection(offered, module, ctx, send));
      owner.hidden = !offered.length;
    }
    // The last showdown stays in sight while the next hand is dealt and played: the table moves on
    // at once, and a player who looked away would otherwise never see who paid and why.
    const entries = showdownOf(view, module);
    const steps = state.tie_break || [];
    const current = Boolean((entries && entries.length) || steps.length);
    if (current) lastShowdown = { entries, steps };
    if (lastShowdown) {
      const heading = current ? t("Showdown") : t("Last showdown");
      showdownBox.replaceChildren(...showdownSections(lastShowdown.entries, (seat) => playerName(view, seat), lastShowdown.steps, heading));
    } else showdownBox.replaceChildren(...showdownSections([], (seat) => playerName(view, seat)));
    if (focusedAction) {
      // Keyboard players keep their place: focus goes back to a control of the same action.
      const again = actions.querySelector(`button[data-action="${focusedAction}"], form[data-action="${focusedAction}"] button`) || owner.querySelector(`button[data-action="${focusedAction}"]`);
      if (again) again.focus();
    }
  };
  draw(view);

  // The last events so far, then the stream from the version shown: each event is a line, and after
  // each wake's events the stream brings this seat's view of the table (`view=true`) to redraw from.
  const since = Math.max(0, view.version - 30);
  // Each event with its sentence, said by the server in the page's language (events.js).
  const earlier = await api.get(`tables/${tableId}/events/?after=${since}&sentences=true`);
  for (const event of earlier.results) events.append(eventLine(event, contextOf(view)));
  let lastSeq = earlier.results.length ? earlier.results[earlier.results.length - 1].seq : since;

  let pending = null;
  const refetch = () => {
    if (pending) return;
    pending = setTimeout(async () => {
      pending = null;
      await attempt(reload);
    }, 50);
  };
  const stream = new EventSource(`/api/v1/tables/${tableId}/stream/?after=${lastSeq}&sentences=true&view=true`, { withCredentials: true });
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
    clearInterval(tick);
    if (pending) clearTimeout(pending);
  };
}
