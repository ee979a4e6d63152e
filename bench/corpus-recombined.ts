// Shared by bench/knowledge-vector-recall.ts; not a benchmark itself.
// A recombined English corpus, deterministic: the sentences of the 18 English evaluation documents
// (real prose: policies, guides, FAQs), recombined per segment. Each unit (file) is a variant of
// one source document, with its own product, company and place names; a segment is a run of
// mostly consecutive sentences of that document (some skipped, now and then one from another
// document, sometimes in another order, sometimes under its section heading), with some of its
// numbers changed and a reference id, 40–80 words and at most about 500 characters like the
// product's automatic chunks. Texts are unique even without their id. Its neighbourhoods are far
// more crowded than real documents' (every text is made of the same 316 sentences): the hard case.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fragmentOf, seeded, shuffle as shuffleWith } from './seeded.ts';
import { root } from './support.ts';

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

interface Sentence {
  heading: string;
  text: string;
}
interface SourceDoc {
  name: string;
  title: string;
  sentences: Sentence[];
}

/** Headings, paragraphs split into sentences, and list items as sentences of their own. */
function parseDocument(name: string, markdown: string): SourceDoc {
  let title = name;
  let heading = '';
  const sentences: Sentence[] = [];
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const h = /^(#+)\s+(.*)$/.exec(line);
    if (h) {
      if (h[1] === '#') title = h[2];
      heading = h[2];
      continue;
    }
    const item = line.replace(/^(?:[-*]|\d+\.)\s+/, '');
    for (const part of item.split(/(?<=[.!?])\s+(?=[A-Z"(])/)) {
      const text = part.trim();
      if (wordCount(text) >= 3) sentences.push({ heading, text: /[.!?:)]$/.test(text) ? text : `${text}.` });
    }
  }
  return { name, title, sentences };
}

export interface RecombinedCorpus {
  texts: string[];
  unitNames: string[];
  queries: { kind: 'question' | 'fragment'; text: string }[];
  summary: string;
}

/**
 * `segments` texts in `units` = segments / 1000 files, and `queryCount` queries: half natural-language
 * questions (the evaluation set's English ones, then the same questions again with the names and
 * numbers of another unit's variant), half fragments of corpus segments (alternately 2–4
 * consecutive words and 6–12).
 */
export function recombinedCorpus(SEGMENTS: number, QUERIES: number): RecombinedCorpus {
  const UNITS = Math.max(1, Math.round(SEGMENTS / 1000));
  const random = seeded(20261123);
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const shuffle = <T>(items: T[], draw = random) => shuffleWith(items, draw);

  const evalDir = path.join(root, 'bench/knowledge-eval/documents');
  const sourceDocs = readdirSync(evalDir)
    .filter((name) => name.startsWith('en-'))
    .sort()
    .map((name) => parseDocument(name, readFileSync(path.join(evalDir, name), 'utf8')));

  // Per unit: names in place of the documents' own (index 0 keeps the original).
  const NAMES: Record<string, string[]> = {
    Nimbus: ['Nimbus', 'Stratus', 'Halo', 'Orbit', 'Lumen', 'Vertex', 'Cobalt', 'Meridian', 'Aster', 'Quill', 'Tandem'],
    nimbus: ['nimbus', 'stratus', 'halo', 'orbit', 'lumen', 'vertex', 'cobalt', 'meridian', 'aster', 'quill', 'tandem'],
    Cirrus: ['Cirrus', 'Tessera', 'Pico', 'Arden', 'Fennel', 'Sable', 'Juniper'],
    Qinglan: ['Qinglan', 'Northwind', 'Brightline', 'Kestrel', 'Harbor', 'Alder', 'Bluestone', 'Calder'],
    qinglan: ['qinglan', 'northwind', 'brightline', 'kestrel', 'harbor', 'alder', 'bluestone', 'calder'],
    Hangzhou: ['Hangzhou', 'Shenzhen', 'Chengdu', 'Suzhou', 'Wuhan'],
    Frankfurt: ['Frankfurt', 'Dublin', 'Amsterdam', 'Paris', 'Stockholm'],
    Singapore: ['Singapore', 'Tokyo', 'Seoul', 'Sydney', 'Jakarta'],
    Virginia: ['Virginia', 'Oregon', 'Ohio', 'Montreal'],
  };
  const NAME_PATTERN = new RegExp(`\\b(${Object.keys(NAMES).join('|')})`, 'g');

  // Units take the source documents in a shuffled order, round and round, so each document has
  // about UNITS / 18 variants; a unit also has a neighbour document it borrows sentences from.
  const docOrder = shuffle(sourceDocs.map((_, index) => index));
  const units = Array.from({ length: UNITS }, (_, unit) => {
    const names = Object.fromEntries(
      Object.entries(NAMES).map(([name, options]) => [
        name,
        unit < sourceDocs.length ? 0 : between(0, options.length - 1),
      ]),
    );
    // Lower and upper case of one name move together.
    names.nimbus = names.Nimbus;
    names.qinglan = names.Qinglan;
    return {
      doc: sourceDocs[docOrder[unit % sourceDocs.length]],
      neighbour:
        sourceDocs[docOrder[((unit % sourceDocs.length) + 1 + between(0, sourceDocs.length - 2)) % sourceDocs.length]],
      names,
    };
  });

  function renamed(text: string, names: Record<string, number>) {
    return text.replace(NAME_PATTERN, (name) => NAMES[name][names[name] % NAMES[name].length]);
  }

  /** Some numbers changed a little (half to double), as in another version of the same policy. */
  function renumbered(text: string, share: number, draw: () => number) {
    return text.replace(/\b\d+(?:,\d{3})*\b/g, (digits) => {
      if (draw() >= share) return digits;
      const value = Number(digits.replace(/,/g, ''));
      const changed = Math.max(1, Math.round(value * (0.5 + draw() * 1.5)));
      return digits.includes(',') ? changed.toLocaleString('en-US') : String(changed);
    });
  }

  const REFERENCES = ['Ref.', 'Case', 'Policy', 'Ticket', 'Doc'];
  const idOf = (index: number) =>
    `${REFERENCES[index % REFERENCES.length]} ${['NB', 'CR', 'QL', 'HR', 'IT'][index % 5]}-${(100000 + index).toString(36).toUpperCase()}`;

  const seen = new Set<string>();
  let regenerated = 0;

  function composeSegment(unit: (typeof units)[number]): string {
    const { doc, neighbour } = unit;
    const target = between(40, 80);
    const picked: Sentence[] = [];
    let words = 0;
    let chars = 0;
    let at = between(0, doc.sentences.length - 1);
    for (let guard = 0; words < target && guard < 200; guard++) {
      let sentence: Sentence;
      if (random() < 0.08) sentence = pick(random() < 0.7 ? neighbour.sentences : pick(sourceDocs).sentences);
      else {
        sentence = doc.sentences[at % doc.sentences.length];
        at += random() < 0.2 ? 2 : 1; // now and then a sentence skipped
      }
      if (picked.includes(sentence)) continue;
      const length = sentence.text.length + 1;
      if (chars + length > 470 && words >= 30) break;
      if (chars + length > 470) continue;
      picked.push(sentence);
      words += wordCount(sentence.text);
      chars += length;
    }
    if (random() < 0.2) shuffle(picked);
    const parts = picked.map((s) => s.text);
    const heading = picked[0]?.heading;
    const opening = random();
    if (opening < 0.25 && heading) parts.unshift(`${heading.replace(/[?.:]$/, '')}:`);
    else if (opening < 0.35) parts.unshift(`${doc.title}.`);
    return renumbered(renamed(parts.join(' '), unit.names), 0.3, random);
  }

  /** About 250–500 characters, 40–80 words, each text different before its id is added. */
  function segmentText(index: number): string {
    const unit = units[index % UNITS];
    let text = composeSegment(unit);
    while (seen.has(text)) {
      regenerated += 1;
      text = composeSegment(unit);
    }
    seen.add(text);
    // The reference id after the first sentence (or the heading), like a citation in the text.
    const id = idOf(index);
    const cut = text.search(/[.:] /);
    return cut < 0 ? `${text} (${id})` : `${text.slice(0, cut + 1)} (${id})${text.slice(cut + 1)}`;
  }

  const texts = Array.from({ length: SEGMENTS }, (_, index) => segmentText(index));
  const pickRandom = seeded(7);
  const englishQuestions = (
    JSON.parse(readFileSync(path.join(root, 'bench/knowledge-eval/questions.json'), 'utf8')) as {
      lang: string;
      question: string;
    }[]
  )
    .filter((q) => q.lang === 'en')
    .map((q) => q.question);
  const queries: { kind: 'question' | 'fragment'; text: string }[] = englishQuestions
    .slice(0, Math.ceil(QUERIES / 2))
    .map((text) => ({ kind: 'question' as const, text }));
  // Variants only of questions with a name or a number to change, each different from all before.
  const variable = englishQuestions.filter((q) => new RegExp(NAME_PATTERN.source).test(q) || /\d/.test(q));
  for (let i = 0, misses = 0; queries.length < Math.ceil(QUERIES / 2) && misses < 1000; i++) {
    const question = variable[i % variable.length];
    const unit = units[Math.floor(pickRandom() * UNITS)];
    const text = renumbered(renamed(question, unit.names), 0.7, pickRandom);
    if (queries.some((q) => q.text === text)) misses += 1;
    else queries.push({ kind: 'question', text });
  }
  for (let i = 0; queries.length < QUERIES; i++) {
    const text = texts[Math.floor(pickRandom() * SEGMENTS)].replace(/ \((?:Ref\.|Case|Policy|Ticket|Doc) [^)]*\)/, '');
    queries.push({ kind: 'fragment', text: fragmentOf(text, i, pickRandom) });
  }
  return {
    texts,
    unitNames: units.map((unit, u) => `${unit.doc.name.replace(/\.md$/, '')}-${u}.txt`),
    queries,
    summary:
      `${SEGMENTS} segments in ${UNITS} units recombined from ${sourceDocs.length} English documents ` +
      `(${sourceDocs.reduce((n, doc) => n + doc.sentences.length, 0)} sentences), ${regenerated} duplicate texts redrawn`,
  };
}
