// Reports (staff): the disputes report and the payouts waiting by age, as the API gives them, in the
// reader's language and currency formats. A section the API refuses shows its words.
import * as api from "./api.js";
import { CATEGORIES, STATES } from "./desk.js";
import { nt, t } from "./i18n.js";
import { duration, moneyOf as money, number, when } from "./numbers.js";
import { el, section } from "./shell.js";

const AGE_GROUPS = {
  under_1h: () => t("Under an hour"),
  "1h_to_1d": () => t("An hour to a day"),
  "1d_to_7d": () => t("A day to a week"),
  over_7d: () => t("Over a week"),
};

async function orRefusal(path) {
  try {
    return { answer: await api.get(path) };
  } catch (error) {
    if (!(error instanceof api.ApiError)) throw error;
    return { refusal: error };
  }
}

function refused(error) {
  return el("p", { className: "refused", dataset: { code: error.code } }, error.message);
}

function rows(pairs, field) {
  const list = el("dl", { className: "facts" });
  for (const [label, value, name] of pairs) list.append(el("dt", {}, label), el("dd", { dataset: { [field]: name } }, value));
  return list;
}

export async function showReports(main) {
  const [disputes, payouts] = await Promise.all([orRefusal("disputes/report/"), orRefusal("payouts/report/")]);
  main.replaceChildren(
    el("h1", {}, t("Reports")),
    section("disputes-report", t("Disputes"), disputes.refusal ? refused(disputes.refusal) : disputesReport(disputes.answer)),
    section("payouts-report", t("Payouts waiting"), payouts.refusal ? refused(payouts.refusal) : payoutsReport(payouts.answer)),
  );
}

function disputesReport(r) {
  const times = r.time_to_decision_seconds;
  return [
    rows(
      [
        [t("Filed in all"), number(r.total), "total"],
        [t("Decided"), number(r.decided), "decided"],
        [t("Upheld"), number(r.upheld), "upheld"],
        [t("Rejected"), number(r.rejected), "rejected"],
        [t("Share upheld"), r.share_upheld == null ? "—" : number(r.share_upheld, { style: "percent", maximumFractionDigits: 1 }), "share_upheld"],
        [t("Time to decision, median"), times.median == null ? "—" : duration(times.median), "median"],
        [t("Time to decision, mean"), times.mean == null ? "—" : duration(times.mean), "mean"],
      ],
      "figure",
    ),
    el("h3", {}, t("By category")),
    rows(Object.entries(r.by_category).map(([code, n]) => [CATEGORIES[code] ? CATEGORIES[code]() : code, number(n), code]), "category"),
    el("h3", {}, t("By state")),
    rows(Object.entries(r.by_state).map(([code, n]) => [STATES[code] ? STATES[code]() : code, number(n), code]), "state"),
    el("h3", {}, t("Compensated")),
    r.compensated.length
      ? rows(r.compensated.map((c) => [c.currency, nt("%(amount)s in %(count)s dispute", "%(amount)s in %(count)s disputes", c.disputes, { amount: money(c.amount, c.currency), count: number(c.disputes) }), c.currency]), "compensated")
      : el("p", {}, t("Nothing compensated yet.")),
  ];
}

function payoutsReport(r) {
  return [
    rows(
      [
        [t("Waiting for a decision"), number(r.pending), "pending"],
        [t("Approved once, waiting for a second person"), number(r.awaiting_second_approval), "awaiting_second_approval"],
        [t("The oldest waits since"), r.oldest_at ? `${when(r.oldest_at)} (${duration(r.oldest_age_seconds)})` : "—", "oldest"],
      ],
      "figure",
    ),
    el("h3", {}, t("By age")),
    rows(
      r.by_age.map((group) => [
        AGE_GROUPS[group.age] ? AGE_GROUPS[group.age]() : group.age,
        [number(group.payouts), group.amounts.length ? " · " + group.amounts.map((a) => money(a.amount, a.currency)).join(", ") : ""],
        group.age,
      ]),
      "age",
    ),
  ];
}
