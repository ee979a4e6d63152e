// Reading what a model answered when it was asked for JSON or for one choice. Models wrap JSON in
// code fences, add a sentence before it, or quote an id: the readers here take what is meant.

/** The first JSON object in a reply (fenced or not, with text around it), or null. */
export function jsonObjectIn(reply: string): Record<string, unknown> | null {
  const candidates: string[] = [];
  for (const match of reply.matchAll(/```(?:json)?\s*([\s\S]*?)```/gi)) candidates.push(match[1]);
  candidates.push(reply);
  for (const candidate of candidates) {
    const start = candidate.indexOf('{');
    if (start < 0) continue;
    // The widest span first, then narrower ones ending at an earlier brace.
    for (let end = candidate.lastIndexOf('}'); end > start; end = candidate.lastIndexOf('}', end - 1)) {
      try {
        const value: unknown = JSON.parse(candidate.slice(start, end + 1));
        if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
      } catch {
        // Not this span; try a shorter one.
      }
    }
  }
  return null;
}

export interface ClassChoice {
  id: string;
  name: string;
}

/**
 * The class a reply picks: its exact id (quotes, backticks and a trailing full stop ignored), an
 * id in a JSON answer (`{"class_id": …}`), the id or then the name written first in the text.
 * Null when nothing matches; the caller decides what that means.
 */
export function classIn(reply: string, classes: ClassChoice[]): ClassChoice | null {
  const bare = reply
    .trim()
    .replace(/^[`'"“‘\s]+|[`'"”’。.\s]+$/g, '')
    .trim();
  const exact = classes.find((choice) => choice.id === bare) ?? classes.find((choice) => choice.name === bare);
  if (exact) return exact;
  const json = jsonObjectIn(reply);
  const named = json && (json.class_id ?? json.id ?? json.class ?? json.category);
  if (typeof named === 'string') {
    const found = classes.find((choice) => choice.id === named) ?? classes.find((choice) => choice.name === named);
    if (found) return found;
  }
  const firstWritten = (text: (choice: ClassChoice) => string, whole: boolean) => {
    let best: { choice: ClassChoice; at: number } | null = null;
    for (const choice of classes) {
      const needle = text(choice);
      if (!needle) continue;
      const pattern = whole
        ? new RegExp(`(^|[^\\p{L}\\p{N}_-])${escapeRegExp(needle)}($|[^\\p{L}\\p{N}_-])`, 'u')
        : new RegExp(escapeRegExp(needle), 'u');
      const at = pattern.exec(reply)?.index;
      if (at !== undefined && (!best || at < best.at)) best = { choice, at };
    }
    return best?.choice ?? null;
  };
  return firstWritten((choice) => choice.id, true) ?? firstWritten((choice) => choice.name, false);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
