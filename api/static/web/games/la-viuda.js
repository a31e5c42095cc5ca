// La Viuda: the shared widow table, with the widow's offer and its price.
import { nt, t } from "../i18n.js";
import { moneyOf } from "../numbers.js";
import { describeWidowAction, renderWidow, widowActionGroups, widowTable } from "./widow.js";

export function render(view, ctx) {
  return renderWidow(view, ctx, (state) => {
    const lines = [];
    if (state.widow_price) lines.push(t("Widow price: %(price)s", { price: moneyOf(state.widow_price, state.currency) }));
    if (state.offer != null) lines.push(t("The widow is offered to %(name)s", { name: ctx.playerName(state.offer) }));
    if (state.widow_bought_by != null) lines.push(t("%(name)s bought the widow", { name: ctx.playerName(state.widow_bought_by) }));
    return lines;
  });
}

export function describeAction(action, ctx) {
  return describeWidowAction(action, ctx);
}

export function actionGroups(actions) {
  return widowActionGroups(actions);
}

// The seats and the middle of the table: each seat's chips.
export function table(view, ctx) {
  return widowTable(view, ctx, (state, seat) => nt("%(count)s chip", "%(count)s chips", (state.chips || [])[seat] ?? 0));
}
