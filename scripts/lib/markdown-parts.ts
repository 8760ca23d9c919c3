/**
 * The parts of an extraction's Markdown the docs bench checks: fenced code blocks (with their info strings), GFM
 * tables (rows and columns), and headings, each read outside fences.
 */

export interface Fence {
  info: string;
  content: string;
}

interface MdTable {
  rows: number;
  cols: number;
}

export interface MarkdownParts {
  fences: Fence[];
  tables: MdTable[];
  headings: string[];
}

const OPEN = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** Cells of a table row, escaped pipes kept inside their cell. */
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/).length;

/** A GFM table starting at line i (header, separator, body rows), or null. */
function tableAt(lines: string[], i: number): { table: MdTable; end: number } | null {
  const header = lines[i] ?? '';
  const separator = lines[i + 1] ?? '';
  if (!header.includes('|') || !separator.includes('-') || !SEPARATOR.test(separator)) return null;
  let end = i + 2;
  while (end < lines.length && (lines[end] ?? '').includes('|') && (lines[end] ?? '').trim() !== '') end++;
  return { table: { rows: end - i - 1, cols: cells(separator) }, end };
}

export function markdownParts(markdown: string): MarkdownParts {
  const lines = markdown.split('\n');
  const parts: MarkdownParts = { fences: [], tables: [], headings: [] };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const open = OPEN.exec(line);
    if (open) {
      const [, indent = '', marks = '```', info = ''] = open;
      const body: string[] = [];
      const close = new RegExp(`^\\s*${marks[0] === '`' ? '`' : '~'}{${marks.length},}\\s*$`);
      for (i++; i < lines.length && !close.test(lines[i] ?? ''); i++)
        body.push((lines[i] ?? '').startsWith(indent) ? (lines[i] ?? '').slice(indent.length) : (lines[i] ?? ''));
      parts.fences.push({ info, content: body.join('\n') });
      continue;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) parts.headings.push(heading[1] ?? '');
    const table = tableAt(lines, i);
    if (table) {
      parts.tables.push(table.table);
      i = table.end - 1;
    }
  }
  return parts;
}
