import type { UsageMeter } from '../domain/usage';

/** A page's links as stored with its chunk's segment: newline-separated URLs (a URL holds no newline). */
export const encodeLinks = (links: readonly string[]): Uint8Array => new TextEncoder().encode(links.join('\n'));

const decodeLinks = (bytes: ArrayBuffer): string[] => {
  const text = new TextDecoder().decode(bytes);
  return text === '' ? [] : text.split('\n');
};

/** Where a page's links are: a byte range of an R2 object (null key: the page has no links). */
export interface LinksLocation {
  linksKey: string | null;
  linksOffset: number | null;
  linksLength: number | null;
}

/**
 * The outgoing links a crawl recorded for a page: one ranged R2 read; none for a page without links. Null when the
 * links are recorded in R2 but their object is gone.
 */
export async function readLinks(env: Pick<Env, 'BODIES'>, at: LinksLocation, usage?: UsageMeter): Promise<string[] | null> {
  if (at.linksKey === null || at.linksOffset === null || at.linksLength === null) return [];
  if (at.linksLength === 0) return [];
  usage?.count('r2ClassB');
  const object = await env.BODIES.get(at.linksKey, { range: { offset: at.linksOffset, length: at.linksLength } });
  return object ? decodeLinks(await object.arrayBuffer()) : null;
}
