import 'reflect-metadata';
import { MikroORM, type Logger as OrmLogger } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../src/config/app-config';
import { ormConfig } from '../../src/db/orm-config';
import { ProcessClaim } from '../../src/db/process-claim';
import { OPERATOR, type Actor, type Ctx } from '../../src/domain/identity/context';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { JobQueue } from '../../src/jobs/job-queue';
import { createServices, type Services } from '../../src/services';
import { createLogger, type Logger } from '../../src/shared/logger';
import { testConfig } from './test-config';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * The service layer's fixture (docs/architecture.md "Tests"): the composition root as `main.ts` builds it (a
 * database copied from the template, the ORM, the job queue, the process claim, `createServices()`), without the
 * doors. A service test calls the services with a context of its own (`ctx(actor)`); the end-to-end fixture
 * (`startTestApp`) puts the doors and a listening server on top of this one.
 */
export interface TestServices {
  orm: MikroORM;
  config: AppConfig;
  queue: JobQueue;
  services: Services;
  /** This process's mark of life (D25): what it writes is its own until it is closed. */
  claim: ProcessClaim;
  database: TestDatabase;
  logger: Logger;
  /** A request's context: a fresh EntityManager fork and the actor (null for a public call). */
  ctx(actor: Actor | null): Ctx;
  close(): Promise<void>;
}

export interface TestServicesOptions {
  config?: Partial<AppConfig>;
  /** Reuse another fixture's database (two deployments over one database). */
  databaseOf?: { database: TestDatabase };
  logger?: Logger;
  /** Sees every SQL statement the ORM runs, with the id of the request it ran for (see StatementLog). */
  onQuery?: (sql: string, requestId?: string) => void;
  /** Whether the queue runs its periodic schedules (the workers' side); false by default. */
  schedules?: boolean;
}

export async function startTestServices(options: TestServicesOptions = {}): Promise<TestServices> {
  const database = options.databaseOf?.database ?? (await createTestDatabase());
  const onQuery = options.onQuery;
  const orm = await MikroORM.init(
    ormConfig(database.url, {
      pool: { min: 0, max: 5 },
      // As production bounds a statement (5 s), looser for a loaded test machine: a lock wait that never ends
      // (a deadlock between the app and its own job) fails its test with an error instead of hanging the suite.
      driverOptions: { connection: { statement_timeout: 30_000 } },
      ...(onQuery ? { loggerFactory: () => queryTap(onQuery) } : { logger: () => undefined }),
    }),
  );
  const config = testConfig(options.config);
  const logger = options.logger ?? createLogger('silent');
  const queue = await JobQueue.start(database.url, logger, config.jobs, { schedules: options.schedules ?? false });
  const claim = await ProcessClaim.take(database.url);
  const services = createServices(config, { queue, logger, claim });
  let requests = 0;
  return {
    orm,
    config,
    queue,
    services,
    claim,
    database,
    logger,
    ctx: (actor) => ({ em: orm.em.fork(), requestId: `test-${++requests}`, actor }),
    async close() {
      await queue.stop();
      services.documents.close();
      services.standardOffer.stop();
      await claim.release();
      await orm.close(true);
      if (!options.databaseOf) await database.drop();
    },
  };
}

/** An admin made through the services, as the command line makes the first one (`OPERATOR`): the actor of staff calls. */
export async function staffAdmin(t: TestServices, email: string): Promise<Actor> {
  const { staffUser } = await t.services.staff.create(t.ctx(OPERATOR), {
    email,
    name: 'Ada Admin',
    role: StaffRole.ADMIN,
    credentials: '',
  });
  return { kind: 'staff', staff: staffUser };
}

/** A MikroORM logger that hands each statement, with its EntityManager's request id, to `onQuery`, and logs nothing else. */
function queryTap(onQuery: (sql: string, requestId?: string) => void): OrmLogger {
  return {
    log: () => undefined,
    error: () => undefined,
    warn: () => undefined,
    setDebugMode: () => undefined,
    isEnabled: () => true,
    logQuery: (context) =>
      onQuery(context.query ?? '', typeof context.requestId === 'string' ? context.requestId : undefined),
  };
}
