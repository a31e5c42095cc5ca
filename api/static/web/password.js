// A forgotten password: ask for a link by mail (#/forgot), then choose a new password from the
// link's page (#/reset/<uid>/<token>, the mailed link). The token stays in the address's fragment,
// which the browser never sends to a server.
import * as api from "./api.js";
import { t } from "./i18n.js";
import { attempt, el, formValues, section } from "./shell.js";

function said(form, words) {
  const note = el("p", { className: "notice", role: "status" }, words);
  form.replaceWith(note);
}

export function showForgot(main) {
  const form = el(
    "form",
    { id: "forgot", className: "card-box" },
    el("p", {}, t("Give the address your account was registered with: a link to choose a new password will be mailed to it.")),
    el("label", {}, t("Email address"), el("input", { name: "email", type: "email", autocomplete: "email", required: true })),
    el("button", { type: "submit" }, t("Mail me a link")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => {
      const answer = await api.post("auth/password-reset/", formValues(form));
      said(form, answer.detail);
    });
  });
  main.replaceChildren(el("h1", {}, t("Forgot your password?")), section("password-reset", t("A link by mail"), form));
}

export function showReset(main, uid, token) {
  const form = el(
    "form",
    { id: "reset", className: "card-box" },
    el("label", {}, t("New password"), el("input", { name: "new_password", type: "password", autocomplete: "new-password", minlength: 8, required: true })),
    el("button", { type: "submit" }, t("Set my new password")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => {
      await api.post("auth/password-reset/confirm/", { uid, token, new_password: formValues(form).new_password });
      said(form, t("Your password is changed, and every device signed in with the old one is signed out. Sign in with the new one."));
      history.replaceState(null, "", "#/"); // the used link leaves the address bar
    });
  });
  main.replaceChildren(el("h1", {}, t("Choose a new password")), section("password-new", t("New password"), form));
}
