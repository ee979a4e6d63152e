#!/usr/bin/env node
// Checks the web app's locale files: every key in all three (nested keys compared), the same
// {{placeholders}} in each translation, and every t('…') key used in apps/web/src present.
// Plain Node, no dependencies. Exits 1 with a list of problems, or prints one OK line.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const localeDir = path.join(root, 'apps/web/src/locales');
const srcDir = path.join(root, 'apps/web/src');
const LOCALES = ['zh-CN', 'zh-TW', 'en'];

const problems = [];

/** { a: { b: 'x' } } → Map { 'a.b' => 'x' }; non-string leaves are reported. */
function flatten(value, prefix, out, file) {
  for (const [key, child] of Object.entries(value)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (child !== null && typeof child === 'object' && !Array.isArray(child)) flatten(child, full, out, file);
    else if (typeof child === 'string') out.set(full, child);
    else problems.push(`${file}: "${full}" is not a string`);
  }
  return out;
}

// Each locale is two files: the shell's and login's texts (loaded at start) and the feature
// pages' texts (loaded with the first of those pages); together they form one key space.
const files = new Map();
for (const locale of LOCALES) {
  const merged = new Map();
  for (const file of [`${locale}.json`, `${locale}.features.json`]) {
    try {
      const before = merged.size;
      const flat = flatten(JSON.parse(readFileSync(path.join(localeDir, file), 'utf8')), '', new Map(), file);
      for (const [key, value] of flat) merged.set(key, value);
      if (merged.size !== before + flat.size) problems.push(`${file}: repeats keys of the other ${locale} file`);
    } catch (error) {
      problems.push(`${file}: cannot be read as JSON (${error.message})`);
    }
  }
  files.set(locale, merged);
}

// Plural forms (i18next's `key_one`, `key_other`…, chosen by Intl.PluralRules from `count`): each
// language has at least the forms its plural rules use (English one and other, Chinese other).
// All three carry the same keys (the web's types take the English file's shape), so a Chinese file
// repeats `_other` as `_one`, which i18next never picks for Chinese.
const PLURAL_FORM = /_(zero|one|two|few|many|other)$/;
const pluralBase = (key) => key.replace(PLURAL_FORM, '');

const allKeys = new Set([...files.values()].flatMap((map) => [...map.keys()]));
const pluralBases = new Set([...allKeys].filter((key) => PLURAL_FORM.test(key)).map(pluralBase));
for (const [locale, map] of files) {
  for (const key of [...allKeys].sort()) {
    if (!map.has(key)) problems.push(`${locale}: missing key "${key}"`);
  }
  for (const base of [...pluralBases].sort()) {
    for (const form of new Intl.PluralRules(locale).resolvedOptions().pluralCategories) {
      if (!map.has(`${base}_${form}`)) problems.push(`${locale}: missing plural form "${base}_${form}"`);
    }
  }
}

const placeholders = (text) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',');
for (const key of allKeys) {
  const seen = new Map();
  // Every plural form of a key, in every language, has the same placeholders as its `_other`.
  const family = PLURAL_FORM.test(key) ? [...allKeys].filter((other) => pluralBase(other) === pluralBase(key)) : [key];
  for (const [locale, map] of files) {
    for (const member of family) if (map.has(member)) seen.set(`${locale} ${member}`, placeholders(map.get(member)));
  }
  if (new Set(seen.values()).size > 1) {
    const detail = [...seen].map(([locale, names]) => `${locale}: {${names}}`).join(', ');
    problems.push(`"${key}" has different placeholders (${detail})`);
  }
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

// t('key'), t("key"), t(`key`) — and for t(`prefix.${x}`) the static prefix must name a group.
const CALL = /(?<![\w$])t\(\s*(['"`])((?:(?!\1)[^\\\n])*)\1/g;
const reference = new Set(files.get('en')?.keys() ?? []);
let used = 0;
for (const file of sourceFiles(srcDir)) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(CALL)) {
    const [, quote, key] = match;
    const where = `${path.relative(root, file)}:${text.slice(0, match.index).split('\n').length}`;
    if (quote === '`' && key.includes('${')) {
      const prefix = key.slice(0, key.indexOf('${'));
      if (prefix && ![...reference].some((k) => k.startsWith(prefix))) {
        problems.push(`${where}: no key starts with "${prefix}" (from t(\`${key}\`))`);
      }
      continue;
    }
    used++;
    const present = (map) => map.has(key) || map.has(`${key}_other`);
    if (![...files.values()].some(present)) {
      problems.push(`${where}: t('${key}') is not in any locale file`);
    }
  }
}

if (problems.length > 0) {
  console.error(`check-locales: ${problems.length} problem(s)`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log(`check-locales: OK (${allKeys.size} keys in ${LOCALES.join(', ')}; ${used} t() calls checked)`);
