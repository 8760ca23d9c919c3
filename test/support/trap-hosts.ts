/**
 * The trap sites (trap-sites.ts) as hosts of the simulated web (sim-web.ts `--extra`): each trap kind on a loopback
 * address of its own (127.2.0.1, ...), its base the host's root, for a broad crawl that meets them as a crawl of the
 * web does (npm run bench:broad with TRAPS=1).
 */
import type { ExtraHost } from './sim-web.ts';
import { TRAP_KINDS, type TrapKind, trapSite } from './trap-sites.ts';

/** The trap kinds a broad crawl meets: every one but the near-duplicates' and the retire sites, which are no traps. */
export const BROAD_TRAPS: readonly TrapKind[] = TRAP_KINDS.filter((kind) => kind !== 'near' && kind !== 'retire');

/** The address of a trap kind's host. */
export const trapAddress = (kind: TrapKind): string => `127.2.0.${BROAD_TRAPS.indexOf(kind) + 1}`;

export const extraHosts: ExtraHost[] = BROAD_TRAPS.map((kind) => ({
  address: trapAddress(kind),
  handler: (req, res) => {
    const url = new URL(req.url ?? '/', 'http://trap');
    const reply = trapSite(kind, '/', url.pathname.slice(1), url.searchParams);
    res.writeHead(reply.status, reply.headers);
    res.end(reply.body);
  },
}));
