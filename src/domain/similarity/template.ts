/**
 * The tokens of a page's template, for the template sketch: what stays of the text when what changes from one page
 * of a generated series to the next is taken out. Numbers are dropped and the digit runs inside words read as '#' (a
 * date, a count, a page number, a price, 'u16'), month and weekday names of English, German, French, Spanish,
 * Italian, Portuguese and Dutch are read as one month and one weekday token (a calendar's months), and where the text
 * echoes the page's own URL (its path segments and query values) those tokens are dropped (a not-found page echoing
 * its path, a facet's value, a session id).
 */
import { fmix32, tokenKey } from './hash';
import { type Tokens, tokenize, tokenKeys, urlTokenKeys } from './tokens';

const MONTHS = [
  'january february march april may june july august september october november december',
  'jan feb mar apr jun jul aug sep sept oct nov dec',
  'januar jänner februar märz mai juni juli oktober dezember mär mrz okt dez',
  'janvier février fevrier mars avril juin juillet août aout septembre octobre novembre décembre decembre',
  'janv févr avr juil déc',
  'enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre',
  'gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre',
  'janeiro fevereiro março maio junho julho setembro outubro dezembro',
  'januari februari maart mei augustus',
];

const WEEKDAYS = [
  'monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun',
  'montag dienstag mittwoch donnerstag freitag samstag sonnabend sonntag',
  'lundi mardi mercredi jeudi vendredi samedi dimanche',
  'lunes martes miércoles miercoles jueves viernes sábado sabado domingo',
  'lunedì lunedi martedì martedi mercoledì mercoledi giovedì giovedi venerdì venerdi sabato domenica',
  'segunda terça terca quarta quinta sexta feira',
  'maandag dinsdag woensdag donderdag vrijdag zaterdag zondag',
];

/** Tokens looked up by key behind a filter on 12 bits of their second lane, which turns most tokens away alone. */
class TokenLookup {
  private readonly filter = new Uint8Array(4096);
  private readonly values: Map<number, number>;

  constructor(values: Map<number, number>) {
    this.values = values;
    // A key's lowest 21 bits are its second lane's (tokenKey).
    for (const key of values.keys()) this.filter[key % 4096] = 1;
  }

  /** The value of the token, 0 when it has none. */
  get(a: number, b: number): number {
    return this.filter[b & 4095] ? (this.values.get(tokenKey(a, b)) ?? 0) : 0;
  }
}

const IS_MONTH = 1;
const IS_WEEKDAY = 2;
const CALENDAR = new TokenLookup(
  new Map([
    ...[...tokenKeys(WEEKDAYS.join('\n'))].map((key) => [key, IS_WEEKDAY] as const),
    ...[...tokenKeys(MONTHS.join('\n'))].map((key) => [key, IS_MONTH] as const),
  ]),
);
/** The lanes a month and a weekday are read as: no text hashes to them but by chance (2^-64). */
const MONTH = [fmix32(0x6d6f6e74), fmix32(0x68000001)] as const;
const WEEKDAY = [fmix32(0x77656b64), fmix32(0x61790002)] as const;
/** The masked lanes of a number (a token of digits only). */
const NUMBER = tokenize('0');

/**
 * Which tokens echo the URL: a token of the URL where the text has it once, or next to another token of the URL (a
 * path or a query value written out), not where the text's own words repeat it.
 */
function echoes(tokens: Tokens, url: string): Uint8Array {
  const count = tokens.a.length;
  const echo = new Uint8Array(count);
  const own = new TokenLookup(new Map([...urlTokenKeys(url)].map((key) => [key, 1])));
  const inUrl = Uint8Array.from(tokens.a, (a, i) => own.get(a, tokens.b[i] ?? 0));
  const seen = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    if (!inUrl[i]) continue;
    const key = tokenKey(tokens.a[i] ?? 0, tokens.b[i] ?? 0);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  for (let i = 0; i < count; i++) {
    if (!inUrl[i]) continue;
    const once = (seen.get(tokenKey(tokens.a[i] ?? 0, tokens.b[i] ?? 0)) ?? 0) <= 1;
    if (once || inUrl[i - 1] || inUrl[i + 1]) echo[i] = 1;
  }
  return echo;
}

/**
 * The tokens with numbers and the URL's echoes dropped, then months, weekdays and the digits in words masked; a run
 * of one masked token is read once; lines left empty are dropped. Numbers are dropped wherever they are rather than
 * read as '#' (measured): a not-found page echoes a path with or without numbers, and a calendar's links name the next
 * year only in December. Echoes go before months are masked: a path may name a month (a not-found page's, a
 * calendar's own month). Only echoes go, not every token the URL has (measured): a path of common words ('the') took
 * them out of the page's own sentences too, and a not-found page's fixed text then read differently from its siblings'.
 */
export function templateTokens(tokens: Tokens, url: string): Tokens {
  const echo = echoes(tokens, url);
  const out: Tokens = { a: [], b: [], maskedA: [], maskedB: [], lineEnds: [] };
  let start = 0;
  for (const end of tokens.lineEnds) {
    let previousA = 0;
    let previousB = 0;
    for (let i = start; i < end; i++) {
      let a = tokens.maskedA[i] ?? 0;
      let b = tokens.maskedB[i] ?? 0;
      if (echo[i] || (a === NUMBER.maskedA[0] && b === NUMBER.maskedB[0])) continue;
      const kind = CALENDAR.get(tokens.a[i] ?? 0, tokens.b[i] ?? 0);
      if (kind !== 0) {
        a = kind === IS_MONTH ? MONTH[0] : WEEKDAY[0];
        b = kind === IS_MONTH ? MONTH[1] : WEEKDAY[1];
      }
      const masked = kind !== 0 || a !== tokens.a[i];
      // A run of one masked token (the days of a week) is read once.
      if (masked && a === previousA && b === previousB) continue;
      previousA = masked ? a : 0;
      previousB = masked ? b : 0;
      out.a.push(a | 0);
      out.b.push(b | 0);
    }
    if (out.a.length > (out.lineEnds.at(-1) ?? 0)) out.lineEnds.push(out.a.length);
    start = end;
  }
  out.maskedA = out.a;
  out.maskedB = out.b;
  return out;
}
