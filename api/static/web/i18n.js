// The UI's words, from Django's JavaScript catalogue (/jsi18n/, loaded before the modules), so
// the page speaks the language the server chose for it. Without the catalogue, English.
const catalogue = globalThis;

export function t(msgid, values) {
  const said = catalogue.gettext ? catalogue.gettext(msgid) : msgid;
  return values ? format(said, values) : said;
}

export function nt(singular, plural, count, values) {
  const said = catalogue.ngettext ? catalogue.ngettext(singular, plural, count) : count === 1 ? singular : plural;
  return format(said, { count, ...(values || {}) });
}

// %(name)s placeholders, as Django's interpolate() with named values; a number in the page's
// own digits (Persian digits on a Persian page), never a mix of Latin and local ones.
function format(text, values) {
  return text.replace(/%\((\w+)\)s/g, (whole, name) => {
    if (!(name in values)) return whole;
    const value = values[name];
    return typeof value === "number" ? localNumber(value) : String(value);
  });
}

let numbers = null;
function localNumber(value) {
  if (!numbers) {
    try {
      numbers = new Intl.NumberFormat(language());
    } catch {
      numbers = new Intl.NumberFormat("en");
    }
  }
  return numbers.format(value);
}

export function language() {
  return document.documentElement.lang || "en";
}
