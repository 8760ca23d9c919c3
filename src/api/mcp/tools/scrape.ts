import { z } from 'zod';
import { scrapeRequestObject } from '../../schemas';
import { readJson } from '../api-client';
import { MODEL_ARG_KEYS, modelArgs, withModelArgs } from '../model-args';
import { capped, json, textResult, window } from '../output';
import { apiArgs, expectOk, offsetArg, ownArgs, type Tool } from '../tool';

const own = z.object({ offset: offsetArg }).extend(modelArgs.shape);

/** What the tool reads of POST /v1/scrape's answer: the outputs apart, the rest shown as it is. */
const scrapeReply = z
  .object({
    markdown: z.string().nullish(),
    text: z.string().nullish(),
    html: z.string().nullish(),
    screenshot: z.string().nullish(),
  })
  .loose();

export const scrapeTool: Tool = {
  name: 'scrape',
  title: 'Scrape one URL',
  description:
    "Fetches one URL now (politely: robots.txt, the host's rate limit and address rules apply, as in a crawl) and " +
    'extracts it: the page as markdown of its main content, and a JSON line of its metadata (title, description, ' +
    'language, ...), status and any `fields` asked for with CSS selectors in `extract`. `render`: "auto" renders in ' +
    'a browser only pages that need JavaScript, "always" or "never" force it; a "screenshot" format comes back as ' +
    'an image. A page scraped or crawled within `maxAge` seconds (default 300) is answered from its stored copy, ' +
    'with no request to the site. Long markdown is cut at 20,000 characters: call again with the `offset` the ' +
    'result gives (within maxAge the stored copy is read again, not the site). A language model, when the ' +
    'deployment has one: `jsonSchema` (a JSON Schema) and/or `prompt` ask it for JSON of the page, ' +
    '`summaryPrompt` (or "summary" in formats) for a summary; they come back as `json` and `summary` in the JSON ' +
    'line (`fieldErrors.json` says why there is no JSON; `model` which model answered, and how). Behind a login: ' +
    "`headers`, `cookies` or `authenticate` (HTTP basic) are sent to the URL's host only (or `credentialsFor`), " +
    'never shown back; such a page is always fetched and kept for no one.',
  input: scrapeRequestObject.extend(own.shape),
  readOnly: false,
  async run(args, api) {
    const { offset, ...model } = ownArgs(own, args);
    const body = withModelArgs(apiArgs(args, ['offset', ...MODEL_ARG_KEYS]), model);
    const text = expectOk(await api.post('/v1/scrape', body));
    const { markdown, text: plain, html, screenshot, ...page } = readJson(text, scrapeReply);
    const content = markdown ?? plain ?? html ?? '';
    const meta = capped(json(page), 'ask for fewer formats (formats: ["markdown"])');
    const result =
      content === ''
        ? textResult(meta)
        : textResult(
            meta,
            window(content, offset, (next) => `call scrape again with offset: ${next}`),
          );
    const png = screenshot?.match(/^data:image\/png;base64,(.+)$/)?.[1];
    if (png) result.content.push({ type: 'image', data: png, mimeType: 'image/png' });
    return result;
  },
};
