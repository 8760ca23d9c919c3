import { collapse, type DomElement } from '../dom';
import { pointsElsewhere } from './lines';
import { namedFurniture } from './patterns';
import { LINK_DENSE, type Stats, statsOf } from './stats';

/**
 * Lists of links inside the text, between two of its paragraphs (issue 44): a story's sources, a guide's downloads,
 * references, or the site's "more on this" teasers. Links to other sites are the text's own and stay; links to the
 * site's own pages, or a list introduced as pointing elsewhere ("Read also:"), read as teasers and are cut, and the
 * record's warnings say so (listCut), so that a reader of the content knows what it lost.
 */

/** Link text that reads as navigation: all of it but the links whose text is code (an API's names: the document's). */
const navigational = (s: Stats) => s.linkChars - s.codeLinkChars;
export const linkDense = (s: Stats) => s.chars > 0 && navigational(s) > s.chars * LINK_DENSE;

/** A paragraph of the text: a `p` with text, mostly not links. */
function paragraph(element: DomElement | null, stats: Map<DomElement, Stats>): element is DomElement {
  if (element?.localName !== 'p') return false;
  const s = statsOf(stats, element);
  return s.chars > 0 && !linkDense(s);
}

/** Whether an element is a list mostly of links between two paragraphs of the text (not named as furniture). */
export function listInProse(element: DomElement, stats: Map<DomElement, Stats>): boolean {
  const name = element.localName;
  if ((name !== 'ul' && name !== 'ol') || !linkDense(statsOf(stats, element))) return false;
  return paragraph(element.previousElementSibling, stats) && paragraph(element.nextElementSibling, stats);
}

/** The host of a link, or null for an in-page anchor or what is not http(s). */
function hostOf(href: string, site: string): string | null {
  if (href.startsWith('#')) return null;
  try {
    const url = new URL(href, site);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.replace(/^www\./, '') : null;
  } catch {
    return null;
  }
}

/** Why a list in the prose (listInProse) is cut, or null when it is the text's own: most of its links lead off-site. */
export function proseListCut(list: DomElement, site: string | undefined): string | null {
  const before = list.previousElementSibling?.textContent ?? '';
  if (pointsElsewhere(before)) return 'introduced as pointing elsewhere';
  if (namedFurniture(list)) return 'named as furniture';
  // Without the page's address, relative links are the site's own and absolute ones another's.
  const base = site ?? 'http://this.invalid/';
  const home = hostOf(base, base);
  const links = Array.from(list.querySelectorAll('a[href]'));
  const away = links.filter((a) => {
    const host = hostOf(a.getAttribute('href') ?? '', base);
    return host !== null && host !== home;
  }).length;
  return away * 2 > links.length ? null : "its links lead to the site's own pages";
}

/** The warning for a list cut from inside the text: how many links, why, and the first of them. */
export function listCut(list: DomElement, why: string): string {
  const texts = Array.from(list.querySelectorAll('a[href]'))
    .map((a) => collapse(a.textContent))
    .filter(Boolean);
  const shown = texts
    .slice(0, 3)
    .map((text) => JSON.stringify(text.length > 60 ? `${text.slice(0, 59)}…` : text))
    .join(', ');
  return `content: a list of ${texts.length} links between paragraphs was cut (${why}): ${shown}${texts.length > 3 ? ', …' : ''}`;
}
