import type { ExtractSpec } from '../domain/extract/spec-schema';
import { isHtml } from '../domain/html/page';
import { isPdf } from '../domain/pdf/document';
import type { StoredRecord } from '../storage/records';
import { ApiError, notFound } from './errors';
import { described, type KeptPage } from './kept-page';

type Format = 'markdown' | 'text' | 'html';

const REEXTRACT = 'POST /v1/crawls/:id/reextract extracts its stored pages with a spec';

/** Why a page has no extraction record, as precisely as its row says: a 404 that names the cause. */
export function noRecord(kept: KeptPage, spec: ExtractSpec | null): ApiError {
  const { page } = kept;
  const what = `no extraction record for ${described(kept)}`;
  if (spec === null)
    return notFound(`${what}: the crawl ran with extract: null (raw bodies, titles and links); ${REEXTRACT}`);
  if (page.status < 200 || page.status >= 300)
    return notFound(`${what}: it answered ${page.status}; only 2xx pages are extracted`);
  if (!isHtml(page.contentType) && !isPdf(page.contentType))
    return notFound(
      `${what}: its content type (${page.contentType ?? 'none'}) is not extracted; HTML pages and PDFs are`,
    );
  return notFound(`${what}: none was stored (its warnings, if any, are in GET /pages' row and the export)`);
}

/**
 * The output a record has, or why not, named: not in the crawl's formats; a PDF's html (PDFs give text and markdown);
 * empty (the page had no text to extract).
 */
export function outputOf(kept: KeptPage, record: StoredRecord, format: Format, spec: ExtractSpec | null): string {
  const output = record.outputs[format];
  const what = `no ${format} for ${described(kept)}`;
  if (output === undefined) {
    if (spec && !spec.formats.includes(format))
      throw notFound(`${what}: the crawl's extract.formats does not include it; ${REEXTRACT} that does`);
    if (format === 'html' && !isHtml(kept.page.contentType))
      throw notFound(`${what}: a PDF is extracted into text and markdown, not html`);
    throw notFound(`${what}: its record, made with another spec, does not hold it; ${REEXTRACT} that does`);
  }
  if (output.trim() === '') {
    const warnings = record.record.warnings.length > 0 ? ` (its warnings: ${record.record.warnings.join('; ')})` : '';
    const hint =
      kept.page.rendered === null ? '; a page that builds its text with scripts needs render: auto or always' : '';
    throw new ApiError(
      404,
      'empty_output',
      `the ${format} of ${described(kept)} is empty: the page had no text to extract${warnings}${hint}`,
    );
  }
  return output;
}
