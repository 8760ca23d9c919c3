/**
 * Where a page's markdown goes under the output folder: <host>/<path>.md, `index.md` for a directory URL, the
 * query string hashed into the name, only safe characters, never outside the folder. Pure.
 */
import { createHash } from 'node:crypto';

const MAX_SEGMENT = 80;

const hash8 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);

/** One path segment, decoded, with only [A-Za-z0-9._-] (others become _), no leading dot, at most 80 characters. */
function safeSegment(raw: string): string {
  let text = raw;
  try {
    text = decodeURIComponent(raw);
  } catch {
    // not valid percent-encoding: kept as it is
  }
  const safe = text.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_') || '_';
  return safe.length <= MAX_SEGMENT ? safe : `${safe.slice(0, MAX_SEGMENT - 9)}-${hash8(text)}`;
}

/** The relative path (with /) of a page's markdown file: host, path segments, a name ending in .md. */
export function markdownPath(url: string): string {
  const u = new URL(url);
  const host = safeSegment(u.host.replace(/:/g, '_'));
  const segments = u.pathname.split('/').filter((s) => s !== '');
  const directory = u.pathname.endsWith('/') || segments.length === 0;
  const leaf = directory ? 'index' : safeSegment(segments.pop() ?? '').replace(/\.html?$/i, '') || 'index';
  // A folder never ends in .md, so that it cannot be a page's file.
  const folders = segments.map((s) => safeSegment(s).replace(/\.md$/i, '.md_'));
  const name = u.search.length > 1 ? `${leaf}-${hash8(u.search)}` : leaf;
  return [host, ...folders, `${name}.md`].join('/');
}

/** Gives each page a path of its own: a second page on the same path gets -2, -3, … before .md. */
export class PathClaims {
  readonly #taken = new Set<string>();

  claim(path: string): string {
    let candidate = path;
    for (let n = 2; this.#taken.has(candidate.toLowerCase()); n++) candidate = path.replace(/\.md$/, `-${n}.md`);
    this.#taken.add(candidate.toLowerCase());
    return candidate;
  }
}
