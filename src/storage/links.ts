import type { UsageMeter } from '../domain/usage';
import { legacyLinks } from './d1/links';

/** A page's links as stored with its chunk's segment: newline-separated URLs (a URL holds no newline). */
export const encodeLinks = (links: readonly string[]): Uint8Array => new TextEncoder().encode(links.join('\n'));

const decodeLinks = (bytes: ArrayBuffer): string[] => {
  const text = new TextDecoder().decode(bytes);
  return text === '' ? [] : text.split('\n');
};

/** Where a page's links are: a byte range of an R2 object (null key: rows written before links moved to R2). */
export interface LinksLocation {
  url: string;
  linksKey: string | null;
  linksOffset: number | null;
  linksLength: number | null;
}

/**
 * The outgoing links a crawl recorded for a page: one ranged R2 read, or (for pages stored before links moved to
 * R2) the crawl's rows of D1's links table. Null when the links are recorded in R2 but their object is gone.
 */
export async function readLinks(env: Pick<Env, 'BODIES' | 'DB'>, crawlId: string, at: LinksLocation, usage?: UsageMeter): Promise<string[] | null> {
  if (at.linksKey === null || at.linksOffset === null || at.linksLength === null) return legacyLinks(env.DB, crawlId, at.url, usage);
  if (at.linksLength === 0) return [];
  usage?.count('r2ClassB');
  const object = await env.BODIES.get(at.linksKey, { range: { offset: at.linksOffset, length: at.linksLength } });
  return object ? decodeLinks(await object.arrayBuffer()) : null;
}
