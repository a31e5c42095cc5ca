// Whiskey Poker: the shared widow table, with its scoring: the pot, lives or points; the owner of a
// pot-scoring match ends it with end_match (WP-6), offered by ownerActions(view).
import { nt, t } from "../i18n.js";
import { describeWidowAction, renderWidow, widowActionGroups, widowTable } from "./widow.js";

export function render(view, ctx) {
  return renderWidow(view, ctx, (state) => {
    const lines = [];
    if (state.scoring === "loser_pays") {
      lines.push(t("Lives: %(lives)s", { lives: (state.chips || []).map((n, seat) => `${ctx.playerName(seat)} ${n}`).join(", ") }));
    } else if (state.scoring === "points") {
      lines.push(t("Points: %(points)s", { points: (state.points || []).map((n, seat) => `${ctx.playerName(seat)} ${n}`).join(", ") }));
      if (state.target_points != null) lines.push(nt("Playing to %(count)s point", "Playing to %(count)s points", state.target_points));
    }
    if (state.winners && state.winners.length) lines.push(t("Winners: %(names)s", { names: state.winners.map(ctx.playerName).join(", ") }));
    if (state.losers && state.losers.length) lines.push(t("Losers: %(names)s", { names: state.losers.map(ctx.playerName).join(", ") }));
    return lines;
  });
}

export function describeAction(action, ctx) {
  return describeWidowAction(action, ctx);
}

export function actionGroups(actions) {
  return widowActionGroups(actions);
}

// The owner's commands now: a pot-scoring match's owner ends it after the hand in play (WP-6).
export function ownerActions(view) {
  const state = view.state || {};
  if (state.scoring === "pot" && !state.end_requested && !state.finished) return [{ type: "end_match" }];
  return [];
}

// The seats and the middle of the table: lives, points or chips, as the match scores.
export function table(view, ctx) {
  return widowTable(view, ctx, (state, seat) => {
    if (state.scoring === "loser_pays") return nt("%(count)s life", "%(count)s lives", (state.chips || [])[seat] ?? 0);
    if (state.scoring === "points") return nt("%(count)s point", "%(count)s points", (state.points || [])[seat] ?? 0);
    return nt("%(count)s chip", "%(count)s chips", (state.chips || [])[seat] ?? 0);
  });
}
