/**
 * Custom separators arrive as typed in a form field, so "\n" is two characters. Turn the escapes
 * users mean (\n, \t) into the real characters.
 */
export function unescapeSeparator(separator: string): string {
  return separator.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
}
