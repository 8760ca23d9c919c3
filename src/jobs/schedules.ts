import { parseCron } from '../domain/crawl/cron';
import { log } from '../log';
import { claimRun, dueSchedules, recordRun, type ScheduleRow } from '../storage/d1/schedules';
import { startCrawl } from './start';

/** When a schedule runs next, after `after` (epoch ms). */
export function nextRun(schedule: Pick<ScheduleRow, 'cron' | 'everySeconds'>, after: number): number {
  if (schedule.cron !== null) return parseCron(schedule.cron).next(new Date(after)).getTime();
  return after + (schedule.everySeconds ?? 3600) * 1000;
}

/**
 * The cron trigger: starts every schedule due at `now`, the trigger's scheduled time. Each run is a recrawl of
 * the schedule's previous crawl, so its requests are conditional and it reports what changed. A run is taken
 * with a conditional UPDATE first, so overlapping invocations never start it twice. Its next run counts from the
 * trigger's scheduled time, not from when the invocation happened to start, so a schedule of a whole number of
 * trigger periods runs on every such trigger instead of skipping one whenever an invocation starts late.
 */
export async function runDueSchedules(env: Env, now = Date.now()): Promise<string[]> {
  const started: string[] = [];
  for (const schedule of await dueSchedules(env.DB, now, 50)) {
    if (!(await claimRun(env.DB, schedule, nextRun(schedule, now), now))) continue;
    try {
      const crawlId = await startCrawl(
        env,
        { ...schedule.config, recrawlOf: schedule.lastCrawlId ?? true },
        { scheduleId: schedule.id },
      );
      await recordRun(env.DB, schedule.id, crawlId);
      started.push(crawlId);
      log('info', 'scheduled crawl started', { scheduleId: schedule.id, crawlId });
    } catch (error) {
      log('error', 'scheduled crawl failed to start', { scheduleId: schedule.id, error: String(error) });
    }
  }
  return started;
}
