/** The pre-Clipboard-API way: select a hidden textarea and run the copy command. */
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

/**
 * Copies text: the Clipboard API (secure contexts) first, then the legacy copy command. Resolves
 * false when neither worked, so the caller can tell the person to copy by hand.
 */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied or the page is not focused: try the older way.
  }
  return legacyCopy(text);
}
