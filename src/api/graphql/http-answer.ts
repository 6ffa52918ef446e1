import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:querystring';
import { HeaderMap, type HTTPGraphQLRequest, type HTTPGraphQLResponse } from '@apollo/server';

/**
 * Apollo's view of an HTTP request, and the parameters the door reads before Apollo does (its `query`,
 * `operationName` and `variables`): a GET's from the query string, as Express's `simple` query parser reads it
 * (node's `querystring`), anything else's from the body already read.
 */
export function httpRequestOf(req: IncomingMessage & { body?: unknown }): {
  http: HTTPGraphQLRequest;
  params: Record<string, unknown>;
} {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // As `url.parse()` reads it: a fragment (which node's parser lets through) ends the URL, and the query is before it.
  const whole = req.url ?? '';
  const fragment = whole.indexOf('#');
  const url = fragment < 0 ? whole : whole.slice(0, fragment);
  const start = url.indexOf('?');
  const search = start < 0 ? '' : url.slice(start);
  const method = req.method!.toUpperCase();
  const params = method === 'GET' ? parse(search.slice(1)) : (req.body ?? {});
  return { http: { method, headers, search, body: req.body }, params: params as Record<string, unknown> };
}

/** Apollo's answer written out: its status, its headers and its body, whole or (incremental delivery) in parts. */
export async function writeAnswer(answered: HTTPGraphQLResponse, res: ServerResponse): Promise<void> {
  for (const [name, value] of answered.headers) res.setHeader(name, value);
  res.statusCode = answered.status ?? 200;
  if (answered.body.kind === 'complete') {
    res.setHeader('Content-Length', Buffer.byteLength(answered.body.string));
    res.end(answered.body.string);
    return;
  }
  for await (const chunk of answered.body.asyncIterator) res.write(chunk);
  res.end();
}
