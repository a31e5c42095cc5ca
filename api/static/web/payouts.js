// The payout desk (staff): payouts waiting for a decision, longest waiting first, each with the
// table's result, its last hand's audit and the decisions so far, approved or rejected with a
// reason; and the large deposits waiting for a second member of staff. Refusals in the API's words.
import * as api from "./api.js";
import { t } from "./i18n.js";
import { duration, moneyOf as money, when } from "./numbers.js";
import { attempt, el, section } from "./shell.js";
import { word } from "./words.js";

export async function showPayoutDesk(main) {
  const [payouts, deposits] = await Promise.all([
    api.get("payouts/?status=pending&order=oldest&limit=100"),
    api.get("deposits/?state=pending&limit=100"),
  ]);
  const again = () => showPayoutDesk(main);
  main.replaceChildren(
    el("h1", {}, t("Payout desk")),
    section("payouts", t("Payouts waiting, longest first"), payouts.results.length ? el("ul", { className: "desk-list" }, payouts.results.map((p) => payoutItem(p, again))) : el("p", {}, t("No payout waits."))),
    section("deposits", t("Large deposits waiting for a second member of staff"), deposits.results.length ? el("ul", { className: "desk-list" }, deposits.results.map((d) => depositItem(d, again))) : el("p", {}, t("No deposit waits."))),
  );
}

// A link to the API's hand audit as the client's own hand page (the audit verified in the browser).
function handLink(audit) {
  const found = /\/tables\/([^/]+)\/hands\/(\d+)\/audit\/$/.exec(audit || "");
  return found ? el("a", { href: `#/tables/${found[1]}/hands/${found[2]}`, className: "audit-link" }, t("Hand %(no)s and its audit", { no: found[2] })) : "";
}

function resultLine(result) {
  return result
    .map((line) => `${line.player || t("bot (seat %(seat)s)", { seat: line.seat })}${line.outcome ? ": " + word(line.outcome) : ""}`)
    .join(", ");
}

function write(path, body, again) {
  return attempt(async () => {
    await api.post(path, body, { key: crypto.randomUUID() });
    await again();
  });
}

function payoutItem(p, again) {
  const table = p.table || {};
  const approvals = p.decisions.filter((d) => d.decision === "approve").length;
  const reason = el("input", { name: "reason", "aria-label": t("Reason") });
  return el(
    "li",
    { dataset: { payout: p.id }, className: "desk-item" },
    el("p", { className: "headline" }, el("strong", {}, money(p.amount, p.currency)), " · ", t("to %(player)s (seat %(seat)s)", { player: p.player, seat: p.seat }), " · ", t("waiting %(time)s", { time: duration((Date.now() - Date.parse(p.created_at)) / 1000) })),
    el("p", {}, t("Table"), " ", el("a", { href: `#/tables/${p.table_id}`, className: "mono" }, p.table_id.slice(0, 8)), ` · ${table.game || ""} · `, resultLine(table.result || []), " · ", handLink(table.audit)),
    el("p", { className: "approvals", dataset: { approvals: approvals, needed: p.approvals_needed } }, t("Approvals: %(count)s of %(needed)s", { count: approvals, needed: p.approvals_needed })),
    p.decisions.length ? el("ul", { className: "decisions" }, p.decisions.map((d) => el("li", {}, `${when(d.at)} · ${d.by || t("automatic")} · ${d.decision === "approve" ? t("approved") : t("rejected")}${d.reason ? " · " + d.reason : ""}`))) : "",
    el(
      "div",
      { className: "desk-form" },
      el("label", {}, t("Reason (needed to reject)"), " ", reason),
      " ",
      el("button", { type: "button", dataset: { decide: "approve" }, onclick: () => write(`payouts/${p.id}/approve/`, { reason: reason.value }, again) }, t("Approve")),
      " ",
      el("button", { type: "button", dataset: { decide: "reject" }, onclick: () => write(`payouts/${p.id}/reject/`, { reason: reason.value }, again) }, t("Reject")),
    ),
  );
}

function depositItem(d, again) {
  const reason = el("input", { name: "reason", "aria-label": t("Reason") });
  return el(
    "li",
    { dataset: { deposit: d.id }, className: "desk-item" },
    el("p", { className: "headline" }, el("strong", {}, money(d.amount, d.currency)), " · ", t("for %(user)s, recorded by %(by)s, %(at)s", { user: d.user, by: d.recorded_by, at: when(d.recorded_at) })),
    el(
      "div",
      { className: "desk-form" },
      el("label", {}, t("Reason (needed to reject)"), " ", reason),
      " ",
      el("button", { type: "button", dataset: { decide: "approve" }, onclick: () => write(`deposits/${d.id}/approve/`, undefined, again) }, t("Approve")),
      " ",
      el("button", { type: "button", dataset: { decide: "reject" }, onclick: () => write(`deposits/${d.id}/reject/`, { reason: reason.value }, again) }, t("Reject")),
    ),
  );
}
