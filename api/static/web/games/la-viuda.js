// La Viuda: the shared widow table, with the widow's offer and its price.
import { t } from "../i18n.js";
import { describeWidowAction, renderWidow, widowActionGroups } from "./widow.js";

export function render(view, ctx) {
  return renderWidow(view, ctx, (state) => {
    const lines = [];
    if (state.widow_price) lines.push(t("Widow price: %(price)s %(currency)s", { price: state.widow_price, currency: state.currency || "" }));
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
