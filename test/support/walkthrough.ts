/**
 * The README's walk-through, read as a script: its setup (the variables it sets, how it starts the crawler and the
 * site) and its steps (each command, and the answer its `# ...` comment shows). An answer shown as JSON is a shape:
 * `…` in a string stands for any string, `{…}` for any object, and a member or item `…` for more of them.
 */

export interface Walkthrough {
  /** The shell lines that set variables (`TOKEN=dev-token`). */
  variables: string[];
  /** The arguments after `npm start --` the comments say to start it with. */
  npmStartArgs: string[];
  /** The command the comments say serves the folder to crawl. */
  serve: string;
  steps: Step[];
}

interface Step {
  /** As written, continuation lines included. */
  command: string;
  /** The comment after it, without its `# `. */
  answer: string;
}

/** The walk-through of `readme`: the sh block of its "## Walk-through" section. */
export function readWalkthrough(readme: string): Walkthrough {
  const section = readme.slice(readme.indexOf('## Walk-through'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README.md: no sh block under "## Walk-through"');
  const [setup = '', ...paragraphs] = block.split(/\n\s*\n/);
  const npmStart = /^#\s+npm start -- (.+)$/m.exec(setup)?.[1];
  const serve = /^#\s+(python3 -m http\.server .+?)(?:\s{2,}.*)?$/m.exec(setup)?.[1];
  if (npmStart === undefined || serve === undefined)
    throw new Error('README.md: the walk-through no longer says how to start npm start and serve a folder');
  return {
    variables: setup.split('\n').filter((line) => /^[A-Z_]+=\S+$/.test(line)),
    npmStartArgs: npmStart.trim().split(/\s+/),
    serve,
    steps: paragraphs.map(readStep),
  };
}

function readStep(paragraph: string): Step {
  const lines = paragraph.trim().split('\n');
  const command = lines.filter((line) => !line.startsWith('#')).join('\n');
  const answer = lines
    .filter((line) => line.startsWith('#'))
    .map((line) => line.replace(/^# ?/, ''))
    .join('\n');
  return { command, answer };
}

export type Shape =
  | { kind: 'object'; members: [string, Shape][]; open: boolean }
  | { kind: 'array'; items: Shape[]; open: boolean }
  | { kind: 'string' }
  | { kind: 'number' }
  | { kind: 'literal'; value: boolean | null };

/** The JSON shape an answer starts with, and the prose after it; null when the answer is prose only. */
export function readShape(answer: string): { shape: Shape; rest: string } | null {
  if (!answer.startsWith('{')) return null;
  const reader = { text: answer, at: 0 };
  const shape = value(reader);
  return { shape, rest: answer.slice(reader.at).trim() };
}

interface Reader {
  text: string;
  at: number;
}

const ELLIPSIS = '…';

function skip(reader: Reader): string {
  while (/\s/.test(reader.text[reader.at] ?? '')) reader.at++;
  return reader.text[reader.at] ?? '';
}

function expectChar(reader: Reader, char: string): void {
  if (skip(reader) !== char)
    throw new Error(`README answer: expected ${char} at ${reader.at}: ${reader.text.slice(reader.at, reader.at + 30)}`);
  reader.at++;
}

function value(reader: Reader): Shape {
  const next = skip(reader);
  if (next === '{') return object(reader);
  if (next === '[') return array(reader);
  if (next === '"') {
    string(reader);
    return { kind: 'string' };
  }
  const literal = /^(true|false|null|-?\d+(?:\.\d+)?)/.exec(reader.text.slice(reader.at))?.[1];
  if (literal === undefined) throw new Error(`README answer: no value at ${reader.text.slice(reader.at, 30)}`);
  reader.at += literal.length;
  return /\d/.test(literal) ? { kind: 'number' } : { kind: 'literal', value: JSON.parse(literal) as boolean | null };
}

function string(reader: Reader): string {
  const end = reader.text.indexOf('"', reader.at + 1);
  const text = reader.text.slice(reader.at + 1, end);
  reader.at = end + 1;
  return text;
}

/** The members or items of `{…}` or `[…]`, each read by `read`, and whether a `…` says there are more. */
function list<T>(reader: Reader, close: string, read: () => T): { entries: T[]; open: boolean } {
  const entries: T[] = [];
  let open = false;
  reader.at++;
  while (skip(reader) !== close) {
    if (reader.text.startsWith(ELLIPSIS, reader.at)) {
      reader.at += ELLIPSIS.length;
      open = true;
    } else entries.push(read());
    if (skip(reader) === ',') reader.at++;
  }
  reader.at++;
  return { entries, open };
}

function object(reader: Reader): Shape {
  const { entries, open } = list(reader, '}', (): [string, Shape] => {
    skip(reader);
    const key = string(reader);
    expectChar(reader, ':');
    return [key, value(reader)];
  });
  return { kind: 'object', members: entries, open };
}

function array(reader: Reader): Shape {
  const { entries, open } = list(reader, ']', () => value(reader));
  return { kind: 'array', items: entries, open };
}

/** How `actual` differs from `shape`, one line a difference (none: it has the shape). */
export function shapeProblems(shape: Shape, actual: unknown, path = '$'): string[] {
  switch (shape.kind) {
    case 'string':
    case 'number':
      return typeof actual === shape.kind ? [] : [`${path}: ${JSON.stringify(actual)} is not a ${shape.kind}`];
    case 'literal':
      return actual === shape.value ? [] : [`${path}: ${JSON.stringify(actual)} is not ${String(shape.value)}`];
    case 'array':
      if (!Array.isArray(actual)) return [`${path}: ${JSON.stringify(actual)} is not an array`];
      if (!shape.open && actual.length !== shape.items.length)
        return [`${path}: ${actual.length} items where the README shows ${shape.items.length}`];
      // Items beyond those shown have the last one's shape.
      return actual.flatMap((item, i) => {
        const itemShape = shape.items[Math.min(i, shape.items.length - 1)];
        return itemShape ? shapeProblems(itemShape, item, `${path}[${i}]`) : [];
      });
    case 'object':
      return objectProblems(shape, actual, path);
  }
}

function objectProblems(shape: Extract<Shape, { kind: 'object' }>, actual: unknown, path: string): string[] {
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
    return [`${path}: ${JSON.stringify(actual)} is not an object`];
  const record = new Map(Object.entries(actual));
  const shown = new Set(shape.members.map(([key]) => key));
  const problems = shape.members.flatMap(([key, member]) =>
    record.has(key) ? shapeProblems(member, record.get(key), `${path}.${key}`) : [`${path}.${key}: missing`],
  );
  const unshown = [...record.keys()].filter((key) => !shown.has(key));
  if (!shape.open && unshown.length > 0)
    problems.push(`${path}: has ${unshown.join(', ')}, which the README does not show (nor a "…")`);
  return problems;
}
