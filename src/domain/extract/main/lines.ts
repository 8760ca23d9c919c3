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

/** Credits of a picture: "Photo: ...", "Bildquelle: ...", "Credit: ...", or an agency's name alone. */
const CREDIT_LINE = new RegExp(
  [
    '^(?:(?:title |titel)?(?:photo|foto|fotos|bild|bilder|image|picture|titelbild|bildquelle|quelle|source|crédit|credit)s?',
    '(?: credits?)?\\s*[:：]',
    '|.{0,40}\\b(?:getty images|afp|dpa|reuters|ap photo|imago|picture[- ]alliance|shutterstock|istock(?:photo)?|efe)\\s*$)',
  ].join(''),
  'iu',
);
/** A credit is a short line. */
const CREDIT_LONGEST = 100;
/** The lines of comment counts and sharing: "No comments", "Comments are closed", "Share this article". */
const SOCIAL_LINE =
  /^(?:(?:no|keine|\d+) (?:comments?|kommentare?)|comments are closed|kommentare sind geschlossen|leave a (?:comment|reply)|kommentieren|kommentar schreiben|sin comentarios|aucun commentaire|share(?: this(?: article| post| story)?)?|teilen|mit freunden teilen|jetzt teilen|partager|compartir)\s*[:.!]?$/iu;

/**
 * Short lines of the page around the text: a byline ("By Jane Doe", "Von: ..."), when it was published, the author's
 * box heading, "Follow us on ...", an advertisement's label, a permalink, the login a comment form asks for.
 */
const AROUND_LINE = new RegExp(
  [
    "^(?:(?:by|von|par|por|di|door|przez)(?::|\\s)\\s*\\p{Lu}[\\p{L}.'-]*(?:\\s+\\p{L}[\\p{L}.'-]*){0,3}$",
    '|von\\s*:',
    '|(?:published|posted|updated|veröffentlicht|erstellt|aktualisiert|publié|publicado|der beitrag wurde)(?: am| on| le| el)?\\s[^.!?]{0,60}$',
    '|(?:about the author|über den autor|über die autorin|à propos de l.auteur|sobre el autor)\\s*:?$',
    '|(?:follow us|folgen sie uns|folge uns|síguenos|siguenos|suivez-nous)\\b',
    '|[-–—\\s]*(?:anzeige|advertisement|werbung|publicidad|publicité)[-–—\\s]*$',
    '|permalink|permalien',
    '|(?:you must be logged in|sie müssen sich einloggen)',
    ')',
  ].join(''),
  'iu',
);
/** Lines around the text are short. */
const AROUND_LONGEST = 120;

function furniture(text: string): boolean {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length === 0) return false;
  return (
    pointsElsewhere(line) ||
    (line.length <= CREDIT_LONGEST && CREDIT_LINE.test(line)) ||
    SOCIAL_LINE.test(line) ||
    (line.length <= AROUND_LONGEST && AROUND_LINE.test(line))
  );
}

/** Cuts the given lines that point to other articles, credit a picture, count comments or ask to share. */
export function cutElsewhere(lines: DomElement[], root: DomElement): void {
  for (const line of lines) if (line !== root && furniture(line.textContent ?? '')) line.remove();
}
