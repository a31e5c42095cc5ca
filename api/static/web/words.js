// Words for the machine codes the page shows when a game module does not: actions' types and
// showdown outcomes. The codes themselves never change; an unknown one is shown as it is.
import { t } from "./i18n.js";

const WORDS = {
  // actions
  sit_out: () => t("Sit out"),
  sit_in: () => t("Sit in"),
  leave: () => t("Leave the table"),
  pass: () => t("Pass"),
  knock: () => t("Knock"),
  fold: () => t("Fold"),
  check: () => t("Check"),
  call: () => t("Call"),
  bet: () => t("Bet"),
  raise: () => t("Raise"),
  all_in: () => t("All in"),
  draw: () => t("Draw"),
  play: () => t("Play"),
  discard: () => t("Discard"),
  end_table: () => t("End the table"),
  end_match: () => t("End the match"),
  // outcomes
  safe: () => t("safe"),
  pays: () => t("pays"),
  wins: () => t("wins"),
  loses: () => t("loses"),
  returned: () => t("gets an uncalled bet back"),
  out: () => t("out"),
  splits: () => t("splits"),
  // showdown categories a game's audit names without words of its own (Euchre's sides)
  makers: () => t("makers"),
  defenders: () => t("defenders"),
  "sitting out": () => t("sitting out"),
};

export function word(code) {
  return WORDS[code] ? WORDS[code]() : code;
}
