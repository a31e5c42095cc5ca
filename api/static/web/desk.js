// The dispute desk (auditors and staff): the queue oldest first with its filters, and one dispute
// on the hand replayer: the disputing player's own view after every event of the hand (the review
// serves nothing else), then the hand's audit verified in the browser, the dispute's steps, and
// take, decide, approve and decline. Every refusal is shown in the API's own words.
import * as api from "./api.js";
import { cardElement, useDeck } from "./cards.js";
import { t } from "./i18n.js";
import { auditView, verifyControls } from "./hands.js";
import { duration, moneyOf as money, when } from "./numbers.js";
import { app, attempt, el, formValues, section, showError } from "./shell.js";
import { word } from "./words.js";

export const CATEGORIES = {
  cards: () => t("The cards"),
  rules: () => t("The rules"),
  timer: () => t("The timer"),
  money: () => t("The money"),
};
export const STATES = {
  open: () => t("Open"),
  under_review: () => t("Under review"),
  awaiting_approval: () => t("Awaiting a second approval"),
  upheld: () => t("Upheld"),
  rejected: () => t("Rejected"),
};
const STEPS = {
  filed: () => t("Filed"),
  payouts_held: () => t("The table's payouts held"),
  taken: () => t("Taken for review"),
  decided: () => t("Decided"),
  referred: () => t("Referred"),
  compensation_approved: () => t("Compensation approved"),
  compensation_declined: () => t("Compensation declined"),
  compensation_paid: () => t("Compensation paid"),
  payouts_released: () => t("The table's payouts released"),
};
const AGES = [
  ["", () => t("Any age")],
  ["3600", () => t("Older than an hour")],
  ["86400", () => t("Older than a day")],
  ["604800", () => t("Older than a week")],
];

const said = (words, code) => (words[code] ? words[code]() : code);

function options(words, chosen, blank) {
  const list = blank ? [el("option", { value: "" }, blank)] : [];
  for (const [code, name] of Object.entries(words)) list.push(el("option", { value: code, selected: code === chosen }, name()));
  return list;
}

// --- the queue ----------------------------------------------------------------------------------

export async function showQueue(main) {
  const games = await api.get("games/");
  const form = el(
    "form",
    { id: "queue-filters", className: "filters" },
    el("label", {}, t("Category"), el("select", { name: "category" }, options(CATEGORIES, "", t("Any category")))),
    el("label", {}, t("State"), el("select", { name: "state" }, options({ open: STATES.open, under_review: STATES.under_review, awaiting_approval: STATES.awaiting_approval }, "", t("Any state")))),
    el("label", {}, t("Game"), el("select", { name: "game" }, el("option", { value: "" }, t("Any game")), games.map((g) => el("option", { value: g.slug }, g.name || g.slug)))),
    el("label", {}, t("Table"), el("input", { name: "table", placeholder: t("A table's id"), size: 36, dir: "ltr" })),
    el("label", {}, t("Age"), el("select", { name: "older_than" }, AGES.map(([value, name]) => el("option", { value }, name())))),
    el("button", { type: "submit" }, t("Filter")),
  );
  const list = el("div", { id: "queue-list" });
  const load = async () => {
    const query = new URLSearchParams(Object.entries(formValues(form)).filter(([, value]) => value));
    query.set("limit", "100");
    const page = await api.get(`disputes/queue/?${query}`);
    list.replaceChildren(queueTable(page.results));
    list.dataset.loaded = query.toString();
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(load);
  });
  main.replaceChildren(el("h1", {}, t("Dispute desk")), section("queue", t("Disputes waiting, oldest first"), form, list));
  await load();
}

function queueTable(disputes) {
  if (!disputes.length) return el("p", { id: "queue-empty" }, t("No dispute waits."));
  const head = [t("Dispute"), t("Filed"), t("Waiting"), t("Game"), t("Hand"), t("Category"), t("Player"), t("State"), t("Taken by")];
  const now = Date.now();
  return el(
    "table",
    { id: "queue-table", className: "desk-table" },
    el("thead", {}, el("tr", {}, head.map((name) => el("th", { scope: "col" }, name)))),
    el(
      "tbody",
      {},
      disputes.map((d) =>
        el(
          "tr",
          { dataset: { dispute: d.id, state: d.state } },
          el("td", {}, el("a", { href: `#/desk/disputes/${d.id}` }, t("Dispute %(id)s", { id: d.id }))),
          el("td", {}, when(d.filed_at)),
          el("td", {}, duration((now - Date.parse(d.filed_at)) / 1000)),
          el("td", {}, d.game),
          el("td", {}, el("a", { href: `#/tables/${d.table_id}/hands/${d.hand_no}` }, t("Hand %(no)s", { no: d.hand_no }))),
          el("td", { dataset: { category: d.category } }, said(CATEGORIES, d.category)),
          el("td", {}, d.player),
          el("td", {}, said(STATES, d.state), d.you_played ? el("span", { className: "warn" }, " · ", t("you played at this table")) : ""),
          el("td", {}, d.taken_by || ""),
        ),
      ),
    ),
  );
}

// --- a served value, drawn as it is -------------------------------------------------------------

const CARD = /^(?:[2-9TJQKA][cdhs]|(?:1[0-2]|[1-9])[oceb]|X[12])$/;

// The view exactly as it was served: every field under its machine name, card codes as cards, a
// hidden card (null in a list of cards) face down. Nothing is added to it.
export function valueView(value, depth = 0) {
  if (value === null || value === undefined) return el("span", { className: "none" }, "—");
  if (typeof value === "string") return CARD.test(value) ? cardElement(value) : el("span", { className: "mono" }, value);
  if (typeof value !== "object") return el("span", { className: "mono" }, String(value));
  if (Array.isArray(value)) {
    if (!value.length) return el("span", { className: "none" }, "[]");
    if (value.every((item) => item === null || (typeof item === "string" && CARD.test(item)))) {
      return el("span", { className: "cards" }, value.map((code) => cardElement(code)));
    }
    if (value.every((item) => item && typeof item === "object" && !Array.isArray(item))) {
      // Rows of one kind (the players, the pots): a table, one column per field.
      const names = [...new Set(value.flatMap((item) => Object.keys(item)))];
      return el(
        "table",
        { className: "value-table" },
        el("thead", {}, el("tr", {}, names.map((name) => el("th", { scope: "col", className: "mono" }, name)))),
        el("tbody", {}, value.map((item) => el("tr", {}, names.map((name) => el("td", {}, name in item ? valueView(item[name], depth + 1) : ""))))),
      );
    }
    return el("ol", { className: "value-list", start: 0 }, value.map((item) => el("li", {}, valueView(item, depth + 1))));
  }
  const list = el("dl", { className: "value" });
  for (const [name, item] of Object.entries(value)) list.append(el("dt", { className: "mono" }, name), el("dd", {}, valueView(item, depth + 1)));
  return list;
}

// --- one dispute --------------------------------------------------------------------------------

export async function showDispute(main, id) {
  const dispute = await api.get(`disputes/${id}/`);
  let review = null;
  let refusal = null;
  try {
    review = await api.get(`disputes/${id}/review/`);
  } catch (error) {
    if (!(error instanceof api.ApiError)) throw error;
    refusal = error;
  }
  const again = () => showDispute(main, id);
  main.replaceChildren(
    el("h1", {}, t("Dispute %(id)s", { id: dispute.id })),
    facts(dispute, review),
    refusal ? el("p", { id: "review-refused", className: "refused", dataset: { code: refusal.code } }, refusal.message) : "",
    review ? replayer(review) : "",
    review ? section("audit-box", t("The hand's audit"), auditView(review.audit), ...verifyControls(review.audit, dispute.table_id)) : "",
    review && review.payouts.length ? payoutsOfTable(review.payouts) : "",
    stepsView(dispute),
    section("dispute-actions", t("What to do"), ...actions(dispute, review, again)),
  );
  if (refusal) showError(refusal);
}

function facts(d, review) {
  const list = el("dl", { className: "facts" });
  const add = (label, value, field) => list.append(el("dt", {}, label), el("dd", { dataset: { field } }, value));
  add(t("Player"), t("%(player)s at seat %(seat)s", { player: d.player, seat: d.seat }), "player");
  add(t("Table"), el("a", { href: `#/tables/${d.table_id}`, className: "mono" }, d.table_id), "table");
  add(t("Game"), d.game, "game");
  add(t("Hand"), el("a", { href: `#/tables/${d.table_id}/hands/${d.hand_no}` }, t("Hand %(no)s", { no: d.hand_no })), "hand");
  add(t("Category"), said(CATEGORIES, d.category), "category");
  add(t("In the player's words"), d.words, "words");
  add(t("Filed"), when(d.filed_at), "filed");
  add(t("State"), el("span", { dataset: { state: d.state } }, said(STATES, d.state)), "state");
  if (d.taken_by) add(t("Taken by"), d.taken_by, "taken_by");
  if (d.outcome) add(t("Decision"), said(STATES, d.outcome), "outcome");
  if (d.reasons) add(t("Reasons"), d.reasons, "reasons");
  if (d.compensation_minor) add(t("Compensation"), money(d.compensation, d.currency), "compensation");
  if (d.referral) add(t("Referral"), [d.referral === "void_table" ? t("Void the table") : t("Other"), d.referral_note ? ` · ${d.referral_note}` : ""], "referral");
  if (review && review.timers && review.timers.turn_seconds) add(t("Turn timer"), duration(review.timers.turn_seconds), "timer");
  return section("dispute-facts", t("The dispute"), list);
}

function eventLine(event) {
  const who = event.actor || (event.actor_kind === "bot" ? t("bot (seat %(seat)s)", { seat: event.actor_seat }) : t("the table"));
  return el(
    "p",
    { className: "event-line", dataset: { seq: event.seq, type: event.type } },
    t("%(seq)s. %(who)s: %(what)s, %(at)s", { seq: event.seq, who, what: word(event.type), at: when(event.created_at) }),
  );
}

function replayer(review) {
  const views = review.player_views;
  const player = review.dispute.player;
  let index = 0;
  const view = el("div", { id: "step-view", "aria-live": "polite" });
  const counter = el("p", { id: "step-counter" });
  const buttons = {
    first: el("button", { type: "button", id: "step-first" }, t("First")),
    prev: el("button", { type: "button", id: "step-prev" }, t("Previous event")),
    next: el("button", { type: "button", id: "step-next" }, t("Next event")),
    last: el("button", { type: "button", id: "step-last" }, t("Last")),
  };
  const draw = () => {
    const step = views[index];
    counter.dataset.step = String(index);
    counter.dataset.steps = String(views.length);
    counter.textContent = t("Event %(n)s of %(count)s", { n: index + 1, count: views.length });
    buttons.first.disabled = buttons.prev.disabled = index === 0;
    buttons.next.disabled = buttons.last.disabled = index === views.length - 1;
    view.dataset.version = String(step.version);
    useDeck((step.table.state || {}).deck);
    view.replaceChildren(
      el("h3", {}, t("What happened")),
      eventLine(step.event),
      el("div", { className: "event-data" }, valueView(step.event.data)),
      el("h3", {}, t("What %(player)s saw then", { player })),
      el("p", {}, t("Seat %(seat)s, at version %(version)s of the table (status: %(status)s).", { seat: step.table.your_seat, status: step.table.status, version: step.version })),
      el("div", { className: "view-state" }, valueView(step.table.state)),
      el("h3", {}, t("What %(player)s was offered", { player })),
      el("div", { className: "view-actions" }, step.table.legal_actions.length ? valueView(step.table.legal_actions) : t("Nothing: not their turn.")),
    );
  };
  const go = (to) => () => {
    index = Math.max(0, Math.min(views.length - 1, to()));
    draw();
  };
  buttons.first.addEventListener("click", go(() => 0));
  buttons.prev.addEventListener("click", go(() => index - 1));
  buttons.next.addEventListener("click", go(() => index + 1));
  buttons.last.addEventListener("click", go(() => views.length - 1));
  if (views.length) draw();
  return section(
    "replayer",
    t("The hand as %(player)s saw it", { player }),
    el("p", { className: "hint" }, t("Only what this player was served after each event: never another seat's hidden cards.")),
    el("div", { className: "step-buttons" }, buttons.first, buttons.prev, counter, buttons.next, buttons.last),
    view,
  );
}

function payoutsOfTable(payouts) {
  return section(
    "dispute-payouts",
    t("The table's payouts"),
    el("ul", {}, payouts.map((p) => el("li", { dataset: { payout: p.id, status: p.status } }, t("%(player)s: %(amount)s, %(status)s", { player: p.player || t("bot (seat %(seat)s)", { seat: p.seat }), amount: money(p.amount, p.currency), status: p.status })))),
  );
}

function stepsView(d) {
  return section(
    "dispute-steps",
    t("Its history"),
    el(
      "ol",
      { id: "steps" },
      d.steps.map((s) => el("li", { dataset: { kind: s.kind } }, `${when(s.at)} · ${said(STEPS, s.kind)}${s.by ? " · " + s.by : ""}${s.reason ? " · " + s.reason : ""}`)),
    ),
  );
}

// A write of the desk: a fresh idempotency key per click, then the dispute drawn again.
function decide(path, body, again) {
  return attempt(async () => {
    await api.post(path, body, { key: crypto.randomUUID() });
    await again();
  });
}

function actions(d, review, again) {
  const base = `disputes/${d.id}/`;
  const out = [];
  if (d.state === "open") {
    out.push(el("button", { type: "button", id: "take", onclick: () => decide(base + "take/", undefined, again) }, t("Take this dispute")));
  }
  if (d.state === "under_review") out.push(decideForm(d, review, base, again));
  if (d.state === "awaiting_approval") {
    out.push(el("p", { id: "awaiting" }, t("Upheld with a compensation of %(amount)s above the two-person limit: it waits for a second approver (%(needed)s approvals in all).", { amount: money(d.compensation, d.currency), needed: d.approvals_needed })));
    if (app.staff) out.push(secondApproverForm(base, again));
  }
  if (d.state === "upheld" || d.state === "rejected") out.push(el("p", { id: "settled" }, t("This dispute is settled.")));
  return out;
}

function decideForm(d, review, base, again) {
  const limits = review && review.compensation_limits;
  const currency = (limits && limits.currency) || d.currency;
  const form = el(
    "form",
    { id: "decide", className: "desk-form" },
    el(
      "fieldset",
      {},
      el("legend", {}, t("Decision")),
      el("label", {}, el("input", { type: "radio", name: "outcome", value: "upheld", required: true }), " ", t("Upheld")),
      el("label", {}, el("input", { type: "radio", name: "outcome", value: "rejected" }), " ", t("Rejected")),
    ),
    el("label", {}, t("Reasons (the player reads them)"), el("textarea", { name: "reasons", required: true, rows: 3 })),
    el(
      "fieldset",
      {},
      el("legend", {}, t("Remedy, when upheld")),
      el(
        "label",
        {},
        t("Compensation in %(currency)s, paid from %(account)s", { currency: currency || "—", account: `house:compensation:${currency || "—"}` }),
        el("input", { name: "compensation", inputmode: "decimal", dir: "ltr", pattern: "[0-9]+(\\.[0-9]+)?" }),
      ),
      limits ? el("p", { className: "hint", id: "bound" }, t("At most %(bound)s: the %(lost)s the player lost here, less %(compensated)s already compensated; the house budget can still pay %(left)s.", { bound: money(limits.bound, limits.currency), lost: money(limits.lost, limits.currency), compensated: money(limits.compensated, limits.currency), left: money(limits.budget_left, limits.currency) })) : "",
      el(
        "label",
        {},
        t("Referral"),
        el("select", { name: "referral" }, el("option", { value: "" }, t("None")), el("option", { value: "void_table" }, t("Void the table")), el("option", { value: "other" }, t("Other"))),
      ),
      el("label", {}, t("Referral note"), el("input", { name: "referral_note" })),
    ),
    el("button", { type: "submit" }, t("Record the decision")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const values = formValues(form);
    const body = { outcome: values.outcome || "", reasons: values.reasons };
    if (values.compensation) body.compensation = values.compensation;
    if (values.referral) body.referral = values.referral;
    if (values.referral_note) body.referral_note = values.referral_note;
    decide(base + "decide/", body, again);
  });
  return form;
}

function secondApproverForm(base, again) {
  const reason = el("input", { name: "reason", id: "second-reason" });
  return el(
    "div",
    { id: "second-approver", className: "desk-form" },
    el("label", {}, t("Reason (needed to decline)"), reason),
    el("button", { type: "button", id: "approve-compensation", onclick: () => decide(base + "approve/", { reason: reason.value }, again) }, t("Approve the compensation")),
    " ",
    el("button", { type: "button", id: "decline-compensation", onclick: () => decide(base + "decline/", { reason: reason.value }, again) }, t("Decline it")),
  );
}
