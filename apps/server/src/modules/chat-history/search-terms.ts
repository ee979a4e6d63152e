/**
 * Keyword search over messages in any language (docs/chat-history.md, "Keyword search"). Chinese,
 * Japanese and Korean have no spaces between words, and a chat line is too short for a word
 * segmenter to be reliable, so text in those scripts is indexed as its characters and
 * overlapping pairs of them ("退款申请" → 退, 款, 申, 请, 退款, 款申, 申请) and other text as lower-cased words. A keyword is
 * looked up by all of its terms and then checked against the text itself, so a pair that happens
 * to occur elsewhere in a message is no false hit.
 */

const RUN = /[\p{L}\p{N}]+/gu;
const PAIRED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Longer words are not indexed (URLs, base64): nobody searches by them, and they bloat the index. */
const MAX_WORD = 60;
/** Terms kept per message: a 20 000-character message still costs a bounded index entry. */
const MAX_TERMS = 1_000;

function addTermsOfRun(run: string, into: Set<string>) {
  let plain = '';
  let paired: string[] = [];
  const flushPlain = () => {
    if (plain.length > 0 && plain.length <= MAX_WORD) into.add(plain);
    plain = '';
  };
  const flushPaired = () => {
    for (const char of paired) into.add(char);
    for (let i = 0; i + 1 < paired.length; i++) into.add(paired[i] + paired[i + 1]);
    paired = [];
  };
  for (const char of run) {
    if (PAIRED_SCRIPT.test(char)) {
      flushPlain();
      paired.push(char);
    } else {
      flushPaired();
      plain += char;
    }
  }
  flushPlain();
  flushPaired();
}

/** The index terms of a text, lower-cased and NFKC-normalised (full-width letters match half-width). */
export function searchTermsOf(text: string): string[] {
  const terms = new Set<string>();
  for (const [run] of text.normalize('NFKC').toLowerCase().matchAll(RUN)) {
    addTermsOfRun(run, terms);
    if (terms.size >= MAX_TERMS) break;
  }
  return [...terms].slice(0, MAX_TERMS);
}

/**
 * A keyword as a tsquery of its terms (all must occur), or null when it has none (only
 * punctuation). Pairs are enough for a longer Chinese keyword, its single characters add nothing.
 * A word of other scripts matches the words it begins ("deliver" finds "delivery"). Terms hold
 * letters and digits only, so quoting them is safe.
 */
export function keywordQueryOf(keyword: string): string | null {
  const all = searchTermsOf(keyword);
  const pairs = all.filter((term) => !(term.length === 1 && PAIRED_SCRIPT.test(term)));
  const terms = pairs.length > 0 ? pairs : all;
  if (terms.length === 0) return null;
  return terms.map((term) => (PAIRED_SCRIPT.test(term) ? `'${term}'` : `'${term}':*`)).join(' & ');
}
