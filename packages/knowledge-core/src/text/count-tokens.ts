/**
 * A model-independent token estimate for display and budgeting: each CJK character ≈ 1 token,
 * each other word (letters/digits run) ≈ 1.3, full-width punctuation 1; ASCII punctuation and
 * spaces are folded into the word estimate.
 */

const TOKEN_PIECES =
  /(\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul})|([\p{L}\p{N}]+)|([\u3000-\u303f\uff00-\uffef])/gu;

export function countTokens(text: string): number {
  let cjk = 0;
  let words = 0;
  for (const [, han, word, fullWidth] of text.matchAll(TOKEN_PIECES)) {
    if (han !== undefined || fullWidth !== undefined) cjk++;
    else if (word !== undefined) words++;
  }
  return Math.ceil(cjk + words * 1.3);
}
