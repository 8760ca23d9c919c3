/**
 * The subrequests of one Worker invocation. Cloudflare counts every fetch and every call to a binding (a Durable
 * Object, R2, D1, a queue) against a limit per invocation (10,000 on Workers Paid by default, `[limits] subrequests`;
 * 50 on Free); past it the call throws, mid-batch. Work is planned against a budget below that limit, so that an
 * invocation stops starting work it could not finish rather than being cut off half way.
 */
export class SubrequestsSpent extends Error {
  constructor(limit: number) {
    super(`the invocation's ${limit} subrequests are spent`);
    this.name = 'SubrequestsSpent';
  }
}

export class SubrequestBudget {
  private made = 0;
  private planned = 0;
  private taken = 0;

  constructor(readonly limit: number) {}

  /** Subrequests made so far. */
  get spent(): number {
    return this.made;
  }

  /**
   * One subrequest about to be made: every one passes here (see countedBindings). Past the budget it is refused, so
   * the platform's limit is never met even when a plan fell short.
   */
  spend(): void {
    if (this.made >= this.limit) throw new SubrequestsSpent(this.limit);
    this.made++;
  }

  /** Work that must be done whatever comes (answering what was started): planned unconditionally. */
  plan(n: number): void {
    this.planned += n;
  }

  /**
   * Work that may be put off, planned only if it fits beside all that is planned already (each plan is the most that
   * work spends, so what is spent never runs past what is planned): false, nothing planned, put it off. The first is
   * always taken, so that an invocation always gets somewhere (spend() still refuses past the budget).
   */
  take(n: number): boolean {
    if (this.taken > 0 && this.planned + n > this.limit) return false;
    this.planned += n;
    this.taken++;
    return true;
  }
}
