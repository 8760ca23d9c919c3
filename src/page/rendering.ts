import type { OutcomeCode } from '../domain/crawl/outcome-codes';
import { withJar } from '../domain/credentials/cookie-jar';
import {
  actionsNotDone,
  BROWSER_WAIT_TRIES,
  RENDER_TRIES,
  type RenderWhy,
  renderWhy,
  screenshotOf,
  waitBudgetMs,
} from '../domain/render/rules';
import type { Processed } from '../types';
import { BrowserUnavailable } from './browsers';
import type { RenderDeps } from './deps';
import { finish, type Job } from './job';
import { type Rendered, type RenderRequest, renderIn } from './render';

export type RenderStep =
  | { kind: 'plain' }
  | { kind: 'rendered'; why: RenderWhy; html: Uint8Array; screenshot: Uint8Array | null; warnings: string[] }
  /** Wanted, and not to be had: the page is stored as fetched, with this warning. */
  | { kind: 'unrendered'; warning: string }
  /** Actions were asked for and could not all be done (or the page not rendered to do them): the page fails. */
  | { kind: 'failed'; reason: string; code: OutcomeCode }
  /** A transient fault: the URL goes back to the queue (no attempt used up). */
  | { kind: 'requeue'; processed: Processed };

/**
 * Renders a fetched HTML page in a browser when its crawl says so: always, for a screenshot, or (auto) when `need`
 * finds the plain HTML does not hold the page. A render is a request to the host: it takes a slot of the host gate.
 * A page given actions (a scrape's) fails when they cannot all be done, rather than being stored unrendered.
 */
export async function renderStep(job: Job, need: () => string | null): Promise<RenderStep> {
  const step = await renderPage(job, need);
  const actions = job.deps.render?.actions?.length ?? 0;
  if (step.kind !== 'unrendered' || actions === 0) return step;
  return { kind: 'failed', reason: actionsNotDone(actions, step.warning), code: 'render_failed' };
}

async function renderPage(job: Job, need: () => string | null): Promise<RenderStep> {
  const render = job.deps.render;
  if (!render) return { kind: 'plain' };
  const screenshot = screenshotOf(render.formats);
  const why = renderWhy({ render: render.options.render, screenshot }, need);
  if (why === null) return { kind: 'plain' };
  const stop = (await render.guard?.()) ?? null;
  if (stop !== null) return requeue(job, { kind: 'released', reason: stop, retryDelaySeconds: 1 });
  if (!(await render.take()))
    return { kind: 'unrendered', warning: `render: maxRenders (${render.options.maxRenders}) reached, not rendered` };
  const admission = await job.deps.gate(job.task.url, job.deps.politeness);
  if (admission.kind === 'throttled') {
    const retryDelaySeconds = Math.max(1, Math.ceil(admission.retryInMs / 1000));
    return requeue(job, { kind: 'throttled', reason: 'waiting for the host to render', retryDelaySeconds });
  }
  if (admission.kind !== 'go') return { kind: 'unrendered', warning: `render: ${admission.kind} by the host gate` };
  const request = await renderRequest(job, render, screenshot);
  let rendered: Rendered;
  try {
    // A page given credentials is rendered in a browser context of its own (see InvocationBrowser.withTab).
    const isolated = request.access !== null;
    rendered = await render.browser.withTab(
      async (tab) => {
        render.clock.enter();
        try {
          return await renderIn(tab, request);
        } finally {
          render.clock.exit();
        }
      },
      { isolated },
    );
  } catch (error) {
    await admission.done();
    return fault(job, error);
  }
  await admission.done(
    rendered.kind === 'rendered' && rendered.status ? { status: rendered.status, respondedAt: Date.now() } : undefined,
  );
  if (rendered.kind === 'actionFailed') return { kind: 'failed', reason: rendered.reason, code: 'action_failed' };
  if (rendered.kind === 'failed') return { kind: 'unrendered', warning: `${rendered.reason}; stored as fetched` };
  const html = new TextEncoder().encode(rendered.html);
  return { kind: 'rendered', why, html, screenshot: rendered.screenshot, warnings: rendered.warnings };
}

async function renderRequest(
  job: Job,
  render: RenderDeps,
  screenshot: ReturnType<typeof screenshotOf>,
): Promise<RenderRequest> {
  const { settings, access: given, jar } = job.deps;
  // The crawl's cookie jar (the session its hosts renewed) goes in with the page's cookies; the browser's own are not
  // read back.
  const opened = typeof given === 'string' ? null : given;
  const access = opened && jar ? withJar(opened, await jar.cookiesFor(job.task.url)) : opened;
  return {
    url: job.task.url,
    waitFor: render.options.waitFor ?? null,
    screenshot,
    actions: render.actions ?? [],
    timeoutMs: settings.renderTimeoutMs + waitBudgetMs(render.options.waitFor),
    userAgent: settings.userAgent,
    allowPrivate: settings.allowPrivateNetworks,
    // Credentials that could not be opened never reach a render: the URL failed before its fetch (process.ts).
    access,
  };
}

/** The browser failed (or none was free): back to the queue while the message has tries left, else stored as fetched. */
function fault(job: Job, error: unknown): RenderStep {
  const reason = (error instanceof Error ? error.message : String(error)).slice(0, 200);
  const label = reason.startsWith('browser:') ? reason : `browser: ${reason}`;
  const busy = error instanceof BrowserUnavailable;
  const tries = busy ? BROWSER_WAIT_TRIES : RENDER_TRIES;
  if (job.deliveries >= tries)
    return { kind: 'unrendered', warning: `${label}; gave up rendering after ${tries} tries` };
  const retryDelaySeconds = busy ? 5 * 2 ** (job.deliveries - 1) : 5 * job.deliveries;
  return requeue(job, { kind: 'released', reason: label, retryDelaySeconds });
}

function requeue(
  job: Job,
  outcome: { kind: 'released' | 'throttled'; reason: string; retryDelaySeconds: number },
): RenderStep {
  return { kind: 'requeue', processed: finish(job, { ...outcome, fetched: true }) };
}
