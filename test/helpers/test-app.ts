import 'reflect-metadata';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import request from 'supertest';
import { createApp, type App } from '../../src/app';
import { startWorkers } from '../../src/workers';
import type { Services } from '../../src/services';
import { assertMatchesOpenApi } from './openapi-validator';
import { startTestServices, type TestServices, type TestServicesOptions } from './test-services';

export interface GraphQLResult<R> {
  status: number;
  data?: R | null;
  errors?: { message: string; extensions?: { code?: string; errors?: Record<string, string[]> } }[];
}

/** The service layer's fixture with the doors on top: the app, listening on a port of its own. */
export interface TestApp extends TestServices {
  app: App;
  /** Where the app listens, for a test that must write the HTTP itself. */
  url: string;
  /** REST through supertest; every response is checked against the OpenAPI document. */
  rest: {
    get(path: string, token?: string): request.Test;
    post(path: string, body?: unknown, token?: string): request.Test;
    put(path: string, body: unknown, token?: string): request.Test;
    delete(path: string, token?: string): request.Test;
    /** multipart/form-data: the file part (when given) and text fields. */
    upload(
      path: string,
      part: { file?: Buffer; filename?: string; fields?: Record<string, string> },
      token?: string,
    ): request.Test;
    raw(): ReturnType<typeof request>;
  };
  /** A GraphQL multipart upload (the spec's operations + map + file parts). */
  gqlUpload<R, V>(
    document: TypedDocumentNode<R, V>,
    variables: Omit<V, 'file' | 'certificate' | 'scan'>,
    file: { content: Buffer; filename: string },
    options?: { token?: string; preflight?: boolean; variable?: 'file' | 'certificate' | 'scan' },
  ): Promise<GraphQLResult<R>>;
  /** GraphQL with the typed documents generated from test/graphql/*.graphql. */
  gql<R, V>(document: TypedDocumentNode<R, V>, variables?: V, token?: string): Promise<GraphQLResult<R>>;
  close(): Promise<void>;
}

export interface TestAppOptions extends Omit<TestServicesOptions, 'schedules'> {
  /** Change services before the doors are built (for example to make one fail). */
  adjust?: (services: Services) => void;
  /** Run the background jobs in this app (default true); false leaves analysis to ensureAnalysed. */
  workers?: boolean;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const workers = options.workers ?? true;
  const fixture = await startTestServices({ ...options, schedules: workers });
  const { orm, queue, services, logger } = fixture;
  options.adjust?.(services);
  if (workers) await startWorkers(queue, orm, services);
  const app = await createApp({ orm, services, logger, jobMetrics: queue.metrics });
  // One listening server for the app's life: given the app, supertest starts and stops one per request.
  const server = createServer(app.listener).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const agent = () => request(server);
  const auth = (test: request.Test, token?: string) => (token ? test.set('Authorization', `Bearer ${token}`) : test);
  const checked = (test: request.Test) => test.expect(assertMatchesOpenApi);

  return {
    ...fixture,
    app,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    rest: {
      get: (path, token) => checked(auth(agent().get(path), token)),
      post: (path, body, token) =>
        checked(
          auth(
            body === undefined
              ? agent().post(path)
              : agent()
                  .post(path)
                  .send(body as object),
            token,
          ),
        ),
      put: (path, body, token) =>
        checked(
          auth(
            agent()
              .put(path)
              .send(body as object),
            token,
          ),
        ),
      delete: (path, token) => checked(auth(agent().delete(path), token)),
      upload: (path, part, token) => {
        const test = auth(agent().post(path), token);
        for (const [name, value] of Object.entries(part.fields ?? {})) test.field(name, value);
        if (part.file)
          test.attach('file', part.file, {
            filename: part.filename ?? 'document.bin',
            contentType: 'application/octet-stream',
          });
        else if (!part.fields) test.field('nothing', 'here');
        return checked(test);
      },
      raw: agent,
    },
    async gqlUpload(document, variables, file, options = {}) {
      const test = auth(agent().post('/graphql'), options.token);
      if (options.preflight ?? true) test.set('Apollo-Require-Preflight', 'true');
      const variable = options.variable ?? 'file';
      const res = await test
        .field('operations', JSON.stringify({ query: print(document), variables: { ...variables, [variable]: null } }))
        .field('map', JSON.stringify({ 0: [`variables.${variable}`] }))
        .attach('0', file.content, { filename: file.filename, contentType: 'application/octet-stream' });
      return graphQLResult(res);
    },
    async gql(document, variables, token) {
      const res = await auth(
        agent()
          .post('/graphql')
          .send({ query: print(document), variables }),
        token,
      );
      return graphQLResult(res);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
      await fixture.close();
    },
  };
}

/** A GraphQL answer, its `data` of the shape the typed document asked for. */
function graphQLResult<R>(res: request.Response): GraphQLResult<R> {
  const { data, errors } = res.body as Omit<GraphQLResult<R>, 'status'>;
  return { status: res.status, data, errors };
}
