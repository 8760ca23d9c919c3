import type { DomElement } from '../dom';

/**
 * Lines that point away from the article, in the languages of the pages we crawl: "Read also: ...", "See also",
 * "Mehr zum Thema", "À lire aussi", "Lea también: ...", "Czytaj też". A CMS puts them between the paragraphs of the
 * text, in markup that names nothing, so only their words give them away (as trafilatura's and defuddle's lists do).
 */
const ELSEWHERE = [
  'read (?:also|more|next)',
  'also read',
  'related(?: articles?| stories| posts| content)?',
  'recommended(?: for you| reading)?',
  'more on this(?: story| topic)?',
  'most (?:read|popular)',
  '(?:à )?lire aussi',
  'sur le même sujet',
  'lesen sie (?:auch|mehr|hier)',
  'mehr zum thema',
  'mehr dazu',
  'auch interessant',
  'das könnte sie (?:auch )?interessieren',
  'schon gelesen',
  'weitere artikel',
  'meist(?:gelesene|diskutierte)(?: artikel)?',
  'czytaj (?:też|także|również|więcej)',
  'zobacz (?:też|także|również)',
  'lea(?: también| más| además)?',
  'lee(?: también| más| además)?',
  '(?:le|te) puede interesar',
  'puede interesarte',
  'puedes ver',
  'mira',
  'leggi anche',
  'leia (?:também|mais)',
  'veja (?:também|mais)',
];
/** The phrase opens the line, then a separator, or it is the whole line (a heading over links). */
const ELSEWHERE_LINE = new RegExp(`^(?:${ELSEWHERE.join('|')})\\s*(?:$|[:：?!»›|–—-])`, 'iu');
/** A line longer than this is text that happens to open with the words. */
const LONGEST = 250;

/** Whether a line of text points to other articles. */
export function pointsElsewhere(text: string): boolean {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 0 && line.length <= LONGEST && ELSEWHERE_LINE.test(line);
}

/** Cuts the given lines that point to other articles. */
export function cutElsewhere(lines: DomElement[], root: DomElement): void {
  for (const line of lines) if (line !== root && pointsElsewhere(line.textContent ?? '')) line.remove();
}
