import { UsageMeter } from '../../domain/crawl/usage';
import { log } from '../../log';
import { emitWebhookEvents, webhookEvent } from '../../queues/webhook-events';
import { setCrawlStatus } from '../../storage/d1/crawls';
import type { CrawlConfig, CrawlStatus, CrawlSummary } from '../../types';
import type { Ledger } from './ledger';

/** What `synced` says of a cancelled crawl synced with URLs still pending: no status, so it stays owed. */
const UNSETTLED = 'cancelled, unsettled';

const isStatus = (v: string | null): v is CrawlStatus => v === 'running' || v === 'completed' || v === 'cancelled';

/**
 * The crawl's status (the coordinator is its source of truth) and what each change of it owes the world:
 * - running -> completed (nothing pending) or cancelled (DELETE); completed -> running again (retry-errors);
 * - after each change, D1's crawls row is owed the new status (`synced` says which status it has), and an ending of a
 *   crawl with a webhook is owed its crawl.completed or crawl.cancelled event (`notified` says which ending was sent),
 *   once per ending: a crawl run again and ended again is owed a new event.
 * What fails is owed still: the alarm calls sync() again. A cancelled crawl synced while URLs of it were still pending
 * (its frontier is ended a step at a time, leased URLs when their attempts end) owes D1 its summary again: each
 * sweep syncs it until nothing is pending, so the list shows the counts the crawl settled at.
 */
export class StatusMirror {
  private current: CrawlStatus = 'running';

  constructor(private readonly ledger: Ledger) {}

  load(): void {
    const status = this.meta('status');
    this.current = isStatus(status) ? status : 'running';
  }

  get status(): CrawlStatus {
    return this.current;
  }

  /** Sets the status; an ending is timed (finishedAt), a crawl running again is not finished. */
  set(status: CrawlStatus, now = Date.now()): void {
    this.current = status;
    this.setMeta('status', status);
    this.setMeta('finishedAt', status === 'running' ? '' : String(now));
  }

  /** When the crawl last ended (ms since the epoch), or null while it runs (or for a crawl ended before this was kept). */
  get finishedAt(): number | null {
    const at = Number(this.meta('finishedAt') ?? '');
    return this.current === 'running' || !Number.isFinite(at) || at <= 0 ? null : at;
  }

  /** Whether D1 (or the webhook) is still owed the current status. */
  owed(): boolean {
    return this.meta('synced') !== this.current;
  }

  /** Pays what is owed; false when something failed (to be tried again). */
  async sync(env: Env, crawlId: string, config: CrawlConfig, summary: CrawlSummary): Promise<boolean> {
    const status = this.current;
    // An ending is told as of when it happened, however late this sync runs.
    const now = this.finishedAt ?? Date.now();
    const counts = summary.counts;
    try {
      await setCrawlStatus(env.DB, crawlId, status, now, summary);
      const notified = this.meta('notified') ?? 'running';
      if (status !== 'running' && notified !== status) {
        // Marked first, so a sync running beside this one (the alarm) does not send the event as well.
        this.setMeta('notified', status);
        const type = status === 'completed' ? 'crawl.completed' : 'crawl.cancelled';
        const event = webhookEvent(type, crawlId, { status, counts, finishedAt: new Date(now).toISOString() }, now);
        const meter = new UsageMeter();
        if (!(await emitWebhookEvents(env.WEBHOOKS, config, [event], meter))) {
          this.setMeta('notified', notified);
          throw new Error('webhook event not queued');
        }
        this.ledger.add(meter.usage);
      } else this.setMeta('notified', status);
      this.setMeta('synced', status === 'cancelled' && summary.pending > 0 ? UNSETTLED : status);
      return true;
    } catch (error) {
      log('error', 'crawl status sync failed (D1, or the webhook event); the alarm retries', {
        crawlId,
        error: String(error),
      });
      return false;
    }
  }

  private meta(key: string): string | null {
    return this.ledger.exec<{ v: string }>('SELECT v FROM meta WHERE k = ?', key)[0]?.v ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.ledger.exec('INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v', key, value);
  }
}
