import { createHash } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { OsintFeedKind } from '../../generated/prisma/enums.ts';
import { MAX_SUMMARY, MAX_TITLE, plainText } from './text.ts';

/** Largest feed document read (bytes); a larger body is refused while it streams in, never held whole. */
export const MAX_FEED_BYTES = 10 * 1024 * 1024;
/** Deepest element nesting accepted in an XML feed. */
export const MAX_XML_DEPTH = 64;
/** Longest item key (guid, link, STIX id) kept as written. */
const MAX_KEY = 256;
/** Most items one document gives; the rest wait for the feed to shrink. */
export const MAX_ITEMS_PER_DOCUMENT = 5_000;

/** A feed document was refused or not understood; `reason` is our own words, recorded on the run. */
export class FeedRefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** One item as the feed gives it, already plain text. */
export interface ParsedItem {
  key: string;
  title: string;
  summary: string;
  link: string | null;
  publishedAt: Date | null;
  /** Ids the source states outright (STIX external references: T1059, G0007, S0002, CVE-…). */
  references: string[];
}

export interface ParsedFeed {
  items: ParsedItem[];
  /** What was neutralised or skipped, counted by reason. */
  notes: Map<string, number>;
  /** TAXII: the server's X-TAXII-Date-Added-Last of the last page read, where it sent one. */
  addedLast?: string;
}

const note = (feed: ParsedFeed, reason: string) => feed.notes.set(reason, (feed.notes.get(reason) ?? 0) + 1);
export const MARKUP_REMOVED = 'markup removed from the title or text';
const NO_TITLE = 'skipped: no title and no text';
const NO_KEY = 'skipped: no id';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // Only the five predefined entities and character references: a DOCTYPE, where more could be declared, is refused before.
  processEntities: true,
  htmlEntities: false,
  maxNestedTags: MAX_XML_DEPTH,
  isArray: (name) => ['item', 'entry', 'link'].includes(name),
});

/** The XML of a feed, parsed after the checks that keep hostile documents out. */
export function readXml(bytes: Buffer): Record<string, unknown> {
  const text = bytes.toString('utf8');
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new FeedRefusedError('refused: the document declares a DOCTYPE or entities, which feeds must not');
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new FeedRefusedError('not well-formed XML');
  try {
    return parser.parse(text) as Record<string, unknown>;
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/nest/i.test(message)) throw new FeedRefusedError(`refused: elements nested deeper than ${MAX_XML_DEPTH} levels`);
    throw new FeedRefusedError('not well-formed XML');
  }
}

type Node = Record<string, unknown>;
const asNode = (value: unknown): Node => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : {});
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
/** The text of an element that may carry attributes (`{ '#text': …, '@_type': … }`). */
const textOf = (value: unknown): string => {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  const node = asNode(value);
  return typeof node['#text'] === 'string' || typeof node['#text'] === 'number' ? String(node['#text']) : '';
};

function dateOf(value: unknown): Date | null {
  const text = textOf(value);
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An http(s) link, else null: a `javascript:` link is never kept. */
function linkOf(value: string): string | null {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

interface RawItem {
  key: string;
  title: unknown;
  summary: unknown;
  link: string | null;
  publishedAt: Date | null;
  references?: string[];
}

function addItem(feed: ParsedFeed, raw: RawItem) {
  if (feed.items.length >= MAX_ITEMS_PER_DOCUMENT) return note(feed, `skipped: more than ${MAX_ITEMS_PER_DOCUMENT} items in one document`);
  const title = plainText(raw.title, MAX_TITLE);
  const summary = plainText(raw.summary, MAX_SUMMARY);
  if (title.stripped || summary.stripped) note(feed, MARKUP_REMOVED);
  if (!title.text && !summary.text) return note(feed, NO_TITLE);
  const given = raw.key.trim() || (raw.link ?? '');
  const hashed = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
  // A key longer than a short text is kept as its hash; an item without one is known by its title and text.
  const key = given.length > MAX_KEY ? hashed(given) : given || hashed(`${title.text}\n${summary.text}`);
  feed.items.push({
    key,
    title: title.text || summary.text.slice(0, MAX_TITLE),
    summary: summary.text,
    link: raw.link,
    publishedAt: raw.publishedAt,
    references: raw.references ?? [],
  });
}

const emptyFeed = (): ParsedFeed => ({ items: [], notes: new Map() });

export function parseRss(bytes: Buffer): ParsedFeed {
  const channel = asNode(asNode(readXml(bytes).rss).channel);
  if (!Object.keys(channel).length) throw new FeedRefusedError('not an RSS 2.0 document (no rss/channel element)');
  const feed = emptyFeed();
  for (const entry of listOf(channel.item).map(asNode)) {
    const link = linkOf(textOf(listOf(entry.link)[0]));
    addItem(feed, {
      key: textOf(entry.guid) || link || '',
      title: textOf(entry.title),
      summary: textOf(entry['content:encoded']) || textOf(entry.description),
      link,
      publishedAt: dateOf(entry.pubDate) ?? dateOf(entry['dc:date']),
    });
  }
  return feed;
}

export function parseAtom(bytes: Buffer): ParsedFeed {
  const root = asNode(readXml(bytes).feed);
  if (!Object.keys(root).length) throw new FeedRefusedError('not an Atom document (no feed element)');
  const feed = emptyFeed();
  for (const entry of listOf(root.entry).map(asNode)) {
    const links = listOf(entry.link).map(asNode);
    const alternate = links.find((candidate) => !candidate['@_rel'] || candidate['@_rel'] === 'alternate') ?? links[0];
    const link = alternate ? linkOf(String(alternate['@_href'] ?? '')) : null;
    addItem(feed, {
      key: textOf(entry.id) || link || '',
      title: textOf(entry.title),
      summary: textOf(entry.summary) || textOf(entry.content),
      link,
      publishedAt: dateOf(entry.published) ?? dateOf(entry.updated),
    });
  }
  return feed;
}

/** STIX objects that are not intelligence to read: the bundle's plumbing. */
const STIX_SKIPPED = new Set(['relationship', 'sighting', 'identity', 'marking-definition', 'extension-definition', 'language-content']);
const STIX_ID = /^[a-z][a-z0-9-]*--[0-9a-f-]{36}$/;

/** The ids a STIX object states in its external references (ATT&CK ids, CVE ids). */
function stixReferences(object: Node): string[] {
  return listOf(object.external_references)
    .map(asNode)
    .filter((reference) => ['mitre-attack', 'cve'].includes(String(reference.source_name)))
    .map((reference) => String(reference.external_id ?? ''))
    .filter(Boolean);
}

/** Items from STIX 2.1 objects (a bundle's `objects`, or a TAXII page's). */
export function stixItems(objects: unknown[], feed: ParsedFeed = emptyFeed()): ParsedFeed {
  for (const object of objects.map(asNode)) {
    const type = String(object.type ?? '');
    if (!type || STIX_SKIPPED.has(type)) continue;
    const id = String(object.id ?? '');
    if (!STIX_ID.test(id)) {
      note(feed, NO_KEY);
      continue;
    }
    const external = listOf(object.external_references).map(asNode);
    const url = external.map((reference) => linkOf(String(reference.url ?? ''))).find(Boolean) ?? null;
    addItem(feed, {
      key: id,
      title: textOf(object.name) || `${type} ${id}`,
      summary: textOf(object.description),
      link: url,
      publishedAt: dateOf(object.published) ?? dateOf(object.created),
      references: stixReferences(object),
    });
  }
  return feed;
}

export function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new FeedRefusedError('not valid JSON');
  }
}

export function parseStixBundle(bytes: Buffer): ParsedFeed {
  const bundle = asNode(parseJson(bytes));
  if (bundle.type !== 'bundle' || !Array.isArray(bundle.objects)) throw new FeedRefusedError('not a STIX 2.1 bundle (no bundle objects)');
  return stixItems(bundle.objects);
}

/** The parser of each document format (TAXII reads pages of STIX objects: taxii.ts). */
export const DOCUMENT_PARSERS: Record<Exclude<OsintFeedKind, 'taxii'>, (bytes: Buffer) => ParsedFeed> = {
  rss: parseRss,
  atom: parseAtom,
  stix: parseStixBundle,
};
