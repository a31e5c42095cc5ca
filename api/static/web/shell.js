// What every page shares: who is signed in, the error region, and el() to build elements with
// text (never markup) from what the server says.
import * as api from "./api.js";
import { t } from "./i18n.js";

export const app = { username: null, staff: false, auditor: false, leave: null };

export function showError(error) {
  const errors = document.getElementById("errors");
  errors.replaceChildren();
  if (!error) return;
  const line = document.createElement("p");
  line.textContent = error.message || String(error);
  if (error.code) line.dataset.code = error.code;
  errors.append(line);
}

// Runs an async click: its error goes to the error region (the problem's `detail`, already in
// the reader's language), never to the console alone.
export async function attempt(work) {
  showError(null);
  try {
    return await work();
  } catch (error) {
    showError(error);
    return undefined;
  }
}

export async function refreshWho() {
  const me = await api.session();
  app.username = me.username;
  document.getElementById("who").textContent = me.username ? t("Signed in as %(name)s", { name: me.username }) : "";
  // Your money, for anyone signed in.
  const wallet = document.getElementById("wallet-link");
  wallet.textContent = t("Your money");
  wallet.hidden = !me.username;
  // The desks' links, only for those the session says may use them (the API checks again).
  [app.staff, app.auditor] = [Boolean(me.is_staff), Boolean(me.is_auditor)];
  const links = [[app.auditor, "#/desk/disputes", t("Dispute desk")], [app.staff, "#/desk/payouts", t("Payout desk")], [app.staff, "#/desk/reports", t("Reports")]];
  document.getElementById("desks").replaceChildren(...links.filter(([may]) => may).map(([, href, name]) => el("a", { href }, name)));
  return me;
}

// el("button", {type: "submit", dataset: {action: "knock"}}, "Knock", child…)
export function el(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value == null || value === false) continue;
    if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "className") element.className = value;
    else if (name === "onclick") element.addEventListener("click", value);
    else if (name === "onsubmit") element.addEventListener("submit", value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

export function section(id, heading, ...children) {
  return el("section", { id, "aria-labelledby": id + "-heading" }, el("h2", { id: id + "-heading" }, heading), ...children);
}

// A form's fields as an object, numbers as numbers, checkboxes as booleans.
export function formValues(form) {
  const values = {};
  for (const input of form.elements) {
    if (!input.name) continue;
    if (input.type === "checkbox") values[input.name] = input.checked;
    else if (input.type === "radio") {
      // A group's inputs share the name: the checked one gives the value, or none is chosen.
      if (input.checked) values[input.name] = input.value;
      else if (!(input.name in values)) values[input.name] = null;
    }
    else if (input.type === "number") values[input.name] = input.value === "" ? null : Number(input.value);
    else if (input.tagName === "SELECT" && input.multiple) values[input.name] = [...input.selectedOptions].map((o) => o.value);
    else values[input.name] = input.value;
  }
  return values;
}
