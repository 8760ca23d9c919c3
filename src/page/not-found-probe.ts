import { extractPage } from '../domain/extract';
import { isHtml } from '../domain/html/page';
import { pageSketches } from '../domain/traps/compare';
import { type NotFoundAnswer, readsAsNotFound } from '../domain/traps/soft-404';
import { isRefusedUrl } from '../domain/url/address';
import type { Settings } from '../settings';
import { readUpTo } from './robots-fetch';

/** Bytes of the made-up path's answer read (a "not found" page is small; the rest is not needed to know it). */
const PROBE_BYTES = 512 * 1024;

/**
 * Asks a host for a path made up to be missing (domain/traps/soft-404.ts probeOf), once per origin and section, for
 * its gate: the status it answers (redirects not followed: a redirect is not a "not found" page answered 200), and for
 * a 2xx HTML page whether it reads as not found and its template sketch, as a crawl's page is read. Null when it
 * could not be asked (a network failure): nothing is concluded.
 */
export async function fetchNotFound(url: string, settings: Settings): Promise<NotFoundAnswer | null> {
  if (isRefusedUrl(url, settings.allowPrivateNetworks)) return null;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.fetchTimeoutMs);
  try {
    const response = await fetch(url, {
      redirect: 'manual',
      signal: controller.signal,
      headers: { 'user-agent': settings.userAgent, accept: 'text/html,*/*;q=0.5' },
    });
    const type = response.headers.get('content-type');
    if (response.status < 200 || response.status > 299 || !isHtml(type)) {
      await response.body?.cancel().catch(() => undefined);
      return { status: response.status, readsAsNotFound: false, sketch: null };
    }
    const body = await readUpTo(response.body, PROBE_BYTES);
    const spec = { formats: ['text' as const], mainContent: true, include: [], exclude: [], fields: {} };
    const page = await extractPage(body, type, url, spec);
    const text = page.outputs.text ?? '';
    const opening = { title: page.summary.title, heading: page.summary.heading, text };
    return {
      status: response.status,
      readsAsNotFound: readsAsNotFound(opening),
      sketch: pageSketches(text, url).template,
    };
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
