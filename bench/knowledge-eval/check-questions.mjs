// Checks the retrieval evaluation set before anyone measures with it: every answer must literally
// occur in its document, or a "miss" would be the data's fault rather than the retriever's.
// Usage: node bench/knowledge-eval/check-questions.mjs   (exits 1 on any error; warnings do not fail)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIN_DOCUMENTS = 34;
const MIN_QUESTIONS_PER_LANG = 32;
const MIN_QUESTIONS = 64;
const DOC_CHARS = [600, 2500];
const ANSWER_CHARS = [5, 30];

const here = dirname(fileURLToPath(import.meta.url));
const documentsDir = join(here, 'documents');
const errors = [];
const warnings = [];

// Lengths in code points, so a Chinese character counts once, as a reader would count it.
const length = (text) => Array.from(text).length;
const cjkCount = (text) => (text.match(/\p{Script=Han}/gu) ?? []).length;
// A document is Chinese when Han characters dominate its letters (English docs cite a few Chinese titles).
const languageOf = (text) => (cjkCount(text) > (text.match(/[A-Za-z]/g) ?? []).length ? 'zh' : 'en');

const documents = new Map();
for (const name of readdirSync(documentsDir).sort()) {
  if (!/\.(md|txt)$/.test(name)) {
    errors.push(`documents/${name}: only .md and .txt files belong here`);
    continue;
  }
  const text = readFileSync(join(documentsDir, name), 'utf8');
  const chars = length(text);
  if (chars < DOC_CHARS[0] || chars > DOC_CHARS[1]) {
    errors.push(`${name}: ${chars} characters, expected ${DOC_CHARS[0]}–${DOC_CHARS[1]}`);
  }
  const title = text.split('\n', 1)[0].trim();
  if (title === '' || (name.endsWith('.md') && !title.startsWith('# '))) {
    errors.push(`${name}: the first line must be a title ("# ..." in Markdown)`);
  }
  documents.set(name, { text, lang: languageOf(text), questions: 0 });
}

const questions = JSON.parse(readFileSync(join(here, 'questions.json'), 'utf8'));
if (!Array.isArray(questions)) throw new Error('questions.json must be a JSON array');
const seenIds = new Set();
const perLang = { zh: 0, en: 0 };
for (const [index, q] of questions.entries()) {
  const where = `question ${q?.id ?? `#${index}`}`;
  if (typeof q?.id !== 'string' || !/^q\d+$/.test(q.id)) errors.push(`${where}: id must look like q001`);
  else if (seenIds.has(q.id)) errors.push(`${where}: duplicate id`);
  seenIds.add(q?.id);
  if (q.lang !== 'zh' && q.lang !== 'en') {
    errors.push(`${where}: lang must be "zh" or "en"`);
    continue;
  }
  perLang[q.lang] += 1;
  if (typeof q.question !== 'string' || q.question.trim() === '') errors.push(`${where}: empty question`);
  else if (cjkCount(q.question) > 0 !== (q.lang === 'zh')) errors.push(`${where}: question text is not in ${q.lang}`);
  const doc = documents.get(q.document);
  if (!doc) {
    errors.push(`${where}: unknown document ${q.document}`);
    continue;
  }
  doc.questions += 1;
  if (doc.lang !== q.lang) errors.push(`${where}: lang ${q.lang} but ${q.document} is ${doc.lang}`);
  const answer = q.answer_contains;
  if (typeof answer !== 'string') {
    errors.push(`${where}: answer_contains must be a string`);
    continue;
  }
  const chars = length(answer);
  if (chars < ANSWER_CHARS[0] || chars > ANSWER_CHARS[1]) {
    errors.push(`${where}: answer_contains has ${chars} characters, expected ${ANSWER_CHARS[0]}–${ANSWER_CHARS[1]}`);
  }
  // A substring across lines could be split by any chunker, making the question unanswerable.
  if (/\n/.test(answer)) errors.push(`${where}: answer_contains spans a line break`);
  const occurrences = doc.text.split(answer).length - 1;
  if (occurrences === 0) errors.push(`${where}: "${answer}" does not occur in ${q.document}`);
  else if (occurrences > 1) warnings.push(`${where}: "${answer}" occurs ${occurrences} times in ${q.document}`);
  if (/[。！？]|\. /.test(answer)) warnings.push(`${where}: "${answer}" crosses a sentence boundary`);
}

const docsPerLang = { zh: 0, en: 0 };
for (const [name, doc] of documents) {
  docsPerLang[doc.lang] += 1;
  if (doc.questions === 0) errors.push(`${name}: no question refers to this document`);
}
if (documents.size < MIN_DOCUMENTS) errors.push(`${documents.size} documents, expected at least ${MIN_DOCUMENTS}`);
for (const lang of ['zh', 'en']) {
  if (perLang[lang] < MIN_QUESTIONS_PER_LANG) {
    errors.push(`${perLang[lang]} ${lang} questions, expected at least ${MIN_QUESTIONS_PER_LANG}`);
  }
}
if (questions.length < MIN_QUESTIONS) errors.push(`${questions.length} questions, expected at least ${MIN_QUESTIONS}`);

console.log(`documents: ${documents.size} (zh ${docsPerLang.zh}, en ${docsPerLang.en})`);
console.log(`questions: ${questions.length} (zh ${perLang.zh}, en ${perLang.en})`);
for (const warning of warnings) console.log(`warning: ${warning}`);
for (const error of errors) console.error(`error: ${error}`);
console.log(errors.length === 0 ? 'OK' : `${errors.length} error(s)`);
process.exitCode = errors.length === 0 ? 0 : 1;
