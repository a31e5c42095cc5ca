// A table's hands: the list, and one hand's history, audit and in-browser verification.
import * as api from "./api.js";
import { t } from "./i18n.js";
import { useDeck } from "./cards.js";
import { app, attempt, el, formValues, section } from "./shell.js";
import { showdownSections } from "./showdown.js";
import { word } from "./words.js";

export async function showHands(main, tableId) {
  const page = await api.get(`tables/${tableId}/hands/?limit=100`);
  const list = el("ul", { id: "hands" });
  for (const hand of page.results) {
    const outcome = hand.result
      .filter((line) => line.outcome)
      .map((line) => `${line.player || t("bot (seat %(seat)s)", { seat: line.seat })}: ${word(line.outcome)}`)
      .join(", ");
    list.append(
      el("li", {}, el("a", { href: `#/tables/${tableId}/hands/${hand.hand_no}`, dataset: { hand: hand.hand_no } }, t("Hand %(no)s", { no: hand.hand_no })), outcome ? ` ${outcome}` : ""),
    );
  }
  if (!page.results.length) list.append(el("li", {}, t("No finished hands yet.")));
  main.replaceChildren(
    el("h1", {}, t("Hands")),
    el("p", {}, el("a", { href: `#/tables/${tableId}` }, t("Back to the table"))),
    list,
  );
}

// verify.js (the verify helper's) may be missing on a branch; then the button says so.
async function verifier() {
  try {
    const module = await import("./verify.js");
    return module.verifyHand || null;
  } catch {
    return null;
  }
}

// The audit's facts in words; the machine's whole answer stays one click away.
export function auditView(audit) {
  const box = el("div", { id: "audit" });
  const facts = el("dl", {});
  const labels = {
    commitment: t("Commitment"),
    server_seed: t("Server seed"),
    client_seed: t("Client seed"),
    deck_name: t("Deck"),
  };
  for (const [name, label] of Object.entries(labels)) {
    if (audit[name] != null) facts.append(el("dt", {}, label), el("dd", { className: "mono", dataset: { field: name } }, String(audit[name])));
  }
  if (audit.deck) facts.append(el("dt", {}, t("The shuffled deck, in order")), el("dd", { className: "mono", dataset: { field: "deck" } }, audit.deck.join(" ")));
  box.append(facts);
  box.append(el("details", {}, el("summary", {}, t("The whole audit")), el("pre", { className: "mono" }, JSON.stringify(audit, null, 2))));
  return box;
}

// The history as text: its first lines (table, seeds, seats) stand apart from the numbered events.
function historyView(text) {
  const [head, ...body] = text.split(/\n\s*\n/);
  const facts = el("ul", { className: "history-head" });
  for (const line of head.split("\n")) if (line.trim()) facts.append(el("li", {}, line));
  const events = el("ol", { id: "history" });
  for (const line of body.join("\n").split("\n")) if (line.trim()) events.append(el("li", {}, line));
  return [facts, events];
}

function nameFrom(audit) {
  const seats = new Map((audit.seats || []).map((seat) => [seat.seat, seat]));
  return (seat) => {
    const found = seats.get(seat);
    return found && found.player ? found.player : t("bot (seat %(seat)s)", { seat });
  };
}

// The button that verifies a finished hand in the browser, its result and its details (the hand
// page and the dispute desk's replayer).
export function verifyControls(audit, tableId) {
  const result = el("p", { id: "verify-result", "aria-live": "polite" });
  const details = el("ul", { className: "verify-details" });
  const button = el("button", { type: "button", id: "verify" }, t("Verify this hand in the browser"));
  button.addEventListener("click", () =>
    attempt(async () => {
      const verifyHand = await verifier();
      if (!verifyHand) {
        result.textContent = t("Verification is not available in this browser.");
        delete result.dataset.verified;
        return;
      }
      result.textContent = t("Verifying…");
      const outcome = await verifyHand(audit, tableId);
      result.dataset.verified = String(Boolean(outcome.verified));
      result.textContent = outcome.verified
        ? t("Verified: the commitment and the whole deck match the revealed seeds.")
        : t("Not verified: the audit does not match the revealed seeds.");
      details.replaceChildren(...(outcome.details || []).map((line) => el("li", {}, line)));
    }),
  );
  return [button, result, details];
}

export async function showHand(main, tableId, handNo) {
  const [text, audit] = await Promise.all([
    api.get(`tables/${tableId}/hands/${handNo}/history.txt`, { text: true }),
    api.get(`tables/${tableId}/hands/${handNo}/audit/`),
  ]);
  const history = historyView(text);
  useDeck(audit.deck_name);
  main.replaceChildren(
    el("h1", {}, t("Hand %(no)s", { no: handNo })),
    el("p", {}, el("a", { href: `#/tables/${tableId}/hands` }, t("All hands")), " · ", el("a", { href: `#/tables/${tableId}` }, t("Back to the table"))),
    ...showdownSections(audit.showdown, nameFrom(audit)),
    section("history-box", t("History"), ...history),
    section("audit-box", t("Audit"), auditView(audit), ...verifyControls(audit, tableId)),
    ...disputeForm(audit, tableId, handNo),
  );
}

// A player of the hand disputes it: the category and their words, filed with POST /disputes/.
function disputeForm(audit, tableId, handNo) {
  if (!app.username || !(audit.seats || []).some((seat) => seat.player === app.username)) return [];
  const categories = { cards: t("The cards"), rules: t("The rules"), timer: t("The timer"), money: t("The money") };
  const filed = el("p", { id: "dispute-filed", "aria-live": "polite" });
  const form = el(
    "form",
    { id: "dispute-hand" },
    el("label", {}, t("What was wrong"), " ", el("select", { name: "category" }, Object.entries(categories).map(([code, name]) => el("option", { value: code }, name)))),
    el("label", {}, t("In your words"), el("textarea", { name: "words", required: true, rows: 3, maxlength: 2000 })),
    el("button", { type: "submit" }, t("Dispute this hand")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => {
      const body = { table_id: tableId, hand_no: handNo, ...formValues(form) };
      const dispute = await api.post("disputes/", body, { key: crypto.randomUUID() });
      filed.dataset.dispute = String(dispute.id);
      filed.textContent = dispute.state_text;
    });
  });
  return [section("dispute-box", t("Dispute this hand"), form, filed)];
}
