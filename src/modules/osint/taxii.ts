import { readSourceBytes, type SourceAccess } from '../../sources/location.ts';
import { FeedRefusedError, MAX_FEED_BYTES, parseJson, stixItems, type ParsedFeed } from './feed-formats.ts';

/** The media type of every TAXII 2.1 request and answer. */
export const TAXII_MEDIA_TYPE = 'application/taxii+json;version=2.1';
/** Most pages one sync reads from a collection; a longer collection is read on by the next sync (from its added_after). */
export const MAX_TAXII_PAGES = 50;
/** Objects asked for per page. */
export const TAXII_PAGE_SIZE = 500;

type Node = Record<string, unknown>;
const asNode = (value: unknown): Node => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : {});

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

/** The TAXII 2.1 header naming when the newest object of an answer was added to the collection. */
export const DATE_ADDED_LAST = 'x-taxii-date-added-last';
/** A TAXII timestamp (RFC 3339, UTC), kept as the server wrote it: its sub-millisecond digits matter to the server. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

async function getJson(url: string, access: SourceAccess, onHeaders?: (headers: Headers) => void): Promise<Node> {
  const bytes = await readSourceBytes(url, access, { maxBytes: MAX_FEED_BYTES, headers: { accept: TAXII_MEDIA_TYPE }, onHeaders });
  return asNode(parseJson(bytes));
}

/** The API root: the discovery document's default (or first) root, or the location itself when it is one. */
async function apiRootOf(location: string, access: SourceAccess): Promise<string> {
  const document = await getJson(location, access);
  if (!Array.isArray(document.api_roots)) return withSlash(location);
  const root = typeof document.default === 'string' ? document.default : document.api_roots.find((entry) => typeof entry === 'string');
  if (typeof root !== 'string') throw new FeedRefusedError('the TAXII discovery document names no API root');
  return withSlash(new URL(root, withSlash(location)).toString());
}

async function collectionOf(root: string, wanted: string | null, access: SourceAccess): Promise<string> {
  const collections = (await getJson(`${root}collections/`, access)).collections;
  const readable = (Array.isArray(collections) ? collections : []).map(asNode).filter((entry) => entry.can_read === true);
  const found = wanted
    ? readable.find((entry) => entry.id === wanted || entry.title === wanted)
    : readable.length === 1
      ? readable[0]
      : undefined;
  if (!found || typeof found.id !== 'string') {
    throw new FeedRefusedError(
      wanted ? `the TAXII API root has no readable collection ${wanted}` : 'the TAXII API root has several readable collections: name one',
    );
  }
  return found.id;
}

/**
 * Reads a TAXII 2.1 collection over HTTP, per the spec: discovery → API root → collections/{id}/objects, each
 * request with `Accept: application/taxii+json;version=2.1`, following `next` while `more` is true. With
 * `addedAfter` (the X-TAXII-Date-Added-Last a previous sync kept) every page asks only for objects added after it;
 * the feed's `addedLast` is the header of the last page read, for the next sync.
 */
export async function readTaxii(
  location: string,
  collection: string | null,
  access: SourceAccess,
  addedAfter: string | null = null,
): Promise<ParsedFeed> {
  const root = await apiRootOf(location, access);
  const id = await collectionOf(root, collection, access);
  const base = `${root}collections/${encodeURIComponent(id)}/objects/`;
  const feed: ParsedFeed = { items: [], notes: new Map() };
  const keepAddedLast = (headers: Headers) => {
    const value = headers.get(DATE_ADDED_LAST)?.trim();
    if (value && TIMESTAMP.test(value)) feed.addedLast = value;
  };
  let next: string | null = null;
  for (let page = 0; page < MAX_TAXII_PAGES; page++) {
    const query = new URLSearchParams({
      limit: String(TAXII_PAGE_SIZE),
      ...(addedAfter ? { added_after: addedAfter } : {}),
      ...(next ? { next } : {}),
    });
    const envelope = await getJson(`${base}?${query}`, access, keepAddedLast);
    stixItems(Array.isArray(envelope.objects) ? envelope.objects : [], feed);
    next = envelope.more === true && typeof envelope.next === 'string' && envelope.next ? envelope.next : null;
    if (!next) return feed;
  }
  feed.notes.set(`stopped after ${MAX_TAXII_PAGES} pages: the rest of the collection was not read`, 1);
  return feed;
}
