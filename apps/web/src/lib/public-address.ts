/**
 * One rule for every address the app shows to be copied and shared (share and invite links, the
 * chat ingest URL, the API base, the MCP address, webhook URLs): the server's public address
 * (PUBLIC_URL) when the operator set it, otherwise the address this browser reached the app at.
 * Links the server builds itself name PUBLIC_URL, which defaults to localhost when unset; those
 * are re-based here, so a team trying Athena at http://192.168.1.20:3000 never copies a localhost
 * link out of one page and a LAN link out of the next.
 */
export function publicOrigin(configured: string | undefined, browserOrigin: string): string {
  return configured ? configured.replace(/\/+$/, '') : browserOrigin;
}

/** A link the server built, on the public origin (only its origin changes). */
export function publicLink(url: string, configured: string | undefined, browserOrigin: string): string {
  if (configured) return url;
  try {
    const parsed = new URL(url);
    return `${browserOrigin}${parsed.pathname}${parsed.search}${parsed.hash}`;
  } catch {
    return url;
  }
}
