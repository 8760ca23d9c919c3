import { describe, expect, it } from 'vitest';
import {
  llmsEntry,
  llmsFullPage,
  llmsHead,
  llmsSection,
  packReads,
  SectionPlanner,
  sectionContext,
  sectionOf,
} from '../../src/domain/output/llms-txt';

describe('llms.txt lines', () => {
  it('heads the file with the name as H1 and the summary as a blockquote, on one line each', () => {
    expect(llmsHead('Example\nDocs', 'All   the docs\nof Example.')).toBe(
      '# Example Docs\n\n> All the docs of Example.\n',
    );
  });

  it('lists a page as a markdown link with its description, escaping what would break the link', () => {
    expect(llmsEntry({ url: 'https://e.com/a', title: 'A [beta] guide', description: 'How to\nstart.' })).toBe(
      '- [A \\[beta\\] guide](https://e.com/a): How to start.\n',
    );
    expect(llmsEntry({ url: 'https://e.com/wiki/X_(y)', title: null, description: null })).toBe(
      '- [https://e.com/wiki/X_(y)](https://e.com/wiki/X_%28y%29)\n',
    );
    expect(llmsEntry({ url: 'https://e.com/', title: 'Home', description: 'x'.repeat(400) })).toMatch(/: x{299}…\n$/);
  });

  it('groups pages by the first segment of their path, and by host when the crawl has several', () => {
    const one = sectionContext(['https://e.com/'], false);
    expect(sectionOf('https://e.com/', one)).toBe('Pages');
    expect(sectionOf('https://e.com/about.html', one)).toBe('Pages');
    expect(sectionOf('https://e.com/getting-started/install', one)).toBe('Getting started');
    expect(sectionOf('https://docs.e.com/api/x', sectionContext(['https://e.com/'], true))).toBe('docs.e.com: Api');
    expect(llmsSection('Api')).toBe('\n## Api\n\n');
  });

  it("puts a directory's own page in the directory's section, not in Pages", () => {
    const one = sectionContext(['https://e.com/'], false);
    expect(sectionOf('https://e.com/blog/', one)).toBe('Blog');
    expect(sectionOf('https://e.com/docs/', one)).toBe('Docs');
    expect(sectionOf('https://e.com/blog', one)).toBe('Pages');
    expect(sectionOf('https://e.com/search?q=a/b', one)).toBe('Pages');
  });

  it("names sections below the seeds' directory: a site under /3/ is not one section", () => {
    const python = sectionContext(['https://docs.python.org/3/'], false);
    expect(sectionOf('https://docs.python.org/3/', python)).toBe('Pages');
    expect(sectionOf('https://docs.python.org/3/contents.html', python)).toBe('Pages');
    expect(sectionOf('https://docs.python.org/3/library/os.html', python)).toBe('Library');
    expect(sectionOf('https://docs.python.org/3/c-api/', python)).toBe('C api');
    // Outside the seeds' directory, and on other hosts: from the root.
    expect(sectionOf('https://docs.python.org/2/library/os.html', python)).toBe('2');
    const two = sectionContext(['https://e.com/a/x.html', 'https://e.com/a/b/y.html', 'https://f.com/'], true);
    expect(sectionOf('https://e.com/a/b/z.html', two)).toBe('e.com: B');
    expect(sectionOf('https://f.com/a/b/z.html', two)).toBe('f.com: A');
  });

  it('plans each section once: runs of pages in URL order, read by section, small sections read together', () => {
    const context = sectionContext(['https://e.com/'], false);
    const planner = new SectionPlanner(context);
    const urls = ['/', '/about.html', '/blog/', '/blog/a', '/contact.html', '/docs/', '/docs/x/y', '/zebra.html'];
    for (const path of urls) planner.add(`https://e.com${path}`);
    const sections = planner.sections();
    const path = (url: string) => url.slice('https://e.com'.length);
    expect(sections.map((s) => [s.label, s.rows, s.runs.map((r) => `${path(r.from)} ${path(r.to)}`)])).toEqual([
      ['Pages', 4, ['/ /about.html', '/contact.html /contact.html', '/zebra.html /zebra.html']],
      ['Blog', 2, ['/blog/ /blog/a']],
      ['Docs', 2, ['/docs/ /docs/x/y']],
    ]);
    expect(packReads(sections, { rows: 6, runs: 40 }).map((r) => r.labels)).toEqual([['Pages', 'Blog'], ['Docs']]);
    // A section larger than a read is read alone, its runs in chunks.
    expect(packReads(sections, { rows: 3, runs: 2 }).map((r) => [r.labels, r.runs.length])).toEqual([
      [['Pages'], 2],
      [['Pages'], 1],
      [['Blog'], 1],
      [['Docs'], 1],
    ]);
  });

  it('writes a page of llms-full.txt as its title, its source and its markdown', () => {
    expect(llmsFullPage({ url: 'https://e.com/a', title: 'A', description: null }, '\nText.\n')).toBe(
      '# A\n\nSource: https://e.com/a\n\nText.\n\n---\n\n',
    );
  });
});
