// The lobby: sign up / in / out, the wallet, the games with their options, the open tables, and
// the form that opens a table.
import * as api from "./api.js";
import { language, t } from "./i18n.js";
import { moneyOf, number } from "./numbers.js";
import { app, attempt, el, formValues, refreshWho, section } from "./shell.js";

function credentialsForm(id, heading, submit, onDone) {
  const form = el(
    "form",
    { id, className: "card-box" },
    el("h2", {}, heading),
    el("label", {}, t("Username"), el("input", { name: "username", autocomplete: "username", required: true })),
    el(
      "label",
      {},
      t("Password"),
      el("input", { name: "password", type: "password", autocomplete: id === "signup" ? "new-password" : "current-password", required: true }),
    ),
    id === "signup"
      ? el("label", {}, t("Email address (optional: to reset a forgotten password)"), el("input", { name: "email", type: "email", autocomplete: "email" }))
      : null,
    el("button", { type: "submit" }, submit),
    id === "signin" ? el("a", { href: "#/forgot", id: "forgot-link" }, t("Forgot your password?")) : null,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => {
      const { username, password, email } = formValues(form);
      await onDone(username, password, email);
      await refreshWho();
      // A person who chose a language before reads the page in it from now on.
      const chosen = (await api.get("me/language/")).language;
      if (chosen && chosen !== language()) {
        const url = new URL(location.href);
        url.searchParams.set("lang", chosen);
        url.hash = "#/";
        location.replace(url.toString());
        return;
      }
      location.hash = "#/";
      await showLobby(document.getElementById("main"));
    });
  });
  return form;
}

function walletSection(wallets) {
  const list = el("ul", {});
  for (const wallet of wallets) {
    list.append(el("li", { dataset: { currency: wallet.currency } }, moneyOf(wallet.balance, wallet.currency)));
  }
  if (!wallets.length) list.append(el("li", {}, t("No money yet.")));
  return section("wallet", t("Your wallet"), list, el("a", { href: "#/wallet", id: "wallet-page-link" }, t("Movements and payouts")));
}

function optionControl(option, prefix) {
  const name = option.name;
  const id = `${prefix}-${name}`;
  let control;
  if (option.type === "bool") {
    control = el("input", { type: "checkbox", name, id, checked: option.default === true });
  } else if (option.type === "choice") {
    control = el("select", { name, id }, (option.choices || []).map((choice) =>
      el("option", { value: choice, selected: choice === option.default }, (option.choice_labels || {})[choice] || choice),
    ));
  } else if (option.type === "int") {
    control = el("input", { type: "number", name, id, min: option.min, max: option.max, value: option.default ?? "" });
  } else {
    control = el("input", { name, id, value: option.default ?? "" });
  }
  const help = option.help ? el("small", { id: id + "-help" }, option.help) : null;
  if (help) control.setAttribute("aria-describedby", help.id);
  return el("div", { className: "option", dataset: { option: name } }, el("label", { for: id }, option.label || name), control, help);
}

function gamesSection(games) {
  const list = el("div", { className: "games" });
  for (const game of games) {
    list.append(
      el(
        "article",
        { dataset: { game: game.slug } },
        el("h3", {}, game.name),
        el("p", {}, t("%(min)s to %(max)s players", { min: game.players.min, max: game.players.max })),
        game.options.length
          ? el("ul", {}, game.options.map((option) => el("li", {}, el("strong", {}, option.label || option.name), " ", option.help || "")))
          : null,
        game.refused_combinations.length
          ? el("details", {}, el("summary", {}, t("Refused combinations:")), el("ul", {}, game.refused_combinations.map((text) => el("li", {}, text))))
          : null,
      ),
    );
  }
  return section("games", t("Games"), list);
}

function createForm(games) {
  const optionsBox = el("fieldset", { className: "options" });
  const select = el("select", { name: "game", id: "create-game" }, games.map((game) => el("option", { value: game.slug }, game.name)));
  const seats = el("input", { type: "number", name: "seats", id: "create-seats", min: 2 });
  const stakeBox = el(
    "fieldset",
    { className: "stake" },
    el("legend", {}, t("Money (leave the currency empty for a table without money)")),
    el("label", {}, t("Currency"), el("input", { name: "currency", placeholder: "MXN", maxlength: 3 })),
    el("label", {}, t("Chip value"), el("input", { name: "chip_value", inputmode: "decimal", placeholder: "5.00" })),
    el("label", {}, t("Stake"), el("input", { name: "amount", inputmode: "decimal", placeholder: "10.00" })),
  );
  const refused = el("ul", { className: "refused" });
  const fill = () => {
    const game = games.find((g) => g.slug === select.value);
    seats.min = game.players.min;
    seats.max = game.players.max;
    seats.value = game.players.max;
    optionsBox.replaceChildren(el("legend", {}, t("Options")), ...game.options.map((option) => optionControl(option, "create")));
    refused.replaceChildren(...game.refused_combinations.map((text) => el("li", {}, text)));
  };
  select.addEventListener("change", fill);
  const form = el(
    "form",
    { id: "create-table" },
    el("label", { for: "create-game" }, t("Game")),
    select,
    el("label", { for: "create-seats" }, t("Seats")),
    seats,
    optionsBox,
    el("details", {}, el("summary", {}, t("Refused combinations:")), refused),
    stakeBox,
    el("button", { type: "submit" }, t("Open the table")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => {
      const game = games.find((g) => g.slug === select.value);
      const values = formValues(form);
      const options = {};
      for (const option of game.options) {
        // Only what differs from the default: some options may not be given at all with others
        // (the game's refused combinations), and a default is what the server would choose anyway.
        const value = values[option.name];
        if (value !== null && value !== "" && value !== option.default) options[option.name] = value;
      }
      const body = { game: game.slug, seats: values.seats, options };
      if (values.currency) {
        body.stake = { currency: values.currency.toUpperCase() };
        if (values.chip_value) body.stake.chip_value = values.chip_value;
        if (values.amount) body.stake.amount = values.amount;
      }
      const table = await api.post("tables/", body, { key: crypto.randomUUID() });
      location.hash = `#/tables/${table.id}`;
    });
  });
  fill();
  return section("create", t("Open a table"), form);
}

// A table's status in words; the code stays in the list item's data-status.
function statusWords(status) {
  if (status === "open") return t("waiting for players");
  if (status === "running") return t("in play");
  if (status === "finished") return t("over");
  return t("unknown state");
}

function tablesSection(tables, games) {
  // A table names its game by slug; players read the game's name from the games list.
  const names = Object.fromEntries(games.map((game) => [game.slug, game.name]));
  const list = el("ul", {});
  for (const table of tables) {
    list.append(
      el(
        "li",
        { dataset: { status: table.status } },
        el("a", { href: `#/tables/${table.id}`, dataset: { table: table.id } }, names[table.game] || table.game),
        " ",
        t("%(seats)s seats, owner %(owner)s, %(status)s", { seats: number(table.seats), owner: table.owner, status: statusWords(table.status) }),
        table.currency ? ` (${table.currency})` : "",
      ),
    );
  }
  if (!tables.length) list.append(el("li", {}, t("No open tables.")));
  return section("open-tables", t("Open tables"), list);
}

export async function showLobby(main) {
  const gamesPromise = api.get("games/");
  const parts = [];
  if (app.username) {
    const [wallets, tables] = await Promise.all([api.get("wallets/me/"), api.get("tables/")]);
    const signOut = el("button", { type: "button", id: "signout" }, t("Sign out"));
    signOut.addEventListener("click", () =>
      attempt(async () => {
        await api.signOut();
        await refreshWho();
        await showLobby(main);
      }),
    );
    const games = await gamesPromise;
    parts.push(signOut, walletSection(wallets.wallets), tablesSection(tables.results || [], games), createForm(games), gamesSection(games));
  } else {
    const games = await gamesPromise;
    parts.push(
      el(
        "div",
        { className: "doors" },
        credentialsForm("signup", t("Sign up"), t("Create my account"), api.signUp),
        credentialsForm("signin", t("Sign in"), t("Sign in"), api.signIn),
      ),
      gamesSection(games),
    );
  }
  main.replaceChildren(el("h1", {}, t("Lobby")), ...parts);
}
