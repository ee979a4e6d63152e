import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** Pages meant to be embedded in other sites: the standalone analytics pages and share links. */
const EMBEDDABLE = /^\/(only-chat-history|only-user-profile|share\/[^/?#]+)(?:[/?#]|$)/;

const isEmbeddablePage = (url: string) => EMBEDDABLE.test(url);

interface SecurityHeaderConfig {
  publicUrl: string;
  /** CSP sources allowed to frame the embeddable pages (FRAME_ANCESTORS). */
  frameAncestors: string[];
  /** Origins the web app calls besides its own (the agent API base, when it is elsewhere). */
  apiOrigins: string[];
}

/**
 * The security headers of every answer (helmet): a Content-Security-Policy the web app runs under,
 * nosniff, a referrer policy, HSTS when the public address is https, and framing refused except for
 * the embeddable pages, whose allowed parents are configured.
 */
function securityHeaderOptions(opts: SecurityHeaderConfig): HelmetOptions {
  const ancestors = opts.frameAncestors.length > 0 ? opts.frameAncestors.join(' ') : "'none'";
  return {
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

/** The headers helmet's middleware sets for a request to `url` (it runs synchronously), by lower-case name. */
function headersFor(middleware: ReturnType<typeof helmet>, url: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = String(value);
    },
    // X-Powered-By: nothing in Fastify sets it, so there is nothing to take away per request.
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  middleware({ url } as IncomingMessage, res as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Sets the security headers on every answer, the 404s included. They depend only on the
 * configuration and on whether the page is embeddable, so both sets are computed once here:
 * @fastify/helmet rebuilt helmet's whole middleware (option parsing, CSP validation) on every
 * request, which cost a signed-in call more than its own work (docs/benchmarks.md, "API"). They go
 * on Fastify's reply, which writes them with the status line in one step (each `setHeader` on the
 * raw response is checked twice); an answer that takes over the raw response keeps them through
 * `hijack` (below), and a route's own header of the same name still wins.
 */
export function installSecurityHeaders(app: FastifyInstance, opts: SecurityHeaderConfig) {
  const middleware = helmet(securityHeaderOptions(opts));
  const pageHeaders = headersFor(middleware, '/');
  const embeddableHeaders = headersFor(middleware, '/share/embedded');
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isEmbeddablePage(request.url) ? embeddableHeaders : pageHeaders);
    done();
  });
}

/**
 * Takes over the raw response (event streams, tus uploads, MCP transports) with the headers set on
 * the reply so far, the security headers among them, which Fastify would otherwise not send.
 * Every take-over goes through here (a test walks the sources for `.hijack()`).
 */
export function hijack(reply: FastifyReply) {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined && !reply.raw.hasHeader(name)) reply.raw.setHeader(name, value);
  }
  reply.hijack();
}
