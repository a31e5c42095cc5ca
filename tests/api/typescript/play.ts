// A client of the API as a client developer writes one: types generated from /api/schema/ by
// openapi-typescript with its default flags (generated/schema.d.ts), requests through
// openapi-fetch. It plays a whole table of each game and reads what a table screen draws from the
// typed view: no cast, no `any`. tests/api/test_typescript_client.py type-checks it strictly.
import createClient from "openapi-fetch";

import type { components, paths } from "./generated/schema";

type Schemas = components["schemas"];
export type Table = Schemas["Table"];
export type Game = Table["game"];
type LegalAction = Table["legal_actions"][number];
type Action = Schemas["Action"];

// A table of each game, as small as plays quickly: options left out take their defaults.
export const NEW_TABLES: { [G in Game]: Extract<Schemas["CreateTableRequest"], { game: G }> } = {
  euchre: { game: "euchre", seats: 4, options: { target_points: 3 }, stake: { currency: "MXN", amount: "10.00" } },
  "five-card-draw": {
    game: "five-card-draw",
    seats: 3,
    options: { format: "tournament", starting_stack: 10, forced_bets: "blinds" },
    stake: { currency: "MXN", amount: "10.00" },
  },
  guerra: { game: "guerra", seats: 3, options: { max_rounds: 30 }, stake: { currency: "MXN", amount: "10.00" } },
  "la-viuda": { game: "la-viuda", seats: 4, stake: { currency: "MXN", chip_value: "5.00" } },
  "whiskey-poker": {
    game: "whiskey-poker",
    seats: 3,
    options: { scoring: "pot", chips_per_player: 3 },
    stake: { currency: "MXN", chip_value: "2.00" },
  },
};

/** What a table screen draws, read from each game's own view once `game` has told them apart. */
export function screen(table: Table): string[] {
  switch (table.game) {
    case "five-card-draw": {
      const view = table.state;
      if (view === null) return ["waiting"];
      const hand = view.hand;
      const yours: string[] = hand?.your_cards ?? [];
      const pots: number[] = hand?.pots.map((pot) => pot.amount) ?? [view.pot];
      const stacks = view.players.map((player) => `${player.seat}: ${player.stack}${player.folded ? " folded" : ""}`);
      const shown = (view.last_hand?.showdown ?? []).map((entry) => `${entry.seat} ${entry.category_name}: ${entry.description}`);
      const won = (view.last_hand?.shares ?? []).map((share) => `${share.seat} +${share.chips}`);
      return [`cards ${yours.join(" ")}`, `pots ${pots.join("/")}`, ...stacks, ...shown, ...won];
    }
    case "euchre": {
      const view = table.state;
      if (view === null) return ["waiting"];
      const trick = view.trick.map((play) => `${play.seat}:${play.card}`);
      const tricks = view.tricks.map((taken) => taken.sentence);
      const bids = view.bids.map((bid) => `${bid.seat} ${bid.bid}`);
      const trump: string | null = view.trump;
      const scores: number[] = view.scores;
      return [`hand ${(view.hand ?? []).join(" ")}`, `trump ${trump ?? "-"}`, `trick ${trick.join(" ")}`, `scores ${scores.join("/")}`, ...bids, ...tricks];
    }
    case "guerra": {
      const view = table.state;
      if (view === null) return ["waiting"];
      const piles = view.players.map((player) => `${player.seat}: ${player.cards}${player.out ? ` out (${player.out})` : ""}`);
      const last = view.last_round;
      const round: string = last ? `${last.sentence} ${last.plays.map((play) => play.face_up ?? play.cards?.join(" ")).join(", ")}` : "";
      return [...piles, round];
    }
    case "la-viuda":
    case "whiskey-poker": {
      const view = table.state;
      if (view === null) return ["waiting"];
      const widow: string[] = view.widow ?? [];
      const shown = (view.showdown ?? []).map((entry) => `${entry.seat} ${entry.outcome}: ${entry.description} (${entry.value})`);
      const steps = (view.showdown ?? []).flatMap((entry) => entry.tie_break.map((step) => step.sentence));
      const last: number[] = view.last_showdown?.hands.map((hand) => hand.seat) ?? [];
      return [`hand ${(view.hand ?? []).join(" ")}`, `widow ${widow.join(" ")}`, `chips ${view.chips.join("/")}`, ...shown, ...steps, `shown ${last.join(",")}`];
    }
  }
}

/** The action to send for an offered one: the ranges' smallest choice, the rest as offered. */
export function chosen(legal: LegalAction, yourCards: string[]): Action {
  switch (legal.type) {
    case "bet":
    case "raise":
      return { type: legal.type, amount: legal.min };
    case "draw":
      return { type: "draw", discard: yourCards.slice(0, legal.min) };
    case "top_up":
      return { type: "top_up", chips: legal.min };
    default:
      return legal;
  }
}

const PRESENCE: ReadonlySet<string> = new Set(["sit_out", "sit_in", "leave"]);

function yourCards(table: Table): string[] {
  return table.game === "five-card-draw" ? (table.state?.hand?.your_cards ?? []) : [];
}

async function pause(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** A person registers, is funded by staff, opens a table of ``game`` with bots and plays it out. */
export async function playTable(baseUrl: string, staffToken: string, game: Game): Promise<string[]> {
  const anonymous = createClient<paths>({ baseUrl });
  const username = `ts${Date.now() % 1_000_000_000}${game.length}`;
  const registered = await anonymous.POST("/api/v1/auth/register/", {
    body: { username, password: "a long passphrase 42" },
  });
  if (!registered.data) throw new Error(`register: ${registered.error?.code}`);
  const player = createClient<paths>({ baseUrl, headers: { Authorization: `Token ${registered.data.token}` } });
  const staff = createClient<paths>({ baseUrl, headers: { Authorization: `Token ${staffToken}` } });
  const deposit = await staff.POST("/api/v1/wallets/{username}/deposits/", {
    params: { path: { username } },
    body: { currency: "MXN", amount: "1000.00" },
  });
  if (deposit.error) throw new Error(`deposit: ${deposit.error.code}`);

  const created = await player.POST("/api/v1/tables/", { body: NEW_TABLES[game] });
  if (!created.data) throw new Error(`create: ${created.error?.code}`);
  const table_id = created.data.id;
  const path = { params: { path: { table_id } } };
  await player.POST("/api/v1/tables/{table_id}/join/", { ...path, body: { seat: 0 } });
  for (let seat = 1; seat < NEW_TABLES[game].seats; seat++) {
    await player.POST("/api/v1/tables/{table_id}/bots/", { ...path, body: { seat } });
  }
  await player.POST("/api/v1/tables/{table_id}/start/", path);

  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    const { data: table } = await player.GET("/api/v1/tables/{table_id}/", path);
    if (!table) throw new Error("the table went away");
    if (table.status === "finished") return screen(table);
    const offered = table.legal_actions.filter((legal) => !PRESENCE.has(legal.type));
    const legal = offered[Math.floor(Math.random() * offered.length)];
    if (legal === undefined) {
      await pause(50);
      continue;
    }
    const answer = await player.POST("/api/v1/tables/{table_id}/actions/", {
      ...path,
      body: { action: chosen(legal, yourCards(table)), expected_version: table.version },
    });
    // 409: the table moved on (a bot, a timer); 422: a choice the rules refuse. Look again.
    if (answer.error && answer.error.status !== 409 && answer.error.status !== 422) {
      throw new Error(`act: ${answer.error.code}`);
    }
  }
  throw new Error(`the ${game} table did not finish in time`);
}
