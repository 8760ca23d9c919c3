/**
 * llms.txt (llmstxt.org): a markdown file that tells a language model what a site holds. An H1 with the site's
 * name, a blockquote summary, then H2 sections of `- [title](url): description` entries. Built a line at a time from
 * pages in URL order, so that a crawl of any size streams: pages of one section are contiguous in that order.
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

/** The section a page belongs to: its host (when the crawl has several) and the first segment of its path. */
export function sectionOf(url: string, withHost: boolean): string {
  const { host, pathname } = new URL(url);
  const segments = pathname.split('/').filter(Boolean);
  const first = segments.length > 1 ? decodeURIComponent(segments[0] ?? '') : '';
  const name = first === '' ? 'Pages' : first.replace(/[-_]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
  return withHost ? `${host}: ${name}` : name;
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
