// Shared by bench/knowledge-vector-recall.ts; not a benchmark itself.
// A corpus of real, varied English prose from two sources on this machine:
// - the English manual pages (/usr/share/man/man1–8: commands, system calls, library functions,
//   file formats, Perl modules), turned from roff into plain text;
// - the Rust toolchain's books (the Rust book, reference, Cargo, rustc, rustdoc, nomicon, Rust by
//   Example, edition guide, embedded book, style guide, error index), turned from HTML into text.
// Each document is then parsed and chunked by the product itself, as a TXT upload with automatic
// chunking. Tables and code blocks are left out; chunks that are mostly symbols (option lists,
// synopses) are dropped; exact duplicates are kept once. A seeded sample keeps the requested number
// of chunks, in document order.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chunkDocument, parseDocument } from '@athena/knowledge-core';
import { fragmentOf, seeded, shuffle } from './seeded.ts';

export const MAN_ROOT = '/usr/share/man';
const NODE_MODULES = path.join(import.meta.dirname, '../node_modules');
const PYTHON_LIB = ['/root/.pyenv/versions/3.11.7/lib/python3.11', '/usr/lib/python3.11'];
const RUSTUP = path.join(process.env.HOME ?? '/root', '.rustup/toolchains');
const RUST_BOOKS = [
  'book',
  'reference',
  'cargo',
  'rustc',
  'rustdoc',
  'nomicon',
  'rust-by-example',
  'edition-guide',
  'embedded-book',
  'style-guide',
  'error_codes',
];

const ESCAPES: [RegExp, string][] = [
  [/\\f(?:\[[^\]]*\]|\([A-Z]{2}|[A-Z0-9])/g, ''],
  [/\\s[+-]?\d/g, ''],
  [/\\\*(?:\[[^\]]*\]|\(..|.)/g, ''],
  [/\\\((?:em|en)/g, '—'],
  [/\\\((?:aq|cq)/g, "'"],
  [/\\\((?:lq|rq|dq)/g, '"'],
  [/\\\((?:bu|ci)/g, '•'],
  [/\\\(..|\\\[[^\]]*\]/g, ''],
  [/\\[-]/g, '-'],
  [/\\e/g, '\\'],
  [/\\[&|^,/c%]/g, ''],
  [/\\ /g, ' '],
  [/\\(.)/g, '$1'],
];
const unescapeRoff = (text: string) => ESCAPES.reduce((out, [pattern, to]) => out.replace(pattern, to), text);

/** Macro arguments as words: quotes dropped, mdoc's own macro names (Fl, Ar, Xr, …) skipped. */
const argumentsOf = (rest: string, joined: boolean) => {
  const words = rest.match(/"[^"]*"|\S+/g) ?? [];
  const kept = words.map((word) => word.replace(/^"|"$/g, '')).filter((word) => !/^[A-Z][a-z]$/.test(word));
  return kept.join(joined ? '' : ' ');
};

/** roff (man and mdoc macros) to paragraphs of plain text with headings on lines of their own. */
export function roffToText(roff: string): { text: string; description: string } {
  const out: string[] = [];
  let skipping: string | null = null;
  let description = '';
  let section = '';
  for (const raw of roff.split('\n')) {
    const line = raw.replace(/\s+$/, '');
    if (skipping) {
      if (new RegExp(`^[.']\\s*${skipping}\\b`).test(line)) skipping = null;
      continue;
    }
    const macro = /^[.']\s*([A-Za-z]{1,3})\s*(.*)$/.exec(line);
    if (/^[.']\s*\\"/.test(line) || line === '.') continue;
    if (!macro) {
      const text = unescapeRoff(line).trim();
      if (text) out.push(text);
      if (section === 'NAME' && !description && /\s[-—]\s/.test(text)) description = text.split(/\s[-—]\s/)[1] ?? '';
      continue;
    }
    const [, name, rest] = macro;
    if (name === 'TS') skipping = 'TE';
    else if (name === 'nf') skipping = 'fi';
    else if (name === 'EX') skipping = 'EE';
    else if (name === 'Bd' && /-literal|-unfilled/.test(rest)) skipping = 'Ed';
    else if (name === 'SH' || name === 'SS' || name === 'Sh' || name === 'Ss') {
      section = unescapeRoff(argumentsOf(rest, false)).trim();
      out.push('', section, '');
    } else if (name === 'Nd') {
      description ||= unescapeRoff(argumentsOf(rest, false)).trim();
      out.push(description);
    } else if (['PP', 'LP', 'P', 'sp', 'Pp', 'TP', 'IP', 'It'].includes(name)) {
      out.push('');
      if ((name === 'IP' || name === 'It') && rest) out.push(unescapeRoff(argumentsOf(rest, false)));
    } else if (/^(B|I|SM|SB|Nm|Fl|Ar|Pa|Xr|Em|Sy|Dq|Ql|Va|Fn|Fa|Ic|Cm|Li)$/.test(name)) {
      const text = unescapeRoff(argumentsOf(rest, false)).trim();
      if (text) out.push(text);
    } else if (/^(BR|RB|IR|RI|BI|IB)$/.test(name)) {
      const text = unescapeRoff(argumentsOf(rest, true)).trim();
      if (text) out.push(text);
    }
    // Everything else (TH, RS, RE, br, in, ft, de, ds, …) carries layout, not text.
  }
  return { text: out.join('\n').replace(/\n{3,}/g, '\n\n'), description: unescapeRoff(description).trim() };
}

/** Words of letters (at least 15), and letters and spaces make up most of the text. */
const isProse = (text: string) => {
  const words = text.match(/[A-Za-z][A-Za-z'’-]*/g) ?? [];
  const letters = text.replace(/[^A-Za-z\s]/g, '').length;
  return words.length >= 15 && letters / text.length >= 0.8;
};

export interface ProseCorpus {
  texts: string[];
  /** The page each text came from (e.g. "man1/ls.1"). */
  pageOf: string[];
  /** NAME-line descriptions of the pages the sample kept ("list directory contents"). */
  descriptions: string[];
  pages: number;
  /** Chunks kept from each source. */
  sourceCounts: Record<'man' | 'gcloud' | 'info' | 'python' | 'npm' | 'rust', number>;
  chunksBeforeSample: number;
  /** Hash of the sampled texts, so a cache made on another machine's manuals is not reused. */
  fingerprint: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) =>
    name[0] === '#'
      ? String.fromCodePoint(
          name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1)),
        )
      : (ENTITIES[name.toLowerCase()] ?? whole),
  );

/** An mdBook page's <main> as text: headings and paragraphs on lines of their own, code left out. */
export function htmlToText(html: string): string {
  const main = /<main>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
  return decodeEntities(
    main
      .replace(/<(pre|script|style|nav|table)\b[\s\S]*?<\/\1>/gi, '\n')
      .replace(/<\/?(p|h[1-6]|li|div|section|blockquote|dt|dd|br)\b[^>]*>/gi, '\n')
      .replace(/<[^>]+>/g, ''),
  )
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

/** Markdown without code blocks, HTML, images and link targets. */
export const markdownToText = (markdown: string) =>
  markdown
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*\|.*\|\s*$/gm, '')
    .replace(/[`*_]{1,3}([^`*_\n]+)[`*_]{1,3}/g, '$1');

type Document = { name: string; text: string; description: string };

/** English manual pages whose file name passes `keep`, each once (links and copies skipped). */
function* manPages(keep: (name: string) => boolean): Generator<Document> {
  const seenPages = new Set<string>();
  for (const dir of readdirSync(MAN_ROOT).filter((name) => /^man[1-8]$/.test(name))) {
    for (const name of readdirSync(path.join(MAN_ROOT, dir)).sort()) {
      const file = path.join(MAN_ROOT, dir, name);
      if (!name.endsWith('.gz') || !keep(name) || !statSync(file).isFile()) continue;
      const roff = gunzipSync(readFileSync(file)).toString('utf8');
      if (roff.length < 200 && /^\.so\s/m.test(roff)) continue; // a link to another page
      const hash = createHash('sha1').update(roff).digest('hex');
      if (seenPages.has(hash)) continue;
      seenPages.add(hash);
      yield { name: path.relative(MAN_ROOT, file).replace(/\.gz$/, ''), ...roffToText(roff) };
    }
  }
}

/**
 * The documents, in order: manual pages, Info manuals, Python docstrings, npm Markdown, Rust books.
 * gcloud's 16 600 generated manual pages (three in four here) are not among them: they would make
 * it a corpus of one template. They only fill up what the others lack (see proseCorpus).
 */
function* documents(): Generator<Document> {
  yield* manPages((name) => !name.startsWith('gcloud'));
  // GNU Info manuals (grep, find, diffutils, gnupg, …): plain text between node headers and menus.
  const info = '/usr/share/info';
  for (const name of existsSync(info) ? readdirSync(info).sort() : []) {
    if (!name.endsWith('.gz')) continue;
    const text = gunzipSync(readFileSync(path.join(info, name)))
      .toString('utf8')
      .split('\u001f')
      .map((node) => node.replace(/^\s*File: .*$/m, '').replace(/^\* Menu:[\s\S]*?(?=\n\n[^*]|$)/m, ''))
      .join('\n\n');
    yield { name: `info/${name.replace(/\.gz$/, '')}`, text, description: '' };
  }
  // Docstrings of Python's standard library (its tests aside).
  const python = PYTHON_LIB.find((dir) => existsSync(dir));
  for (const relative of python ? (readdirSync(python, { recursive: true }) as string[]).sort() : []) {
    if (!relative.endsWith('.py') || /(^|\/)(tests?|site-packages|idle_test)\//.test(relative)) continue;
    const source = readFileSync(path.join(python as string, relative), 'utf8');
    const docstrings = [...source.matchAll(/("""|''')([\s\S]*?)\1/g)].map((match) => match[2].trim());
    yield { name: `python/${relative}`, text: docstrings.filter((d) => d.length > 150).join('\n\n'), description: '' };
  }
  // Markdown of the installed npm packages (READMEs and guides; change logs and licences aside).
  const seenFiles = new Set<string>();
  const markdown = (readdirSync(NODE_MODULES, { recursive: true }) as string[])
    .filter(
      (relative) =>
        /\.md$/i.test(relative) &&
        !/(^|\/)(CHANGELOG|CHANGES|HISTORY|LICEN[CS]E|SECURITY|CODE_OF_CONDUCT)[^/]*$/i.test(relative),
    )
    .sort();
  for (const relative of markdown) {
    const file = path.join(NODE_MODULES, relative);
    if (!statSync(file).isFile()) continue;
    const text = markdownToText(readFileSync(file, 'utf8'));
    const hash = createHash('sha1').update(text).digest('hex');
    if (seenFiles.has(hash)) continue;
    seenFiles.add(hash);
    yield { name: `npm/${relative}`, text, description: '' };
  }
  const toolchain = existsSync(RUSTUP) ? readdirSync(RUSTUP).find((name) => name.startsWith('stable-')) : undefined;
  if (!toolchain) return;
  const html = path.join(RUSTUP, toolchain, 'share/doc/rust/html');
  for (const book of RUST_BOOKS) {
    const files = existsSync(path.join(html, book))
      ? (readdirSync(path.join(html, book), { recursive: true }) as string[]).sort()
      : [];
    for (const relative of files) {
      // print.html repeats the whole book; the old editions repeat most of it.
      if (!relative.endsWith('.html') || /(^|\/)(print|toc|404)\.html$|edition\//.test(relative)) continue;
      yield {
        name: `rust/${book}/${relative}`,
        text: htmlToText(readFileSync(path.join(html, book, relative), 'utf8')),
        description: '',
      };
    }
  }
}

/** Reads, converts and chunks every document, then keeps a seeded sample of `count` chunks. */
export async function proseCorpus(count: number): Promise<ProseCorpus> {
  const seenChunks = new Set<string>();
  const descriptionOf = new Map<string, string>();
  const chunksOf = async (docs: Iterable<Document>) => {
    const chunks: { text: string; page: string }[] = [];
    for (const { name: page, text, description } of docs) {
      if (text.length < 200) continue;
      if (description) descriptionOf.set(page, description);
      let parsed: Awaited<ReturnType<typeof parseDocument>>;
      try {
        parsed = await parseDocument(new TextEncoder().encode(text), 'txt');
      } catch {
        continue; // no readable text
      }
      for (const chunk of chunkDocument(parsed, { mode: 'auto' }, null)) {
        if (!isProse(chunk.content) || seenChunks.has(chunk.content)) continue;
        seenChunks.add(chunk.content);
        chunks.push({ text: chunk.content, page });
      }
    }
    return chunks;
  };
  const random = seeded(20261122);
  /** A seeded sample of `n` of these chunks, kept in document order. */
  const sample = <T>(items: T[], n: number) => {
    return shuffle(
      items.map((_, index) => index),
      random,
    )
      .slice(0, n)
      .sort((a, b) => a - b)
      .map((index) => items[index]);
  };
  const main = await chunksOf(documents());
  const fill = main.length < count ? await chunksOf(manPages((name) => name.startsWith('gcloud'))) : [];
  const kept = [...sample(main, count), ...sample(fill, count - main.length)];
  if (kept.length < count) throw new Error(`only ${kept.length} prose chunks on this machine, ${count} asked for`);
  const texts = kept.map((chunk) => chunk.text);
  const pageOf = kept.map((chunk) => chunk.page);
  const sourceCounts = { man: 0, gcloud: 0, info: 0, python: 0, npm: 0, rust: 0 };
  for (const page of pageOf)
    sourceCounts[
      (/^(info|python|npm|rust)\/|^man\d\/(gcloud)/.exec(page)?.slice(1).find(Boolean) as
        | keyof typeof sourceCounts
        | undefined) ?? 'man'
    ] += 1;
  const keptPages = [...new Set(pageOf)];
  return {
    texts,
    pageOf,
    // gcloud's pages only fill up; as queries their descriptions would outnumber all others.
    descriptions: keptPages
      .filter((page) => !/^man\d\/gcloud/.test(page))
      .map((page) => descriptionOf.get(page) ?? '')
      .filter((d) => d.split(/\s+/).length >= 3),
    pages: keptPages.length,
    sourceCounts,
    chunksBeforeSample: main.length + fill.length,
    fingerprint: createHash('sha256').update(texts.join('\u0000')).digest('hex').slice(0, 12),
  };
}

/**
 * `count` queries: half the one-line descriptions of the sampled manual pages ("list directory
 * contents"), as a person names what they look for; half fragments of corpus segments
 * (alternately 2–4 consecutive words and 6–12).
 */
export function proseQueries(corpus: ProseCorpus, count: number): { kind: 'description' | 'fragment'; text: string }[] {
  const random = seeded(7);
  const descriptions = shuffle([...corpus.descriptions], random);
  const queries: { kind: 'description' | 'fragment'; text: string }[] = descriptions
    .slice(0, Math.ceil(count / 2))
    .map((text) => ({ kind: 'description', text: text.replace(/\.$/, '') }));
  for (let i = 0; queries.length < count; i++) {
    const text = corpus.texts[Math.floor(random() * corpus.texts.length)];
    queries.push({ kind: 'fragment', text: fragmentOf(text, i, random) });
  }
  return queries;
}
