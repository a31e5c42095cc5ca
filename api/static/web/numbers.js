// Numbers and money in the page's language: locale digits (Persian digits on a Persian page) and
// a currency's own exponent (JPY has none, KWD three), through Intl.NumberFormat; never
// `(minor / 100).toFixed(2)`.

function lang() {
  return document.documentElement.lang || "en";
}

const formats = new Map();
function format(key, options) {
  if (!formats.has(key)) {
    try {
      formats.set(key, new Intl.NumberFormat(lang(), options));
    } catch {
      formats.set(key, new Intl.NumberFormat("en", options));
    }
  }
  return formats.get(key);
}

// The currency's minor-unit exponent (2 for MXN, 0 for JPY, 3 for KWD), as ISO 4217 says.
export function exponent(currency) {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits;
  } catch {
    return 2;
  }
}

// An integer or a decimal as the page's language writes it: 1234 → "1,234", "۱٬۲۳۴" in Persian;
// ``options`` as Intl.NumberFormat takes them (a share as a percent, say).
export function number(value, options = {}) {
  return format(`number:${JSON.stringify(options)}`, options).format(value);
}

// An amount in minor units as money: 1050 MXN → "MX$10.50", "‎MX$۱۰٫۵۰" in Persian.
// An amount is a left-to-right isolate (U+2066 … U+2069), so "MX$1.00" keeps its sign and digits
// together in a Persian sentence instead of reading "$MX".
export function money(minor, currency) {
  if (minor == null || !currency) return "";
  const places = exponent(currency);
  return `\u2066${format(`money:${currency}`, { style: "currency", currency, minimumFractionDigits: places, maximumFractionDigits: places }).format(minor / 10 ** places)}\u2069`;
}

// A decimal string of the API ("10.50") as money in the page's language.
export function moneyOf(decimal, currency) {
  if (decimal == null || !currency) return "";
  return money(Math.round(Number(decimal) * 10 ** exponent(currency)), currency);
}

// A signed amount: "+MX$2.00", "−MX$1.00".
export function signedMoney(minor, currency) {
  if (minor == null || !currency) return "";
  const places = exponent(currency);
  return `\u2066${format(`signed:${currency}`, { style: "currency", currency, signDisplay: "exceptZero", minimumFractionDigits: places, maximumFractionDigits: places }).format(minor / 10 ** places)}\u2069`;
}

// A moment of the API (RFC 3339, UTC) as the page's language writes a date and time, in UTC.
export function when(moment) {
  if (!moment) return "";
  return `${new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(moment))} UTC`;
}

// A span of seconds in the largest whole unit: "3 h", with Intl's own unit names.
export function duration(seconds) {
  if (seconds == null) return "";
  const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  const [unit, size] = units.find(([, size]) => seconds >= size) || units[3];
  return format(`unit:${unit}`, { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: 1 }).format(seconds / size);
}
