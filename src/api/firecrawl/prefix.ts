/** Where Firecrawl's API is also mounted, whole: a client's `api_url` of `https://<worker>/firecrawl` reaches it alone. */
export const FIRECRAWL_PREFIX = '/firecrawl';
