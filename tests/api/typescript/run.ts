// Plays one table of GAME against BASE_URL with play.ts, funded by STAFF_TOKEN's account, and
// prints the finished table's screen, one line each (tests/api/test_typescript_client.py runs it).
import { type Game, NEW_TABLES, playTable } from "./play.js";

const game = process.env.GAME ?? "";
const baseUrl = process.env.BASE_URL ?? "";
const staffToken = process.env.STAFF_TOKEN ?? "";

function isGame(name: string): name is Game {
  return Object.keys(NEW_TABLES).includes(name);
}

if (!isGame(game)) throw new Error(`no such game: ${game}`);
const lines = await playTable(baseUrl, staffToken, game);
console.log(lines.join("\n"));
