import 'reflect-metadata';
import { parseArgs } from 'node:util';
import type { AppConfig } from '../config/app-config';
import { ConfigError, loadConfig } from '../config/load-config';
import { openDatabase, type Database } from '../db/database';
import { migrate } from '../db/migrations';
import { rebuildOrderCounts } from '../domain/orders/order-counts.queries';
import { MIGRATIONS_SOURCE_DIR } from '../db/paths';
import { withStartupLock } from '../db/startup-lock';
import { createLogger } from '../shared/logger';
import { AuditService } from '../domain/audit/audit.service';
import { ValidationError } from '../shared/errors';
import { OPERATOR } from '../domain/identity/context';
import { createStaffUserCommand, rotateStaffTokenCommand } from '../domain/staff/staff.commands';
import { StaffService } from '../domain/staff/staff.service';
import { restCommand } from '../api/commands';
import { assertServiceRunning } from './running-service';
import { formatSeed, seedSandbox } from './sandbox-seed';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                                   apply pending migrations
  migration:create [--name NAME]            write a migration for the entity changes (development)
  staff:create --email E --name N --role R  create a staff user (role admin, desk or translator); prints its token once
  staff:rotate --email E                    a new token for a staff user (a locked-out admin); the old one stops working; prints it once
  orders:recount                            count every account's orders again (after a restore with triggers disabled);
                                            order writes wait for the few seconds it takes
  sandbox:seed                              sandbox only: a new admin, an approved account and its key, printed
                                            as shell variables (eval "$(npm run -s cli -- sandbox:seed)"); with no
                                            DATABASE_URL, only beside a service running on the same DATA_DIR

Logs go to stderr; stdout carries only the answer (a token, the shell variables).`;

type Command = (db: Database, options: Record<string, string | undefined>, config: AppConfig) => Promise<void>;

/** Commands whose result is only of use in the running service's database (running-service.ts). */
const BESIDE_THE_SERVICE = new Set(['sandbox:seed']);

/** Migrations under the same lock the service takes at start, so a CLI run and a starting server never race. */
const migrateLocked = (db: Database) => withStartupLock(db.orm.config.get('clientUrl'), () => migrate(db.orm));

const commands: Record<string, Command> = {
  async 'sandbox:seed'(db, _options, config) {
    await migrateLocked(db);
    console.log(formatSeed(await seedSandbox(db.orm.em.fork(), config)));
  },

  async migrate(db) {
    const applied = await migrateLocked(db);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Nothing to migrate.');
  },

  async 'orders:recount'(db) {
    await migrateLocked(db);
    await rebuildOrderCounts(db.orm.em.fork());
    console.log('Order counts rebuilt.');
  },

  async 'migration:create'(db, options) {
    const result = await db.orm.migrator.createMigration(MIGRATIONS_SOURCE_DIR, false, false, options.name);
    console.log(result.diff.up.length ? `Created ${result.fileName}` : 'No changes: the schema matches the entities.');
  },

  async 'staff:create'(db, options) {
    await migrateLocked(db);
    const ctx = { em: db.orm.em.fork(), requestId: 'cli', actor: OPERATOR };
    // The flags are read as a REST body: their names are the fields' (`--email`), and so are the errors'.
    const command = restCommand(createStaffUserCommand, options);
    const { staffUser, token } = await new StaffService({ audit: new AuditService() }).create(ctx, command);
    console.error(`Created ${staffUser.role} ${staffUser.email}. Its token, shown only this once:`);
    console.log(token);
  },

  async 'staff:rotate'(db, options) {
    await migrateLocked(db);
    const ctx = { em: db.orm.em.fork(), requestId: 'cli', actor: OPERATOR };
    const command = restCommand(rotateStaffTokenCommand, options);
    const { staffUser, token } = await new StaffService({ audit: new AuditService() }).rotateByEmail(ctx, command);
    console.error(
      `New token for ${staffUser.role} ${staffUser.email}; the old one no longer works. Shown only this once:`,
    );
    console.log(token);
  },
};

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const name = positionals[0] ?? '';
  const command = commands[name];
  if (!command || values.help) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  if (BESIDE_THE_SERVICE.has(name) && !config.databaseUrl) assertServiceRunning(config.dataDir);
  const db = await openDatabase(config, createLogger(config.logLevel, 'stderr'));
  try {
    await command(db, values as Record<string, string | undefined>, config);
    return 0;
  } finally {
    await db.close();
  }
}

// Ctrl-C or SIGTERM mid-command: exit through process.exit, whose hook stops an embedded server this command
// started (README "Operations": signals), instead of dying at once and leaving it running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ValidationError) {
      for (const [field, messages] of Object.entries(error.errors)) console.error(`--${field}: ${messages.join(' ')}`);
    } else {
      console.error(
        error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error),
      );
    }
    process.exit(1);
  },
);
