import { z } from 'zod';
import type { ExtractedRecord, ExtractOutputs } from '../domain/extract';
import type { PdfRecord } from '../domain/pdf/record';
import type { Span } from '../types';
import { readSpan } from './spans';

/**
 * A page's extraction record as stored in R2 (JSON, beside its body in the chunk's segment): what /record returns,
 * with the outputs /content?format= serves.
 */
const storedRecordSchema = z.object({
  record: z.object({
    metadata: z.record(z.string(), z.unknown()).optional(),
    jsonLd: z.array(z.unknown()).optional(),
    fields: z.record(z.string(), z.unknown()).optional(),
    fieldErrors: z.record(z.string(), z.string()).optional(),
    json: z.unknown().optional(),
    summary: z.string().optional(),
    model: z.object({ name: z.string(), answer: z.enum(['model', 'cached', 'selectors', 'none']) }).optional(),
    links: z.array(z.string()).optional(),
    images: z.array(z.object({ src: z.string(), alt: z.string() })).optional(),
    wordCount: z.number(),
    contentHash: z.string(),
    warnings: z.array(z.string()),
  }),
  outputs: z.object({ markdown: z.string().optional(), text: z.string().optional(), html: z.string().optional() }),
});

export type StoredRecord = z.output<typeof storedRecordSchema>;

/** A record encoded as stored: one extraction made, or one read back and changed (the model step's answer added). */
export function encodeRecord(
  record: ExtractedRecord | PdfRecord | StoredRecord['record'],
  outputs: ExtractOutputs,
): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ record, outputs }));
}

/** A stored record read back, or null when the bytes are not one (a truncated or foreign object). */
export function decodeRecord(bytes: Uint8Array): StoredRecord | null {
  try {
    const parsed = storedRecordSchema.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Reads one stored record; null when its object is gone or does not hold a record. */
export async function readRecord(bucket: R2Bucket, at: Span): Promise<StoredRecord | null> {
  const bytes = await readSpan(bucket, at);
  return bytes ? decodeRecord(bytes) : null;
}
