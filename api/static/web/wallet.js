// Your money (#/wallet): the balance in each currency, your payouts (waiting for review, and
// decided with the decision's reason) and every movement of your wallets in words, as the API
// says them (GET /wallets/me/, /me/payouts/, /wallets/me/transactions/). The page follows
// /me/stream/: a payout decided, a table of yours ended or a dispute paid reads it all again, so an
// approval shows here without a reload.
import * as api from "./api.js";
import { language, t } from "./i18n.js";
import { money, signedMoney, when } from "./numbers.js";
import { app, attempt, el, section } from "./shell.js";

// What makes the page read the API again: anything that may move your money.
const MONEY_NOTICES = ["payout_decided", "table_ended", "dispute_changed"];

function tableLink(tableId, name) {
  return tableId ? el("a", { href: `#/tables/${tableId}`, className: "table-link" }, name || t("Table")) : null;
}

function balances(wallets) {
  if (!wallets.length) return el("p", {}, t("No money yet."));
  return el("ul", { className: "balances" }, wallets.map((wallet) =>
    el("li", { dataset: { currency: wallet.currency, minor: wallet.balance_minor } },
      el("span", { className: "currency" }, wallet.currency), " ", el("strong", { className: "amount" }, money(wallet.balance_minor, wallet.currency)))));
}

// Where a payout stands, in the page's words (the amount is beside it, in the page's digits).
const STATUS_WORDS = {
  pending: () => t("Waits for staff review; paid into your wallet once approved."),
  approved: () => t("Approved and paid into your wallet."),
  rejected: () => t("Rejected: not paid; the table's money is held for follow-up."),
};

function payoutItem(payout) {
  const decided = payout.status !== "pending";
  return el(
    "li",
    { className: "money-item", dataset: { payout: payout.id, status: payout.status } },
    el("p", { className: "headline" },
      el("strong", { className: "amount" }, money(payout.amount_minor, payout.currency)), " · ",
      tableLink(payout.table_id, payout.game_name)),
    el("p", { className: "status-text" }, (STATUS_WORDS[payout.status] || (() => payout.status_text))()),
    payout.status === "pending" && payout.approvals_needed > 1
      ? el("p", { className: "approvals" }, t("Approvals: %(count)s of %(needed)s", { count: payout.approvals, needed: payout.approvals_needed }))
      : null,
    decided && payout.reason ? el("p", { className: "reason" }, t("Reason: %(reason)s", { reason: payout.reason })) : null,
    el("p", { className: "when" }, decided
      ? t("Won %(opened)s, decided %(decided)s", { opened: when(payout.created_at), decided: when(payout.decided_at) })
      : t("Won %(opened)s", { opened: when(payout.created_at) })),
  );
}

function payoutsSection(payouts) {
  const waiting = payouts.filter((payout) => payout.status === "pending");
  const decided = payouts.filter((payout) => payout.status !== "pending");
  return section(
    "my-payouts",
    t("Your payouts"),
    el("h3", {}, t("Waiting for staff review")),
    waiting.length ? el("ul", { className: "money-list", id: "payouts-waiting" }, waiting.map(payoutItem)) : el("p", {}, t("No payout waits.")),
    el("h3", {}, t("Decided payouts")),
    decided.length ? el("ul", { className: "money-list", id: "payouts-decided" }, decided.map(payoutItem)) : el("p", {}, t("No payout decided yet.")),
  );
}

function lineItem(line) {
  return el(
    "li",
    { className: "money-line", dataset: { line: line.id, kind: line.kind, payout: line.payout_id ?? false } },
    el("span", { className: "description" }, line.description, line.table_id ? " · " : "", tableLink(line.table_id, line.game_name)),
    el("span", { className: "amount", dataset: { sign: line.amount_minor < 0 ? "out" : "in" } }, signedMoney(line.amount_minor, line.currency)),
    el("span", { className: "balance-after" }, t("Balance: %(money)s", { money: money(line.balance_after_minor, line.currency) })),
    el("span", { className: "when" }, when(line.created_at)),
  );
}

function linesSection(page, more) {
  const list = el("ol", { className: "money-lines", id: "wallet-lines" }, page.results.map(lineItem));
  const next = page.next_cursor
    ? el("button", { type: "button", id: "more-lines", onclick: () => attempt(async () => {
      const following = await api.get(`wallets/me/transactions/?limit=50&cursor=${encodeURIComponent(page.next_cursor)}`);
      list.append(...following.results.map(lineItem));
      page.next_cursor = following.next_cursor;
      if (!following.next_cursor) next.remove();
    }) }, t("Older movements"))
    : null;
  more.replaceChildren(...(next ? [next] : []));
  return section("wallet-movements", t("Movements"), page.results.length ? list : el("p", {}, t("No movement yet.")), more);
}

export async function showWallet(main) {
  if (!app.username) {
    main.replaceChildren(el("h1", {}, t("Your money")), el("p", {}, t("Sign in to see your money.")), el("a", { href: "#/" }, t("Lobby")));
    return;
  }
  const root = el("div", { id: "wallet-page" });
  main.replaceChildren(el("h1", {}, t("Your money")), root);
  const more = el("div", { className: "more" });
  let reading = null;
  const draw = async () => {
    const [wallets, payouts, lines] = await Promise.all([
      api.get("wallets/me/"),
      api.get("me/payouts/?limit=100"),
      api.get("wallets/me/transactions/?limit=50"),
    ]);
    root.replaceChildren(
      section("balances", t("Balances"), balances(wallets.wallets)),
      payoutsSection(payouts.results),
      linesSection(lines, more),
    );
    root.dataset.version = String(Number(root.dataset.version || 0) + 1);
  };
  await draw();
  // One read at a time; a notice that comes meanwhile reads once more after it.
  let again = false;
  const refresh = () => {
    if (reading) {
      again = true;
      return;
    }
    reading = attempt(draw).finally(() => {
      reading = null;
      if (again) {
        again = false;
        refresh();
      }
    });
  };
  const stream = new EventSource(`/api/v1/me/stream/?lang=${encodeURIComponent(language())}`, { withCredentials: true });
  for (const name of MONEY_NOTICES) stream.addEventListener(name, refresh);
  stream.addEventListener("stream_end", () => stream.close());
  app.leave = () => stream.close();
}
