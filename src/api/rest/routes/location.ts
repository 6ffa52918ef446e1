import type { Request, Response } from 'express';

/**
 * Where the resource a POST created lives, for the 201's `Location` (RFC 9110 section 10.2.2). Absolute, from the
 * configured base URL like every other link of the API (list links, download links), never from the request's
 * Host header. One rule for the routes and for an Idempotency-Key replay, which rebuilds it from the stored body.
 */
const CREATES: ReadonlyArray<[RegExp, string]> = [
  [/^\/files$/, '/files'],
  [/^\/quotes$/, '/quotes'],
  [/^\/quotes\/[^/]+\/convert$/, '/orders'],
  [/^\/orders\/[^/]+\/revisions$/, '/orders'],
  [/^\/interpretation-bookings$/, '/interpretation-bookings'],
];

/** What has no address of its own lives where it is read: a message in its order's conversation (D30). */
const READ_IN_PLACE: readonly RegExp[] = [/^\/orders\/[^/]+\/messages$/];

/** `path` is the request's path under /api/v1; `body` the 201's body, `{ "data": { "id": ... } }`. */
export function createdLocation(appUrl: string, path: string, body: unknown): string | undefined {
  if (READ_IN_PLACE.some((pattern) => pattern.test(path))) return `${appUrl}/api/v1${path}`;
  const collection = CREATES.find(([pattern]) => pattern.test(path))?.[1];
  const id = (body as { data?: { id?: unknown } } | null)?.data?.id;
  return collection && typeof id === 'string' ? `${appUrl}/api/v1${collection}/${encodeURIComponent(id)}` : undefined;
}

/** Answers 201 with the body and, when the route creates something addressable, its `Location`. */
export function sendCreated(req: Request, res: Response, appUrl: string, body: unknown): void {
  const location = createdLocation(appUrl, req.path, body);
  if (location) res.set('Location', location);
  res.status(201).json(body);
}
