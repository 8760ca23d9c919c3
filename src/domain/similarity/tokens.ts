/**
 * A text's tokens for the sketches, read in one pass and kept as hashes (no string per token): runs of letters, marks
 * and digits in any script, of the lower-cased text; a run in a script written without spaces (Han, Hiragana,
 * Katakana, Thai, Lao, Khmer, Myanmar) becomes its character bigrams (a lone character stays one token), as words
 * cannot be told apart there without a dictionary. Each token is two 32-bit lanes (FNV-1a over its UTF-16 code units,
 * finalized by murmur3's mix), and two more with each of its digit runs read as one '#' (for the template sketch).
 */
import { FNV_A, FNV_B, fmix32, PRIME_A, PRIME_B, tokenKey } from './hash';

export interface Tokens {
  /** Each token's two lanes. */
  a: number[];
  b: number[];
  /** Each token's lanes with its digit runs masked ('2031' -> '#', 'u16' -> 'u#'); the same lanes without digits. */
  maskedA: number[];
  maskedB: number[];
  /** The index after each line's last token (lines are the text's blocks; a line without a token is left out). */
  lineEnds: number[];
}

const OTHER = 1;
const WORD = 2;
const DIGIT = 3;
const NO_SPACE = 4;
const HASH_SIGN = 0x23;

const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const DIGIT_CHAR = /\p{Nd}/u;
const NO_SPACE_CHAR =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;

function classify(char: string): number {
  if (!WORD_CHAR.test(char)) return OTHER;
  if (NO_SPACE_CHAR.test(char)) return NO_SPACE;
  return DIGIT_CHAR.test(char) ? DIGIT : WORD;
}

/** The kind of each BMP code unit, found once (0: not yet); ASCII's from the start. */
const kinds = new Uint8Array(0x10000);
for (let c = 0; c < 0x80; c++) kinds[c] = classify(String.fromCharCode(c));

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Code units of the character at i: 2 for a surrogate pair, else 1. */
function widthAt(text: string, i: number, c: number): number {
  return isHigh(c) && isLow(text.charCodeAt(i + 1)) ? 2 : 1;
}

/** The kind of the character at i (c: its first code unit). */
function kindAt(text: string, i: number, c: number): number {
  if (widthAt(text, i, c) === 2) return classify(String.fromCodePoint(text.codePointAt(i) ?? 0));
  if (isHigh(c) || isLow(c)) return OTHER;
  const known = kinds[c] ?? 0;
  if (known !== 0) return known;
  const kind = classify(String.fromCharCode(c));
  kinds[c] = kind;
  return kind;
}

class Scanner {
  readonly out: Tokens = { a: [], b: [], maskedA: [], maskedB: [], lineEnds: [] };

  scan(text: string): Tokens {
    let i = 0;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      const kind = c === 10 ? 0 : c < 0x80 ? (kinds[c] ?? OTHER) : kindAt(text, i, c);
      if (kind === 0) {
        this.endLine();
        i++;
      } else if (kind === WORD || kind === DIGIT) i = this.word(text, i);
      else if (kind === NO_SPACE) i = this.noSpaceRun(text, i);
      else i += c < 0x80 ? 1 : widthAt(text, i, c);
    }
    this.endLine();
    return this.out;
  }

  /** A run of letters and digits from `start`: one token; returns where it ends. */
  private word(text: string, start: number): number {
    let ha = FNV_A;
    let hb = FNV_B;
    // The masked lanes follow the plain ones until the first digit (most words have none).
    let ma = 0;
    let mb = 0;
    let maskedLength = -1;
    let inDigits = false;
    let i = start;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      const ascii = c < 0x80;
      const kind = ascii ? (kinds[c] ?? OTHER) : kindAt(text, i, c);
      if (kind !== WORD && kind !== DIGIT) break;
      if (kind === DIGIT && maskedLength < 0) [ma, mb, maskedLength] = [ha, hb, i - start];
      const end = ascii ? i + 1 : i + widthAt(text, i, c);
      for (; i < end; i++) {
        const unit = text.charCodeAt(i);
        ha = Math.imul(ha ^ unit, PRIME_A);
        hb = Math.imul(hb ^ unit, PRIME_B);
        if (kind === DIGIT || maskedLength < 0) continue;
        ma = Math.imul(ma ^ unit, PRIME_A);
        mb = Math.imul(mb ^ unit, PRIME_B);
        maskedLength++;
      }
      if (kind === DIGIT && !inDigits) {
        ma = Math.imul(ma ^ HASH_SIGN, PRIME_A);
        mb = Math.imul(mb ^ HASH_SIGN, PRIME_B);
        maskedLength++;
      }
      inDigits = kind === DIGIT;
    }
    const [a, b] = [fmix32(ha), fmix32(hb ^ (i - start))];
    if (maskedLength < 0) this.push(a, b, a, b);
    else this.push(a, b, fmix32(ma), fmix32(mb ^ maskedLength));
    return i;
  }

  /** A run of a script without spaces from `start`: its bigrams (or its one character); returns where it ends. */
  private noSpaceRun(text: string, start: number): number {
    const starts: number[] = [];
    let i = start;
    while (i < text.length && kindAt(text, i, text.charCodeAt(i)) === NO_SPACE) {
      starts.push(i);
      i += widthAt(text, i, text.charCodeAt(i));
    }
    starts.push(i);
    if (starts.length === 2) this.span(text, start, i);
    for (let k = 0; k + 2 < starts.length; k++) this.span(text, starts[k] ?? 0, starts[k + 2] ?? 0);
    return i;
  }

  /** The code units [from, to) as one token. */
  private span(text: string, from: number, to: number): void {
    let ha = FNV_A;
    let hb = FNV_B;
    for (let i = from; i < to; i++) {
      ha = Math.imul(ha ^ text.charCodeAt(i), PRIME_A);
      hb = Math.imul(hb ^ text.charCodeAt(i), PRIME_B);
    }
    const a = fmix32(ha);
    const b = fmix32(hb ^ (to - from));
    this.push(a, b, a, b);
  }

  private push(a: number, b: number, maskedA: number, maskedB: number): void {
    this.out.a.push(a | 0);
    this.out.b.push(b | 0);
    this.out.maskedA.push(maskedA | 0);
    this.out.maskedB.push(maskedB | 0);
  }

  private endLine(): void {
    const count = this.out.a.length;
    if (count > (this.out.lineEnds.at(-1) ?? 0)) this.out.lineEnds.push(count);
  }
}

/** The tokens of a text, lower-cased first. */
export function tokenize(text: string): Tokens {
  return new Scanner().scan(text.toLowerCase());
}

/** The keys (tokenKey) of a text's tokens. */
export function tokenKeys(text: string): Set<number> {
  const { a, b } = tokenize(text);
  return new Set(a.map((lane, i) => tokenKey(lane, b[i] ?? 0)));
}

/**
 * The keys of the tokens of a URL's path segments and query values, both as written (percent-encoded) and decoded,
 * lower-cased; none for a string that is not a URL.
 */
export function urlTokenKeys(url: string): Set<number> {
  if (!URL.canParse(url)) return new Set();
  const parsed = new URL(url);
  const values = parsed.search
    .slice(1)
    .split('&')
    .map((pair) => pair.slice(pair.indexOf('=') + 1));
  const parts = [parsed.pathname, safeDecode(parsed.pathname), ...values, ...parsed.searchParams.values()];
  return tokenKeys(parts.join('\n'));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
