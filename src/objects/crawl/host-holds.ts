import type { Leases } from '../../domain/crawl/leases';
import { hostKey } from '../../domain/url/normalize';
import { log } from '../../log';
import { releaseCrawl } from '../host-gate-client';
import type { SeenSet } from './seen-set';

/**
 * Host gates called when a crawl ends, at most (a Durable Object call each, from one invocation of the crawl's own):
 * the slots of any more are kept until their time has passed, an hour at most.
 */
const MAX_HOSTS_RELEASED = 1000;

/**
 * Which host gates may hold slots of a crawl, so that it gives them back when it ends (docs/politeness.md): the
 * hosts of its URLs holding a reservation still ahead (their rows say so), of its URLs under lease (their consumers
 * hold granted slots, or are asking for them), and of URLs whose consumer died (it may have reserved slots it never
 * reported). Found from what the crawl records anyway: nothing more is written per page.
 */
export class HostHolds {
  /** Hosts of URLs whose lease expired since this instance was made. */
  private readonly lost = new Set<string>();

  constructor(
    private readonly seen: SeenSet,
    private readonly leases: Leases,
  ) {}

  /** URLs whose lease expired: their consumer may have reserved slots it never reported. */
  noteLost(urls: readonly string[]): void {
    for (const url of urls) this.lost.add(hostKey(url));
  }

  hosts(now: number): Set<string> {
    const urls = [...this.seen.reservedAfter(now), ...this.leases.live(now)];
    return new Set([...this.lost, ...urls.map(hostKey)]);
  }

  /**
   * Every gate that may hold slots of the crawl gives them back (`ended`: the crawl will not run again, and what it
   * still asks for is refused). Returns the slots given back.
   */
  async giveBack(env: Env, crawlId: string, ended: boolean): Promise<number> {
    const hosts = [...this.hosts(Date.now())];
    this.lost.clear();
    if (hosts.length > MAX_HOSTS_RELEASED)
      log('warn', "a crawl's slots given back on its first hosts only", { crawlId, hosts: hosts.length });
    const released = hosts.slice(0, MAX_HOSTS_RELEASED);
    return released.length === 0 ? 0 : releaseCrawl(env.HOSTS, crawlId, released, ended);
  }
}
