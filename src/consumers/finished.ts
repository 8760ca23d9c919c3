import type { CrawlTask, Processed } from '../types';

/** The crawl's coordinator, as a consumer holds it. */
export type CrawlStub = ReturnType<Env['CRAWL']['getByName']>;

/** A claimed task of the batch, its attempt over: fetched and decided, or handed back (see processOne). */
export type Finished = { message: Message; task: CrawlTask; processed: Processed };
