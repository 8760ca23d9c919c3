import { parseStoredConfig } from '../../crawl-config';
import type { CrawlConfig } from '../../types';
import type { Ledger } from './ledger';

/** The crawl's id and config: set once by start(), then read from memory (a config never changes). */
export class CrawlMeta {
  private cachedId: string | null | undefined;
  private cachedConfig: CrawlConfig | null | undefined;
  private exists: boolean | undefined;

  constructor(private readonly ledger: Ledger) {}

  /** Whether the object has its tables: a crawl was started here (and not purged). */
  tablesExist(): boolean {
    this.exists ??= this.ledger.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").length > 0;
    return this.exists;
  }

  init(crawlId: string, config: CrawlConfig): void {
    this.exists = true;
    this.set('id', crawlId);
    this.set('config', JSON.stringify(config));
    this.cachedId = crawlId;
    this.cachedConfig = config;
  }

  /** The crawl's id, or null for no such crawl. */
  get id(): string | null {
    if (this.cachedId === undefined) this.cachedId = this.tablesExist() ? this.get('id') : null;
    return this.cachedId;
  }

  get config(): CrawlConfig | null {
    if (this.cachedConfig === undefined) {
      const raw = this.id === null ? null : this.get('config');
      this.cachedConfig = raw === null ? null : parseStoredConfig(raw, `crawl ${this.id}`);
    }
    return this.cachedConfig;
  }

  /** The crawl's storage was deleted. */
  forget(): void {
    this.exists = false;
    this.cachedId = null;
    this.cachedConfig = null;
  }

  private get(key: string): string | null {
    return this.ledger.exec<{ v: string }>('SELECT v FROM meta WHERE k = ?', key)[0]?.v ?? null;
  }

  private set(key: string, value: string): void {
    this.ledger.exec('INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v', key, value);
  }
}
