import { describe, expect, it } from 'vitest';
import { OfferedUrls } from '../../src/consumers/offered';

describe('OfferedUrls', () => {
  it('remembers URLs per crawl', () => {
    const offered = new OfferedUrls();
    offered.add('a', ['http://e.com/1', 'http://e.com/2']);
    expect(offered.has('a', 'http://e.com/1')).toBe(true);
    expect(offered.has('b', 'http://e.com/1')).toBe(false);
    expect(offered.has('a', 'http://e.com/3')).toBe(false);
  });

  it('drops the oldest crawl past its capacity, and restarts a crawl that alone outgrows it', () => {
    const offered = new OfferedUrls(4);
    offered.add('old', ['1', '2']);
    offered.add('new', ['1', '2']);
    offered.add('new', ['2', '3']); // 5 URLs: the old crawl goes
    expect(offered.has('old', '1')).toBe(false);
    expect(offered.has('new', '3')).toBe(true);
    offered.add('new', ['4', '5']); // the new crawl alone has 5
    expect(offered.has('new', '1')).toBe(false);
    offered.add('new', ['6']);
    expect(offered.has('new', '6')).toBe(true);
  });
});
