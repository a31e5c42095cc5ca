// Three wrong reads of a table that strict type-checking must refuse (the test asserts each fails,
// on its own line): a field no view has, a value of the wrong type, another game's view.
import type { components } from "./generated/schema";

type Table = components["schemas"]["Table"];

export function wrongReads(table: Table): void {
  if (table.game === "five-card-draw" && table.state) {
    const missing: number = table.state.no_such_field; // WRONG: missing field
    const cards: number = table.state.hand?.your_cards ?? 0; // WRONG: wrong type
    console.log(missing, cards);
  }
  if (table.game === "guerra" && table.state) {
    const trick = table.state.trick; // WRONG: another game's view
    console.log(trick);
  }
}
