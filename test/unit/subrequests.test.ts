import { describe, expect, it } from 'vitest';
import { countedBindings } from '../../src/lib/counted-bindings';
import { SubrequestBudget, SubrequestsSpent } from '../../src/lib/subrequests';

describe('SubrequestBudget', () => {
  it('takes work while its plan fits, always the first, and refuses a subrequest past the limit', () => {
    const budget = new SubrequestBudget(50);
    budget.plan(30);
    expect(budget.take(12)).toBe(true);
    expect(budget.take(12)).toBe(false);
    const tight = new SubrequestBudget(50);
    tight.plan(45);
    expect(tight.take(12)).toBe(true); // the first, so that an invocation always gets somewhere
    expect(tight.take(1)).toBe(false);
    for (let i = 0; i < 50; i++) tight.spend();
    expect(tight.spent).toBe(50);
    expect(() => tight.spend()).toThrow(SubrequestsSpent);
    expect(tight.spent).toBe(50);
  });
});

describe('countedBindings', () => {
  it('counts calls that go out, not the handles they are made through, and leaves vars alone', async () => {
    let n = 0;
    const statement = { bind: () => statement, all: async () => ({ results: [] }) };
    const stub = { claim: async () => 'claimed' };
    const env = {
      NAME: 'a var',
      DB: { prepare: () => statement, batch: async () => [] },
      CRAWL: { getByName: () => stub, idFromName: () => 'an id' },
      BODIES: { get: async () => null, put: async () => null },
    };
    const counted = countedBindings(env, () => {
      n++;
    });
    expect(counted.NAME).toBe('a var');
    await counted.DB.prepare().bind().all();
    await counted.DB.batch();
    expect(counted.CRAWL.idFromName()).toBe('an id');
    expect(await counted.CRAWL.getByName().claim()).toBe('claimed');
    await counted.BODIES.get();
    await counted.BODIES.put();
    expect(n).toBe(5);
  });
});
