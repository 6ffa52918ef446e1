import type { IncomingMessage } from 'node:http';
import { httpRequestOf } from '../../src/api/graphql/http-answer';

/** What the GraphQL door reads of a request, as Apollo's Express integration and Express's query parser read it. */
const read = (method: string, url: string, body?: unknown) =>
  httpRequestOf({
    method,
    url,
    headers: { 'content-type': 'application/json', accept: ['a', 'b'] },
    body,
  } as unknown as IncomingMessage & { body?: unknown });

describe('httpRequestOf', () => {
  it("reads a GET's parameters from its query string, up to a fragment, as url.parse() does", () => {
    expect(read('get', '/graphql?query=%7B__typename%7D&operationName=A')).toMatchObject({
      http: { method: 'GET', search: '?query=%7B__typename%7D&operationName=A' },
      params: { query: '{__typename}', operationName: 'A' },
    });
    expect(read('GET', '/graphql?query=a#b')).toMatchObject({ http: { search: '?query=a' }, params: { query: 'a' } });
    expect(read('GET', '/graphql#x?query=a')).toMatchObject({ http: { search: '' }, params: {} });
    expect(read('GET', '/graphql')).toMatchObject({ http: { search: '' }, params: {} });
  });

  it("reads any other method's parameters from the body already read, and hands Apollo every header", () => {
    const body = { query: '{ __typename }', variables: { id: 1 } };
    const { http, params } = read('POST', '/', body);
    expect(params).toBe(body);
    expect(http.body).toBe(body);
    expect([http.headers.get('content-type'), http.headers.get('accept')]).toEqual(['application/json', 'a, b']);
    expect(read('POST', '/').params).toEqual({});
  });
});
