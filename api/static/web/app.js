// The entry: the language select, then the hash router that shows the lobby, a table, its hands
// or one hand (#/, #/tables/<id>, #/tables/<id>/hands, #/tables/<id>/hands/<no>), the desks
// (#/desk/disputes[/<id>], #/desk/payouts, #/desk/reports), your money (#/wallet) and a forgotten
// password's pages (#/forgot, #/reset/<uid>/<token>).
import * as api from "./api.js";
import { language, t } from "./i18n.js";
import { app, attempt, refreshWho } from "./shell.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showHand, showHands } from "./hands.js";
import { showForgot, showReset } from "./password.js";
import { showDispute, showQueue } from "./desk.js";
import { showPayoutDesk } from "./payouts.js";
import { showReports } from "./reports.js";
import { showWallet } from "./wallet.js";

const LANGUAGE_KEY = "language";
const main = document.getElementById("main");

const ROUTES = [
  [/^#\/tables\/([^/]+)\/hands\/(\d+)$/, (id, no) => showHand(main, id, Number(no))],
  [/^#\/tables\/([^/]+)\/hands$/, (id) => showHands(main, id)],
  [/^#\/tables\/([^/]+)$/, (id) => showTable(main, id)],
  [/^#\/desk\/disputes\/(\d+)$/, (id) => showDispute(main, Number(id))],
  [/^#\/desk\/disputes$/, () => showQueue(main)],
  [/^#\/desk\/payouts$/, () => showPayoutDesk(main)],
  [/^#\/desk\/reports$/, () => showReports(main)],
  [/^#\/wallet$/, () => showWallet(main)],
  [/^#\/forgot$/, () => showForgot(main)],
  [/^#\/reset\/([^/]+)\/([^/]+)$/, (uid, token) => showReset(main, uid, token)],
];

async function route() {
  if (app.leave) app.leave(); // a table's stream and countdown stop when its page goes
  app.leave = null;
  const hash = location.hash || "#/";
  for (const [pattern, show] of ROUTES) {
    const match = pattern.exec(hash);
    if (match) {
      await attempt(() => show(...match.slice(1).map(decodeURIComponent)));
      return;
    }
  }
  await attempt(() => showLobby(main));
}

function reloadIn(chosen) {
  const url = new URL(location.href);
  url.searchParams.set("lang", chosen);
  location.replace(url.toString());
}

function setUpLanguage() {
  const select = document.getElementById("language");
  document.getElementById("language-label").textContent = t("Language");
  select.value = language();
  select.addEventListener("change", () =>
    attempt(async () => {
      const chosen = select.value;
      localStorage.setItem(LANGUAGE_KEY, chosen);
      if (app.username) await api.put("me/language/", { language: chosen });
      reloadIn(chosen);
    }),
  );
}

async function start() {
  document.getElementById("home-link").textContent = t("Lobby");
  setUpLanguage();
  await attempt(refreshWho);
  // A visitor's remembered language, which the server could not know: the page again, in it.
  const remembered = localStorage.getItem(LANGUAGE_KEY);
  const asked = new URL(location.href).searchParams.get("lang");
  if (!app.username && remembered && !asked && remembered !== language()) {
    reloadIn(remembered);
    return;
  }
  window.addEventListener("hashchange", route);
  await route();
}

start();
