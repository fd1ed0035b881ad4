// The page's words in the reader's language. Loaded before cards.js and app.js.
//
// Every text the page shows goes through one of these, with the English text as the key
// (gettext's msgid, extracted from the .js files by pybabel):
//   _("Undo")                                   a text
//   _("Score {score}", { score: 498 })          {name} placeholders filled from the object
//   ngettext("{n} move", "{n} moves", n, { n }) a text with a number: the language's plural
//   pgettext("verb", "draw")                    the same English words meaning another thing
// Texts of index.html: an element with `data-i18n` shows its text translated (its whole
// text is the key; no child elements), and `data-i18n-attrs="title aria-label"` names its
// attributes whose values are keys.
// Only literal strings may be the key (pybabel reads them): never a template or a variable.
// Numbers shown to the reader go through fmtNumber / fmtPercent (the language's digits).
"use strict";

const I18N = { lang: "en", messages: {}, pluralIndex: (n) => (n === 1 ? 0 : 1) };

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
  const all = { n, ...(vars || {}) };
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
// The texts of the page itself (index.html), translated in place.
function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (node.dataset.i18nKey === undefined) node.dataset.i18nKey = node.textContent.trim();
    node.textContent = _(node.dataset.i18nKey);
  }
  for (const node of root.querySelectorAll("[data-i18n-attrs]")) {
    for (const attr of node.dataset.i18nAttrs.split(/\s+/).filter(Boolean)) {
      const keep = `i18nKey${attr.replace(/(^|-)(\w)/g, (m, d, c) => c.toUpperCase())}`;
      if (node.dataset[keep] === undefined) node.dataset[keep] = node.getAttribute(attr) || "";
      node.setAttribute(attr, _(node.dataset[keep]));
    }
  }
}
// The catalog of the chosen language: to be served by the server (issue: languages).
// Until then the page speaks English, the keys themselves.
async function loadMessages() {
  translatePage();
}
