import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { PolledAnswer, PolledRead, Resolved } from '../../domain/accounts/authentication.service';
import { isId } from '../../domain/shared/ids';
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

export const strongTag = (version: string) => `"${version}"`;

/** What every tagged answer says of its caching, the 304 included. */
export const tagHeaders = (etag: string) => ({ ETag: etag, 'Cache-Control': CACHE_CONTROL });

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

/** The tag of `version` when `condition` (If-None-Match) still names it, so the answer is a 304 (D23); else undefined. */
export function unchangedTag(condition: string | undefined, version: string | null): string | undefined {
  const etag = version === null ? undefined : strongTag(version);
  return etag && noneMatchFails(condition, etag) ? etag : undefined;
}

/** 304, not charged to the budget (D23). */
function notModified(res: Response, etag: string): void {
  refundRequest(res);
  res.status(304).set(tagHeaders(etag)).end();
}

/** Where a poll keeps what its key's look-up read of what it polls. */
const KNOWN = Symbol('read with the key');
type Known = { [KNOWN]?: Pick<Resolved, 'version' | 'answer'> };

/** What a poll's key look-up reads (D23): the version for a conditional request (`If-None-Match`), else the answer. */
export const pollReads = (condition: string | undefined): PolledRead['reads'] =>
  condition === undefined ? 'answer' : 'version';

/**
 * What a GET of an order or a booking polls (`polls` of its id), so that an API key's look-up reads it in the same
 * statement (D23), as `pollReads` says; none for an id that is none (the service answers it 404).
 */
export function polledRead(
  req: Request,
  polls: (id: string, reads: PolledRead['reads']) => PolledRead,
): PolledRead | undefined {
  const id = req.params.id;
  return isId(id) ? polls(id, pollReads(req.get('if-none-match'))) : undefined;
}

/** What the key's look-up read, for `answerVersioned`. */
export function keepPolled(res: Response, { version, answer }: Resolved): void {
  (res.locals as Known)[KNOWN] = { version, answer };
}

/**
 * A resource with a stored version (orders, bookings: the polled ones): a conditional request reads the version
 * alone, or takes the one its key's look-up read, and, when nothing changed, answers without reading or building the
 * answer; an answer the look-up read is not read again.
 */
export async function answerVersioned<T extends { version: string }>(
  req: Request,
  res: Response,
  version: (known: string | null | undefined) => Promise<string>,
  read: (known: PolledAnswer | null | undefined) => Promise<T>,
  body: (found: T) => unknown,
): Promise<void> {
  const known = (res.locals as Known)[KNOWN];
  const condition = req.get('if-none-match');
  if (condition !== undefined) {
    const unchanged = unchangedTag(condition, await version(known?.version));
    if (unchanged) return notModified(res, unchanged);
  }
  const found = await read(known?.answer);
  res.set(tagHeaders(strongTag(found.version))).json(body(found));
}

/**
 * A list that knows its version (an account's orders or bookings, read in one statement with their versions): a
 * matching conditional request is answered 304 without serializing the page or signing a link.
 */
export function answerVersionedList(req: Request, res: Response, version: string, body: () => unknown): void {
  const unchanged = unchangedTag(req.get('if-none-match'), version);
  if (unchanged) return notModified(res, unchanged);
  res.set(tagHeaders(strongTag(version))).json(body());
}

/** Any other JSON answer: its tag is a digest of the JSON itself (signed links left out). */
export function answerJson(req: Request, res: Response, body: unknown): void {
  const json = JSON.stringify(body);
  const etag = strongTag(createHash('sha256').update(json.replace(SIGNED_LINK_QUERY, '')).digest('base64url'));
  if (noneMatchFails(req.get('if-none-match'), etag)) return notModified(res, etag);
  res.set(tagHeaders(etag)).type('json').send(json);
}
