/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week), evaluated in UTC:
 * `*`, numbers, ranges `a-b`, steps `*\/n` and `a-b/n`, lists `a,b`; day-of-week 0-7 (0 and 7 are Sunday).
 * As in Vixie cron, when both day fields are restricted a day matching either one matches.
 */
export class CronError extends Error {}

interface Field {
  values: Set<number>;
  any: boolean;
}

const RANGES: [number, number][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];
const NAMES = ['minute', 'hour', 'day of month', 'month', 'day of week'];

function parseField(text: string, index: number): Field {
  const [min, max] = RANGES[index] as [number, number];
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new CronError(`invalid ${NAMES[index]} field: ${JSON.stringify(text)}`);
    const step = m[4] === undefined ? 1 : Number(m[4]);
    const from = m[1] === '*' ? min : Number(m[2]);
    const to = m[1] === '*' ? max : m[3] === undefined ? (m[4] === undefined ? from : max) : Number(m[3]);
    if (step < 1 || from < min || to > max || from > to)
      throw new CronError(`${NAMES[index]} out of range in ${JSON.stringify(text)} (${min}-${max})`);
    for (let v = from; v <= to; v += step) values.add(index === 4 && v === 7 ? 0 : v);
  }
  return { values, any: text === '*' };
}

export interface Cron {
  /** The first matching minute strictly after `after`. */
  next(after: Date): Date;
}

export function parseCron(expression: string): Cron {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5)
    throw new CronError(`a cron expression has 5 fields (minute hour day month weekday), got ${parts.length}`);
  const [minute, hour, dom, month, dow] = parts.map((p, i) => parseField(p, i)) as [Field, Field, Field, Field, Field];
  const dayMatches = (d: Date) => {
    const byDom = dom.values.has(d.getUTCDate());
    const byDow = dow.values.has(d.getUTCDay());
    if (dom.any && dow.any) return true;
    if (dom.any) return byDow;
    if (dow.any) return byDom;
    return byDom || byDow;
  };
  return {
    next(after) {
      const t = new Date(after.getTime());
      t.setUTCSeconds(0, 0);
      t.setUTCMinutes(t.getUTCMinutes() + 1);
      // At most about five years of minutes, checked field by field (skipping whole days and hours).
      for (let guard = 0; guard < 5 * 366 * 24 * 60; guard++) {
        if (!month.values.has(t.getUTCMonth() + 1) || !dayMatches(t)) {
          t.setUTCDate(t.getUTCDate() + 1);
          t.setUTCHours(0, 0);
          continue;
        }
        if (!hour.values.has(t.getUTCHours())) {
          t.setUTCHours(t.getUTCHours() + 1, 0);
          continue;
        }
        if (!minute.values.has(t.getUTCMinutes())) {
          t.setUTCMinutes(t.getUTCMinutes() + 1);
          continue;
        }
        return t;
      }
      throw new CronError('the expression never matches');
    },
  };
}
