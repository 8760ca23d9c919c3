import type { JsonValue } from './json-ld';

/** schema.org's types of a thread, by their last segment ("DiscussionForumPosting", "https://schema.org/QAPage"). */
const THREAD_TYPES = new Set(['discussionforumposting', 'qapage']);

const isThreadType = (types: string) =>
  types.split(/\s+/).some((type) => THREAD_TYPES.has(type.split(/[/:#]/).pop()?.toLowerCase() ?? ''));

const declaresType = (item: JsonValue) => {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return false;
  const type = item['@type'];
  return (Array.isArray(type) ? type : [type]).some((t) => typeof t === 'string' && isThreadType(t));
};

/**
 * Whether the page says it is a thread: a schema.org DiscussionForumPosting or QAPage in its JSON-LD (graphs
 * flattened) or its microdata (`itemtypes`: product.ts's itemtypesOf). On such a page the posts, whatever their
 * names (`comment-123`), are the content.
 */
export function declaresThread(jsonLd: readonly JsonValue[], itemtypes: readonly string[]): boolean {
  return jsonLd.some(declaresType) || itemtypes.some(isThreadType);
}
