import type { Ledger } from './ledger';

/** The crawl's cookie jar as its object keeps it: sealed (the consumers seal and open it), with a version. */
export interface StoredJar {
  sealed: string | null;
  version: number;
}

/**
 * A logged-in crawl's cookie jar (domain/credentials/cookie-jar.ts), kept sealed in the crawl's object so that every
 * consumer invocation reads and writes the same one: a write names the version it read and is refused when another
 * wrote since (the writer reads again and merges). Two meta rows; deleted with the object's storage (purge).
 */
export class CookieJarStore {
  constructor(private readonly ledger: Ledger) {}

  read(): StoredJar {
    const rows = this.ledger.exec<{ k: string; v: string }>("SELECT k, v FROM meta WHERE k IN ('jar', 'jarVersion')");
    const of = (key: string) => rows.find((r) => r.k === key)?.v ?? null;
    return { sealed: of('jar'), version: Number(of('jarVersion') ?? 0) };
  }

  /** Keeps `sealed` if the jar is still at `version`; false: it changed since (read it again). */
  write(sealed: string, version: number): boolean {
    if (this.read().version !== version) return false;
    const upsert = 'INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v';
    this.ledger.exec(upsert, 'jar', sealed);
    this.ledger.exec(upsert, 'jarVersion', String(version + 1));
    return true;
  }
}
