// The page's words in the reader's language. Loaded before the page's other scripts.
//
// Every text the page shows goes through one of these, with the English text as the key
// (gettext's msgid, extracted from the .js files by pybabel):
//   _("Undo")                                   a text
//   _("Score {score}", { score: 498 })          {name} placeholders filled from the object
//   ngettext("{n} move", "{n} moves", n)        a text with a number: the language's plural
//                                               ({n}: n written in the language's digits)
//   pgettext("verb", "draw")                    the same English words meaning another thing
// Texts of index.html: an element with `data-i18n` shows its text translated (its whole
// text is the key, white space runs as one space; no child elements), and
// `data-i18n-attrs="title aria-label"` names its attributes whose values are keys;
// `data-i18n-context="button"` gives the element's keys (its text and those attributes)
// a context, as pgettext("button", "Start") does: the same English, another word
// ("Start" the field's label, Slovak "Začiatok"; "Start" the button, "Začať").
// Only literal strings may be the key (pybabel reads them): never a template or a variable.
// Numbers shown to the reader go through fmtNumber / fmtPercent (the language's digits).
//
// The catalog comes from the server (in the page, or /api/messages: the same compiled
// catalogs as the terminal's texts), in the language the request speaks: the address's
// ?lang= (kept in the cookie from then on), the `lang` cookie, the server's --lang, the
// browser's Accept-Language. The languages are the server's (FACTS.languages, facts.js):
// the header's `.lang-switch` gets a button for each, `data-lang` its code; a click keeps
// the choice in the cookie and shows the page again in that language.
"use strict";

// `lang`: the catalog's (before it, and without it, the language of the keys: the
// server's first, FACTS.languages[0])
const I18N = { lang: undefined, messages: {}, pluralIndex: (n) => (n === 1 ? 0 : 1) };
const LANG_COOKIE = "lang";
function languageCodes() { return (FACTS.languages || []).map((l) => l.code); }

function fillIn(text, vars) {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in vars ? String(vars[key]) : whole));
}
function _(msgid, vars) {
  const found = I18N.messages[msgid];
  return fillIn(typeof found === "string" && found ? found : msgid, vars);
}
function pgettext(context, msgid, vars) {
  const found = I18N.messages[`${context}\u0004${msgid}`];
  return fillIn(typeof found === "string" && found ? found : msgid, vars);
}
function ngettext(singular, plural, n, vars) {
  const forms = I18N.messages[singular];
  const all = { n: fmtNumber(n), ...(vars || {}) };
  if (Array.isArray(forms)) {
    const form = forms[I18N.pluralIndex(n)];
    if (form) return fillIn(form, all);
  }
  return fillIn(n === 1 ? singular : plural, all);
}
function fmtNumber(n) {
  return new Intl.NumberFormat(I18N.lang).format(n);
}
function fmtPercent(share, digits = 0) {
  return new Intl.NumberFormat(I18N.lang, { style: "percent", maximumFractionDigits: digits,
    minimumFractionDigits: digits }).format(share);
}

// A catalog's plural rule (gettext's Plural-Forms: a C expression in n, such as
// "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2") as a function of n, parsed here: the page's
// Content-Security-Policy forbids eval, and a rule is data, never code.
function pluralRule(expr) {
  const tokens = [];
  const pattern = /\s*(\d+|n|==|!=|<=|>=|&&|\|\||[-+*/%<>!?:()])/y;
  let at = 0;
  while (at < expr.length) {
    if (/^\s*$/.test(expr.slice(at))) break;
    pattern.lastIndex = at;
    const m = pattern.exec(expr);
    if (!m) throw new SyntaxError(`plural rule: unexpected ${expr.slice(at)}`);
    tokens.push(m[1]);
    at = pattern.lastIndex;
  }
  let i = 0;
  const peek = () => tokens[i];
  const take = (want) => {
    if (tokens[i] !== want) throw new SyntaxError(`plural rule: ${want} expected`);
    i += 1;
  };
  const binary = (next, ops) => () => {
    let left = next();
    while (ops[peek()]) {
      const op = ops[tokens[i++]];
      const a = left;
      const b = next();
      left = (n) => op(a(n), b(n));
    }
    return left;
  };
  const num = (x) => Number(x);
  const primary = () => {
    const t = tokens[i++];
    if (t === "n") return (n) => n;
    if (t !== undefined && /^\d+$/.test(t)) { const v = Number(t); return () => v; }
    if (t === "(") { const e = ternary(); take(")"); return e; }
    if (t === "!") { const e = primary(); return (n) => num(!e(n)); }
    if (t === "-") { const e = primary(); return (n) => -e(n); }
    throw new SyntaxError(`plural rule: unexpected ${t}`);
  };
  const mul = binary(primary, { "*": (a, b) => a * b, "/": (a, b) => Math.trunc(a / b),
    "%": (a, b) => a % b });
  const add = binary(mul, { "+": (a, b) => a + b, "-": (a, b) => a - b });
  const rel = binary(add, { "<": (a, b) => num(a < b), ">": (a, b) => num(a > b),
    "<=": (a, b) => num(a <= b), ">=": (a, b) => num(a >= b) });
  const eq = binary(rel, { "==": (a, b) => num(a === b), "!=": (a, b) => num(a !== b) });
  const and = binary(eq, { "&&": (a, b) => num(Boolean(a && b)) });
  const or = binary(and, { "||": (a, b) => num(Boolean(a || b)) });
  function ternary() {
    const test = or();
    if (peek() !== "?") return test;
    i += 1;
    const yes = ternary();
    take(":");
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  }
  const rule = ternary();
  if (i !== tokens.length) throw new SyntaxError(`plural rule: unexpected ${tokens[i]}`);
  return (n) => Number(rule(n));
}

// The texts of the page itself (index.html), translated in place.
function translatePage(root = document) {
  const say = (node, key) => {
    const context = node.dataset.i18nContext;
    return context ? pgettext(context, key) : _(key);
  };
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (node.dataset.i18nKey === undefined) node.dataset.i18nKey = squeeze(node.textContent);
    node.textContent = say(node, node.dataset.i18nKey);
  }
  for (const node of root.querySelectorAll("[data-i18n-attrs]")) {
    for (const attr of node.dataset.i18nAttrs.split(/\s+/).filter(Boolean)) {
      const keep = `i18nKey${attr.replace(/(^|-)(\w)/g, (m, d, c) => c.toUpperCase())}`;
      if (node.dataset[keep] === undefined) node.dataset[keep] = squeeze(node.getAttribute(attr) || "");
      node.setAttribute(attr, say(node, node.dataset[keep]));
    }
  }
  for (const node of root.querySelectorAll("[data-lang]")) {
    node.setAttribute("aria-pressed", String(node.dataset.lang === I18N.lang));
  }
}
function squeeze(text) {
  return text.replace(/\s+/g, " ").trim();
}

// The catalog of the language this page speaks, then the page's own texts translated.
// The server puts it in the page (<script type="application/json" id="i18n-catalog">):
// the words are there from the first paint; without it, it is asked for (/api/messages);
// without that either (the server unreachable), the page speaks English, the keys.
function useCatalog(catalog) {
  I18N.pluralIndex = catalog.nplurals > 1 ? pluralRule(catalog.plural) : () => 0;
  I18N.messages = catalog.messages;
  I18N.lang = catalog.lang;
}
async function loadMessages() {
  const inPage = document.getElementById("i18n-catalog");
  const asked = new URLSearchParams(window.location.search).get("lang");
  // An address's ?lang= is a choice too: kept, so that the links it follows and the
  // server's answers (errors, advice) speak it as well.
  if (languageCodes().includes(asked)) keepLanguage(asked);
  try {
    if (inPage) {
      useCatalog(JSON.parse(inPage.textContent));
    } else {
      const query = languageCodes().includes(asked) ? `?lang=${asked}` : "";
      const response = await fetch(`/api/messages${query}`, { headers: { Accept: "application/json" } });
      if (response.ok) useCatalog(await response.json());
    }
  } catch (err) {
    console.error("the page's words could not be loaded:", err);
  }
  if (!I18N.lang) I18N.lang = languageCodes()[0];
  if (I18N.lang) document.documentElement.lang = I18N.lang;
  languageSwitch();
  translatePage();
}
// The switch: a button for each language, named in its own words.
function languageSwitch() {
  for (const box of document.querySelectorAll(".lang-switch")) {
    box.replaceChildren(...(FACTS.languages || []).map(({ code, name }) => {
      const b = document.createElement("button");
      Object.assign(b, { type: "button", lang: code, title: name, textContent: code.toUpperCase() });
      b.dataset.lang = code;
      b.setAttribute("aria-label", name);
      return b;
    }));
  }
}

// The switch: the choice kept a year in the cookie the server reads, then the page shown
// again (an address's ?lang= would outweigh the cookie: it is dropped).
function keepLanguage(lang) {
  document.cookie = `${LANG_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Strict`;
}
function chooseLanguage(lang) {
  if (!languageCodes().includes(lang)) return;
  keepLanguage(lang);
  const url = new URL(window.location.href);
  url.searchParams.delete("lang");
  window.location.replace(url.href);
}
document.addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target.closest("[data-lang]") : null;
  if (!target) return;
  event.preventDefault();
  chooseLanguage(target.dataset.lang);
});
