import type request from 'supertest';

export interface RawGraphQLAnswer {
  status: number;
  headers: Record<string, string>;
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; extensions: { code: string } & Record<string, unknown> }[];
  extensions?: { cost?: number };
}

/** A GraphQL request written inline (aliases, fragments, sizes a typed document cannot vary), with its HTTP answer. */
export async function gqlRaw(
  agent: ReturnType<typeof request>,
  query: string,
  {
    token,
    variables,
    operationName,
    headers = {},
  }: {
    token?: string;
    variables?: Record<string, unknown>;
    operationName?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<RawGraphQLAnswer> {
  const test = agent.post('/graphql').set(headers).send({ query, variables, operationName });
  if (token) test.set('Authorization', `Bearer ${token}`);
  const res = await test;
  const { data, errors, extensions } = res.body as Omit<RawGraphQLAnswer, 'status' | 'headers'>;
  return { status: res.status, headers: res.headers, data, errors, extensions };
}
