// A showdown: each shown hand with its cards, its category and description and what it means for
// the player (wins, pays, safe…), then the tie-break step by step. The table page draws the live
// one; a hand's page draws the one its audit records. Entries are the API's:
// {seat, cards, category, category_name, description, outcome, tie_break: [{rule, sentence}]}.
import { t } from "./i18n.js";
import { cardRow } from "./cards.js";
import { el } from "./shell.js";
import { word } from "./words.js";

// The description without the category it starts with ("three of a kind, kings, …" under the
// heading "three of a kind"), so the reader does not read the category twice.
function rest(description, category) {
  if (!description) return "";
  if (category && description.startsWith(category)) return description.slice(category.length).replace(/^[,:،]\s*/, "");
  return description;
}

function shownHand(hand, nameOf) {
  // Words, never the machine's code: the server's name for the category, else the client's.
  const category = hand.category_name || (hand.category ? word(hand.category) : "");
  const detail = rest(hand.description, category);
  // "pair of fives, …" under "pair" reads "pair of fives, …", not "pair: of fives, …".
  const runsOn = Boolean(category && detail && hand.description && hand.description.startsWith(category) && !/^[,:،]/.test(hand.description.slice(category.length).trimStart()));
  return el(
    "div",
    { className: "shown", dataset: { seat: hand.seat, category: hand.category || "", outcome: hand.outcome || "" } },
    el("h3", {}, nameOf(hand.seat)),
    hand.cards ? cardRow(hand.cards, nameOf(hand.seat)) : null,
    el("p", {}, el("strong", { className: "category" }, category), category && detail ? (runsOn ? " " : ": ") : "", el("span", { className: "description" }, detail)),
    hand.outcome ? el("p", { className: "outcome" }, word(hand.outcome)) : null,
  );
}

// [the showdown section, the tie-break section]; each hidden when it has nothing to show. Steps
// shared by several hands are listed once.
export function showdownSections(entries, nameOf, extraSteps = [], heading = t("Showdown")) {
  const box = el("section", { id: "showdown", "aria-labelledby": "showdown-heading" }, el("h2", { id: "showdown-heading" }, heading));
  const steps = [];
  const add = (step) => {
    if (!steps.some((known) => known.sentence === step.sentence)) steps.push(step);
  };
  for (const hand of entries || []) {
    box.append(shownHand(hand, nameOf));
    (hand.tie_break || []).forEach(add);
  }
  box.hidden = !(entries && entries.length);
  (extraSteps || []).forEach(add);
  const tieBreak = el("section", { id: "tie-break", "aria-labelledby": "tie-break-heading" },
    el("h2", { id: "tie-break-heading" }, t("Tie-break")),
    el("ol", {}, steps.map((step) => el("li", { dataset: { rule: step.rule || "" } }, step.sentence || step.rule))));
  tieBreak.hidden = !steps.length;
  return [box, tieBreak];
}
