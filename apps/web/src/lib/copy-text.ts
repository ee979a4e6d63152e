export interface CopyDeps {
  clipboard?: Pick<Clipboard, 'writeText'>;
  /** The pre-Clipboard-API way: select a hidden textarea and run the copy command. */
  legacyCopy?: (text: string) => boolean;
}

function legacyCopy(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

const browserDeps = (): CopyDeps => ({
  clipboard: typeof navigator !== 'undefined' ? navigator.clipboard : undefined,
  legacyCopy: typeof document !== 'undefined' ? legacyCopy : undefined,
});

/**
 * Copies text: the Clipboard API first (needs a secure context and permission), then the legacy
 * copy command. Resolves false when neither worked, so the caller can show the text to copy by hand.
 */
export async function copyText(text: string, deps: CopyDeps = browserDeps()): Promise<boolean> {
  if (deps.clipboard) {
    try {
      await deps.clipboard.writeText(text);
      return true;
    } catch {
      // Denied or not focused: try the older way.
    }
  }
  return deps.legacyCopy?.(text) ?? false;
}
