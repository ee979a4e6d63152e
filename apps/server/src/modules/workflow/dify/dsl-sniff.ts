// What the request thread knows of a Dify file without parsing it; the parser (dsl-reader.ts and
// its YAML library, ~10 MB) runs only in the import's worker thread.

/** A Dify export is rarely over 200 KB; the cap bounds what a thread parses (WORKFLOW_TOO_LARGE says 2 MB). */
export const DIFY_FILE_MAX_BYTES = 2_000_000;

/**
 * Whether an imported file's text is Dify's YAML rather than our JSON export: our files are JSON
 * objects; Dify's start with top-level keys such as `app:`, `kind:` or `version:`.
 */
export function looksLikeDifyDsl(content: string): boolean {
  const head = content.slice(0, 65_536);
  if (/^\s*[{[]/.test(head)) return false;
  return /^(app|kind|version|workflow|dependencies)\s*:/m.test(head);
}
