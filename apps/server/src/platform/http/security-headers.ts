import type { FastifyHelmetOptions } from '@fastify/helmet';

/** Pages meant to be embedded in other sites: the standalone analytics pages and share links. */
const EMBEDDABLE = /^\/(only-chat-history|only-user-profile|share\/[^/?#]+)(?:[/?#]|$)/;

const isEmbeddablePage = (url: string) => EMBEDDABLE.test(url);

/**
 * The security headers of every answer (@fastify/helmet): a Content-Security-Policy the web app
 * runs under, nosniff, a referrer policy, HSTS when the public address is https, and framing
 * refused except for the embeddable pages, whose allowed parents are configured.
 */
export function securityHeaderOptions(opts: {
  publicUrl: string;
  /** CSP sources allowed to frame the embeddable pages (FRAME_ANCESTORS). */
  frameAncestors: string[];
  /** Origins the web app calls besides its own (the agent API base, when it is elsewhere). */
  apiOrigins: string[];
}): FastifyHelmetOptions {
  const ancestors = opts.frameAncestors.length > 0 ? opts.frameAncestors.join(' ') : "'none'";
  return {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Ant Design writes its component styles into <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Avatars and agent pictures may be any http(s) image; QR codes and previews are data/blob URLs.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        fontSrc: ["'self'", 'data:'],
        // Chat history plays customers' video and voice where their channel keeps it (any http(s) host).
        mediaSrc: ["'self'", 'blob:', 'https:', 'http:'],
        connectSrc: ["'self'", ...opts.apiOrigins],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: [(req) => (isEmbeddablePage(req.url ?? '/') ? ancestors : "'none'")],
      },
    },
    // frame-ancestors above decides, per page; X-Frame-Options cannot name allowed parents.
    xFrameOptions: false,
    // Not includeSubDomains: a self-hosted server often shares its domain with other sites.
    strictTransportSecurity: opts.publicUrl.startsWith('https:')
      ? { maxAge: 15_552_000, includeSubDomains: false }
      : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}
