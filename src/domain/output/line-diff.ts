/**
 * A unified diff of two texts by lines (Myers' O(ND) algorithm), as `diff -u` prints it: hunks of changed lines with
 * `context` unchanged lines around them. Bounded: past `maxEdits` differing lines the diff is not computed (a page
 * rewritten whole is said to be so, not spelled out line by line).
 */

/** Differing lines past which no diff is computed (its frontiers take 8 bytes × 2·MAX_EDITS per edit: 8 MB). */
const MAX_EDITS = 1000;

type Edit = { op: ' ' | '-' | '+'; line: string };

export interface LineDiff {
  /** The unified diff (`@@ -a,b +c,d @@` hunks); '' when the texts are the same. */
  unified: string;
  added: number;
  removed: number;
  /** The texts differed in more than maxEdits lines: `unified` is empty, `added`/`removed` are the line counts. */
  tooLarge: boolean;
}

/** The shortest edit script from `a` to `b`, or null past `max` edits. */
function editScript(a: readonly string[], b: readonly string[], max: number): Edit[] | null {
  const offset = max + 1;
  const v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < a.length && y < b.length && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= a.length && y >= b.length) return backtrack(a, b, trace, offset, d);
    }
  }
  return null;
}

/** Walks the saved frontiers back from the end to the start, collecting the edits. */
function backtrack(a: readonly string[], b: readonly string[], trace: Int32Array[], offset: number, d: number): Edit[] {
  const edits: Edit[] = [];
  let x = a.length;
  let y = b.length;
  for (let step = d; step >= 0; step--) {
    const v = trace[step] ?? new Int32Array(0);
    const k = x - y;
    const down = k === -step || (k !== step && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = step === 0 ? 0 : (v[offset + prevK] ?? 0);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      edits.push({ op: ' ', line: a[x] ?? '' });
    }
    if (step > 0) edits.push(down ? { op: '+', line: b[--y] ?? '' } : { op: '-', line: a[--x] ?? '' });
  }
  return edits.reverse();
}

/** Edits grouped into hunks with `context` lines of context, as unified diff text. */
function hunks(edits: readonly Edit[], context: number): string {
  const out: string[] = [];
  let i = 0;
  const lineNo = { a: 0, b: 0 };
  while (i < edits.length) {
    const start = edits.findIndex((e, j) => j >= i && e.op !== ' ');
    if (start < 0) break;
    let end = start;
    for (let j = start; j < edits.length && j <= end + 2 * context; j++) if (edits[j]?.op !== ' ') end = j;
    const from = Math.max(i, start - context);
    const to = Math.min(edits.length, end + context + 1);
    for (let j = i; j < from; j++) advance(lineNo, edits[j]);
    const body = edits.slice(from, to);
    const aStart = lineNo.a;
    const bStart = lineNo.b;
    for (const e of body) advance(lineNo, e);
    const aLen = lineNo.a - aStart;
    const bLen = lineNo.b - bStart;
    out.push(`@@ -${aLen ? aStart + 1 : aStart},${aLen} +${bLen ? bStart + 1 : bStart},${bLen} @@`);
    for (const e of body) out.push(`${e.op}${e.line}`);
    i = to;
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

function advance(lineNo: { a: number; b: number }, edit: Edit | undefined): void {
  if (edit?.op !== '+') lineNo.a++;
  if (edit?.op !== '-') lineNo.b++;
}

const linesOf = (text: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

export function diffLines(
  before: string,
  after: string,
  options: { context?: number; maxEdits?: number } = {},
): LineDiff {
  const a = linesOf(before);
  const b = linesOf(after);
  const edits = editScript(a, b, options.maxEdits ?? MAX_EDITS);
  if (edits === null) return { unified: '', added: b.length, removed: a.length, tooLarge: true };
  const added = edits.filter((e) => e.op === '+').length;
  const removed = edits.filter((e) => e.op === '-').length;
  return { unified: hunks(edits, options.context ?? 3), added, removed, tooLarge: false };
}
