import { describe, expect, it } from 'vitest';
import { llmsEntry, llmsFullPage, llmsHead, llmsSection, sectionOf } from '../../src/domain/llms-txt';

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
    expect(sectionOf('https://e.com/', false)).toBe('Pages');
    expect(sectionOf('https://e.com/about.html', false)).toBe('Pages');
    expect(sectionOf('https://e.com/getting-started/install', false)).toBe('Getting started');
    expect(sectionOf('https://docs.e.com/api/x', true)).toBe('docs.e.com: Api');
    expect(llmsSection('Api')).toBe('\n## Api\n\n');
  });

  it('writes a page of llms-full.txt as its title, its source and its markdown', () => {
    expect(llmsFullPage({ url: 'https://e.com/a', title: 'A', description: null }, '\nText.\n')).toBe(
      '# A\n\nSource: https://e.com/a\n\nText.\n\n---\n\n',
    );
  });
});
