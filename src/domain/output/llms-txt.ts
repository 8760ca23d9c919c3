/**
 * llms.txt (llmstxt.org): a markdown file that tells a language model what a site holds. An H1 with the site's
 * name, a blockquote summary, then H2 sections of `- [title](url): description` entries, each section once. Built a
 * line at a time, so that a crawl of any size streams: a first pass over the pages' URLs plans the sections
 * (SectionPlanner), a second reads them section by section (packReads).
 */

/** What one line of llms.txt needs of a page. */
export interface LlmsPage {
  url: string;
  title: string | null;
  description: string | null;
}

/** One line of markdown: whitespace collapsed, cut at `max` characters. */
const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** Text inside [ ] of a markdown link. */
const linkText = (text: string): string => oneLine(text, 200).replace(/([[\]\\])/g, '\\$1');

/** How a crawl's pages are put in sections: by host too (a crawl of several), and below each seed host's directory. */
export interface SectionContext {
  withHost: boolean;
  /** Per host (with its port), the directory its seeds share ("/3/" for docs.python.org/3/); other hosts: "/". */
  bases: ReadonlyMap<string, string>;
}

/** The directory of a path: up to its last slash. */
const directoryOf = (path: string): string => path.slice(0, path.lastIndexOf('/') + 1);

/** The longest directory two directories share ("/a/b/" and "/a/c/" share "/a/"). */
function sharedDirectory(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return directoryOf(a.slice(0, i));
}

export function sectionContext(seeds: readonly string[], withHost: boolean): SectionContext {
  const bases = new Map<string, string>();
  for (const seed of seeds) {
    const { host, pathname } = new URL(seed);
    const dir = directoryOf(pathname);
    const known = bases.get(host);
    bases.set(host, known === undefined ? dir : sharedDirectory(known, dir));
  }
  return { withHost, bases };
}

/**
 * The section a page belongs to: the first segment of its path below its host's base directory when a slash follows
 * it (a directory, its own page "/blog/" included), else "Pages" (the pages of the base directory itself); a page
 * outside the base directory is named from the root. With `withHost`, the host comes first.
 */
export function sectionOf(url: string, context: SectionContext): string {
  const { host, pathname } = new URL(url);
  const base = context.bases.get(host) ?? '/';
  const path = pathname.startsWith(base) ? pathname.slice(base.length) : pathname.slice(1);
  const slash = path.indexOf('/');
  const first = slash > 0 ? decodeURIComponent(path.slice(0, slash)) : '';
  const name = first === '' ? 'Pages' : first.replace(/[-_]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
  return context.withHost ? `${host}: ${name}` : name;
}

/** Pages next to each other in URL order that share a section: from and to (inclusive), how many. */
export interface Run {
  from: string;
  to: string;
  rows: number;
}

/** A section: its heading, the runs of its pages in URL order, how many pages. */
export interface Section {
  label: string;
  runs: Run[];
  rows: number;
}

/**
 * Gathers the sections of pages given in URL order, each section once, in the order they first appear. URL order
 * interleaves sections (a site's top-level pages sort between its directories, one host's http and https URLs apart),
 * so a section is kept as its runs: a later pass reads each section's pages by its runs' ranges of URLs. It holds
 * one run per change of section in URL order, not the pages.
 */
export class SectionPlanner {
  private readonly byLabel = new Map<string, Section>();
  private last: Run | null = null;
  private lastLabel = '';

  constructor(private readonly context: SectionContext) {}

  add(url: string): void {
    const label = sectionOf(url, this.context);
    if (this.last && label === this.lastLabel) {
      this.last.to = url;
      this.last.rows += 1;
    } else {
      this.last = { from: url, to: url, rows: 1 };
      this.lastLabel = label;
      const section = this.byLabel.get(label) ?? { label, runs: [], rows: 0 };
      section.runs.push(this.last);
      this.byLabel.set(label, section);
    }
    const section = this.byLabel.get(label);
    if (section) section.rows += 1;
  }

  sections(): Section[] {
    return [...this.byLabel.values()];
  }
}

/** A read of pages: the runs it reads (in URL order), and the sections they hold, in the order they are written. */
export interface SectionRead {
  labels: string[];
  runs: Run[];
}

/**
 * The reads that write the sections in order: small sections together (up to `rows` pages and `runs` runs a read, so
 * a site of many small sections is not a query per section), a large one alone, its runs `runs` at a time.
 */
export function packReads(sections: readonly Section[], limits: { rows: number; runs: number }): SectionRead[] {
  const reads: SectionRead[] = [];
  let pack: SectionRead = { labels: [], runs: [] };
  let packRows = 0;
  const flush = () => {
    if (pack.labels.length > 0) reads.push(pack);
    pack = { labels: [], runs: [] };
    packRows = 0;
  };
  for (const section of sections) {
    if (section.rows > limits.rows || section.runs.length > limits.runs) {
      flush();
      for (let i = 0; i < section.runs.length; i += limits.runs)
        reads.push({ labels: [section.label], runs: section.runs.slice(i, i + limits.runs) });
      continue;
    }
    if (packRows + section.rows > limits.rows || pack.runs.length + section.runs.length > limits.runs) flush();
    pack.labels.push(section.label);
    pack.runs.push(...section.runs);
    packRows += section.rows;
  }
  flush();
  return reads;
}

/** The file's head: the site's name and a one-paragraph summary. */
export function llmsHead(name: string, summary: string): string {
  return `# ${oneLine(name, 200)}\n\n> ${oneLine(summary, 500)}\n`;
}

export const llmsSection = (section: string): string => `\n## ${oneLine(section, 200)}\n\n`;

/** A character as %XX (encodeURIComponent leaves parentheses alone, which end a markdown link). */
const percent = (c: string): string => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/** `- [title](url): description` (the URL as the title when the page has none). */
export function llmsEntry(page: LlmsPage): string {
  const title = page.title?.trim() ? page.title : page.url;
  const note = page.description?.trim() ? `: ${oneLine(page.description, 300)}` : '';
  return `- [${linkText(title)}](${page.url.replace(/[()\s]/g, percent)})${note}\n`;
}

/** One page of llms-full.txt: its title, where it came from, its markdown. */
export function llmsFullPage(page: LlmsPage, markdown: string): string {
  const title = page.title?.trim() ? oneLine(page.title, 200) : page.url;
  return `# ${title}\n\nSource: ${page.url}\n\n${markdown.trim()}\n\n---\n\n`;
}
