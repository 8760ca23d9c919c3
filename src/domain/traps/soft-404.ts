/**
 * Soft 404s: a host that answers 200 for paths it does not have, with its "not found" page (the `soft404` rule,
 * docs/crawling.md "Traps"). A page that reads as not found (its title, first heading or first words say so) is
 * compared with what the host answers for a path made up to be missing, fetched once per directory by the host's
 * gate: if that answer is a 2xx too, and reads as not found or is the same page, the page is a soft 404.
 */
import { pathOf } from '../url/patterns';

/**
 * What a "not found" page says, in the languages most pages are written in. Tested on the title, the first heading and
 * the first words of the page's text: words a page about something else rarely opens with.
 */
const NOT_FOUND: readonly RegExp[] = [
  /\b(?:error|http|code)?\s*404\b/i,
  /\bnot\s+found\b/i,
  /\b(?:does\s*n['’]?o?t|doesn['’]t|no\s+longer)\s+(?:exists?|available)\b/i,
  /\b(?:could\s*n['’]?o?t|can\s*n?['’]?o?t|cannot|unable\s+to)\s+(?:be\s+)?(?:find|found|locate)\b/i,
  /\bpage\s+(?:is\s+)?(?:missing|unavailable|gone)\b/i,
  /\bnothing\s+(?:was\s+)?(?:found|here)\b/i,
  /nicht\s+gefunden|existiert\s+nicht|introuvable|n['’]existe\s+pas|non\s+trouvée|pas\s+été\s+trouvée/i,
  /no\s+(?:se\s+)?(?:ha\s+)?encontr|no\s+existe|non\s+trovat|non\s+esiste|não\s+(?:foi\s+)?encontrad|não\s+existe/i,
  /niet\s+gevonden|bestaat\s+niet|nie\s+znaleziono|не\s+найден|не\s+существует/i,
  /見つかりません|存在しません|找不到|不存在|未找到|찾을\s*수\s*없/,
];

/** Characters of a page's text read for it (its opening: a "not found" page says so first). */
const OPENING_CHARS = 600;

/** What a page shows first: its title, its first heading, the start of its text. */
export interface PageOpening {
  title: string | null;
  heading: string | null;
  text: string;
}

/** Whether a page reads as a "not found" page: its title, first heading or opening words say so. */
export function readsAsNotFound(page: PageOpening): boolean {
  const said = [page.title ?? '', page.heading ?? '', page.text.slice(0, OPENING_CHARS)].join('\n');
  return NOT_FOUND.some((phrase) => phrase.test(said));
}

/**
 * Where a page's host is asked for a path it surely does not have: the page's own directory (a site may answer
 * /docs/anything otherwise than /anything), as its key, and the made-up path in it.
 */
export function probeOf(url: string, token: string): { key: string; url: string } {
  const start = url.indexOf('//') + 2;
  const origin = url.slice(0, url.indexOf('/', start));
  const path = pathOf(url);
  const directory = path.slice(0, path.lastIndexOf('/') + 1);
  return { key: `${origin}${directory}`, url: `${origin}${directory}${token}` };
}

/** What the host answered for the made-up path (HostGate.notFound): its status, and, for a 2xx page, how it reads. */
export interface NotFoundAnswer {
  status: number;
  /** A 2xx HTML page: whether it reads as not found, and its template sketch (domain/similarity). */
  readsAsNotFound: boolean;
  sketch: string | null;
}

/**
 * Whether a page that reads as not found is the host's "not found" page answered 200: the host answers 2xx for a
 * made-up path too, and that answer reads as not found or is the same page (`same`: the two template sketches are
 * near-identical). A host that answers 404 for a made-up path is honest: its page only talks of not finding something.
 */
export function isSoft404(answer: NotFoundAnswer | null, same: boolean): boolean {
  if (answer === null || answer.status < 200 || answer.status > 299) return false;
  return answer.readsAsNotFound || same;
}
