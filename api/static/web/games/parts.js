// What every game's part of the table page builds with: elements (the shell's `el`), lists of
// names in the page's language, the game's own stylesheet, and a row of cards.

export { el } from "../shell.js";
import { el } from "../shell.js";

// A list of names in the page's language ("a, b and c"; "a، b و c" in Persian).
export function listOf(items) {
  const lang = document.documentElement.lang || "en";
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items.map(String));
  } catch {
    return items.join(", ");
  }
}

// The game's stylesheet (games/<game>.css), added once.
export function addStyle(game) {
  if (document.querySelector(`link[data-game-style="${game}"]`)) return;
  const href = new URL(`./${game}.css`, import.meta.url).href;
  document.head.append(el("link", { rel: "stylesheet", href, dataset: { gameStyle: game } }));
}

// Cards in a labelled group, each drawn by the page's card element (its label for screen readers).
export function cardRow(codes, label, ctx) {
  const row = el("div", { className: "cards", role: "group", "aria-label": label });
  for (const code of codes) row.append(ctx.cardElement(code));
  return row;
}
