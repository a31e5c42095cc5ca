// An event of the events API (and of the stream) as a line of #events: the server's sentence for
// it, asked for with `sentences=true` (docs/api.md, "Sentences"), drawn as it comes: each text part
// as text (never markup), each row of cards as card elements. The server writes every game's
// sentences once (games/engine/sentences.py and each game's sentences module), in the reader's
// language, from the event as the viewer is served it: no hidden card can reach a line. An event
// without a sentence (an older server) reads "<player> acts", never its machine name.
//
// ctx: {t, cardElement, playerName(seat)}.

import { number } from "./numbers.js";

// Cards as a row of card elements (each named for screen readers).
function cards(codes, ctx) {
  const row = document.createElement("span");
  row.className = "cards";
  codes.forEach((code, index) => {
    if (index) row.append(" ");
    row.append(ctx.cardElement(String(code)));
  });
  return row;
}

function isSeat(value) {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

// Without the server's sentence: the event's player acts (the seat it is about, else the seat that
// acted, else the actor's name), or something happens at the table.
function generic(event, ctx) {
  const data = event.data || {};
  const seat = isSeat(data.seat) ? data.seat : isSeat(event.actor_seat) ? event.actor_seat : null;
  const player = seat != null ? ctx.playerName(seat) : event.actor || null;
  return player != null ? [ctx.t("%(player)s acts", { player })] : [ctx.t("Something happens at the table")];
}

// The sentence of an event: text and card elements, in order.
export function eventSentence(event, ctx) {
  const sentence = event.sentence;
  if (!sentence || !Array.isArray(sentence.parts)) return generic(event, ctx);
  const parts = sentence.parts
    .map((part) => (Array.isArray(part.cards) ? cards(part.cards, ctx) : typeof part.text === "string" ? part.text : ""))
    .filter((part) => part !== "");
  return parts.length ? parts : generic(event, ctx);
}

// The event as a line of #events: <li data-seq data-type>#12 Ana knocks</li>.
export function eventLine(event, ctx) {
  const line = document.createElement("li");
  line.dataset.seq = event.seq;
  line.dataset.type = event.type;
  line.append(`#${number(event.seq, { useGrouping: false })} `, ...eventSentence(event, ctx));
  return line;
}
