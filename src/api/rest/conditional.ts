import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { refundRequest } from './rate-limit';

/**
 * Conditional polling (D23): every GET of a single resource or a list answers a strong `ETag` and
 * `Cache-Control: private, no-cache` (a cache may keep the answer for this client only, and must ask again before
 * reusing it); a request whose `If-None-Match` matches is answered 304 with no body.
 */
const CACHE_CONTROL = 'private, no-cache';

/** An opaque-tag of `If-None-Match`, with or without its weak prefix (RFC 9110 8.8.3). */
const ENTITY_TAG = /(?:W\/)?("[\x21\x23-\x7e\x80-\xff]*")/g;

/** Signed links are fresh on every answer; a 304 means nothing else changed (D23), so they are left out of the tag. */
const SIGNED_LINK_QUERY = /\?expires=\d+&signature=[0-9a-f]+/g;

const strongTag = (version: string) => `"${version}"`;

/**
 * RFC 9110 13.1.2: true when the header is `*` (the resource exists: it is being answered) or lists this tag.
 * If-None-Match compares weakly, so `W/"x"` matches `"x"`.
 */
export function noneMatchFails(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  for (const [, opaque] of header.matchAll(ENTITY_TAG)) if (opaque === etag) return true;
  return false;
}

/** 304, not charged to the budget (D23). */
function notModified(res: Response, etag: string): void {
  refundRequest(res);
  res.status(304).set({ ETag: etag, 'Cache-Control': CACHE_CONTROL }).end();
}

/**
 * A resource with a stored version (orders, bookings: the polled ones): a conditional request reads the version
 * alone and, when nothing changed, answers without reading or building the answer.
 */
export async function answerVersioned<T extends { version: string }>(
  req: Request,
  res: Response,
  version: () => Promise<string>,
  read: () => Promise<T>,
  body: (found: T) => unknown,
): Promise<void> {
  const condition = req.get('if-none-match');
  if (condition !== undefined) {
    const current = strongTag(await version());
    if (noneMatchFails(condition, current)) return notModified(res, current);
  }
  const found = await read();
  res.set({ ETag: strongTag(found.version), 'Cache-Control': CACHE_CONTROL }).json(body(found));
}

/**
 * A list that knows its version (an account's orders or bookings, read in one statement with their versions): a
 * matching conditional request is answered 304 without serializing the page or signing a link.
 */
export function answerVersionedList(req: Request, res: Response, version: string, body: () => unknown): void {
  const etag = strongTag(version);
  if (noneMatchFails(req.get('if-none-match'), etag)) return notModified(res, etag);
  res.set({ ETag: etag, 'Cache-Control': CACHE_CONTROL }).json(body());
}

/** Any other JSON answer: its tag is a digest of the JSON itself (signed links left out). */
export function answerJson(req: Request, res: Response, body: unknown): void {
  const json = JSON.stringify(body);
  const etag = strongTag(createHash('sha256').update(json.replace(SIGNED_LINK_QUERY, '')).digest('base64url'));
  if (noneMatchFails(req.get('if-none-match'), etag)) return notModified(res, etag);
  res.set({ ETag: etag, 'Cache-Control': CACHE_CONTROL }).type('json').send(json);
}
