import { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../shared/logger';
import type { AppConfig } from '../config/app-config';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres';
import { ormConfig } from './orm-config';

export interface Database {
  orm: MikroORM;
  /** Set when DATABASE_URL was unset and this process runs (or joined) the embedded server. */
  embedded?: EmbeddedDatabase;
  close(): Promise<void>;
}

/** DATABASE_URL, or an embedded PostgreSQL under DATA_DIR when it is unset (D1). */
export async function openDatabase(
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir' | 'databasePoolSize' | 'statementTimeoutMs'>,
  logger?: Logger,
): Promise<Database> {
  const notice = (message: string, fields: Record<string, unknown>) =>
    logger ? logger.warn(fields, message) : console.error(`${message}: ${JSON.stringify(fields)}`);
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir, 'app', notice);
  try {
    const orm = await MikroORM.init(
      ormConfig(config.databaseUrl ?? embedded!.url, {
        ...(logger ? { logger: (message: string) => logger.info({ orm: message }) } : {}),
        // Runtime settings (docs/architecture.md): a statement that runs away is cancelled, not waited for.
        pool: { min: 0, max: config.databasePoolSize },
        driverOptions: { connection: { statement_timeout: config.statementTimeoutMs } },
      }),
    );
    return {
      orm,
      embedded,
      async close() {
        await orm.close(true);
        await embedded?.stop();
      },
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
