/**
 * Requests to the Worker as Firecrawl's clients send them, their answers checked against Firecrawl's own OpenAPI
 * documents (test/support/firecrawl-conformance.ts) when ../shared has them: a test that gets an answer unlike
 * Firecrawl's document fails, saying where. Webhook deliveries in Firecrawl's format are checked the same way
 * (test/support/webhooks.ts).
 */
import { exports } from 'cloudflare:workers';
import { inject } from 'vitest';
import { isFirecrawlPath } from '../../src/api/firecrawl/errors';
import {
  checkFirecrawlAnswer,
  checkFirecrawlWebhook,
  type FirecrawlConformance,
  firecrawlConformance,
  type Verdict,
} from './firecrawl-conformance';

let conformance: FirecrawlConformance | null | undefined;

/** Firecrawl's documents ready to check answers, or null where ../shared/specs/firecrawl is not present. */
export function firecrawlDocuments(): FirecrawlConformance | null {
  if (conformance === undefined) {
    const specs = inject('firecrawlSpecs');
    conformance = specs ? firecrawlConformance(specs) : null;
  }
  return conformance;
}

/** Every verdict of this isolate, for the conformance test's summary. */
export const verdicts: { what: string; verdict: Verdict }[] = [];

function judge(what: string, verdict: Verdict): void {
  verdicts.push({ what, verdict });
  if (verdict.problems.length > 0)
    throw new Error(`${what} is unlike Firecrawl's document (${verdict.operation}): ${verdict.problems.join('; ')}`);
}

/** A Firecrawl answer: a Firecrawl-only path, or /v1/scrape and /v1/map answered in Firecrawl's shape. */
const firecrawlAnswer = (path: string, body: unknown) =>
  isFirecrawlPath(path) ||
  (/^\/v1\/(scrape|map)$/.test(path) && typeof body === 'object' && body !== null && 'success' in body);

/** The Worker's answer to `request`, a JSON answer of a Firecrawl route checked against Firecrawl's document. */
export async function firecrawlFetch(request: Request): Promise<Response> {
  const res = await exports.default.fetch(request);
  const docs = firecrawlDocuments();
  if (!docs || !/^application\/json\b/i.test(res.headers.get('content-type') ?? '')) return res;
  const { pathname } = new URL(request.url);
  const body: unknown = await res.clone().json();
  if (!firecrawlAnswer(pathname, body)) return res;
  judge(
    `${request.method} ${pathname} ${res.status}`,
    checkFirecrawlAnswer(docs, request.method, pathname, res.status, body),
  );
  return res;
}

/** `fetch` of `path` on the Worker with the test token (none with `token: null`), JSON bodies typed as such. */
export function firecrawlApi(path: string, init: RequestInit & { token?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token !== null) headers.set('authorization', `Bearer ${init.token ?? 'test-token'}`);
  if (typeof init.body === 'string') headers.set('content-type', 'application/json');
  return firecrawlFetch(new Request(`http://edgecrawl.test${path}`, { ...init, headers }));
}

/** Checks a webhook body in Firecrawl's format (it has `type` and `webhookId`) against Firecrawl's document. */
export function checkWebhookBody(text: string): void {
  const docs = firecrawlDocuments();
  if (!docs) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return;
  }
  if (typeof body !== 'object' || body === null || !('webhookId' in body) || !('type' in body)) return;
  judge(`webhook ${String(body.type)}`, checkFirecrawlWebhook(docs, body));
}
