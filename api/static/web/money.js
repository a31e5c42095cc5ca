// Money as the reader's language writes it: Intl.NumberFormat in the page's language, with as many
// decimals as the currency's exponent (the API's decimal string says it: "1050.00" has two).
import { language } from "./i18n.js";

function locale() {
  const lang = language();
  return lang === "es-mx" ? "es-MX" : lang;
}

export function exponentOf(amount) {
  const dot = String(amount).indexOf(".");
  return dot < 0 ? 0 : String(amount).length - dot - 1;
}

// money("1050.00", "MXN") -> "MXN 1,050.00" (en), "MXN 1,050.00" (es-MX), "MXN ۱٬۰۵۰٫۰۰" (fa): the
// currency's code, never a bare "$" that a right-to-left line would move to the other end.
export function money(amount, currency) {
  if (amount == null) return "";
  if (!currency) return String(amount);
  const digits = exponentOf(amount);
  return new Intl.NumberFormat(locale(), {
    style: "currency",
    currency,
    currencyDisplay: "code",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(Number(amount));
}

export function number(value, options) {
  return new Intl.NumberFormat(locale(), options).format(value);
}

export function when(moment) {
  return moment ? new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(moment)) + " UTC" : "";
}

// A span of seconds in the largest whole unit: "3 h", with Intl's own unit names.
export function duration(seconds) {
  if (seconds == null) return "";
  const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  const [unit, size] = units.find(([, size]) => seconds >= size) || units[3];
  return new Intl.NumberFormat(locale(), { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: 1 }).format(seconds / size);
}
