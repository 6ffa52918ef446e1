import type { EntityManager } from '@mikro-orm/core';
import { Account } from './account.entity';
import { runPrepared, type PreparedStatement, type SqlRow } from '../../db/orm-driver';
import { scalarColumns } from '../../db/entity-columns';

let statement: PreparedStatement | undefined;

const BY_KEY_HASH = `from "accounts" where "api_key_hash" = $1`;

/** `$1` an API key's SHA-256 hash: the account's columns, by name, as `em.map(Account, row)` takes them. */
export function accountByKeyHashStatement(em: EntityManager): PreparedStatement {
  return (statement ??= {
    name: 'account_by_key_hash',
    sql: `select ${scalarColumns(em, Account).join(', ')} ${BY_KEY_HASH}`,
  });
}

/**
 * What a conditional request polls all day (D23): an order or a booking, by an id already checked to be one, with the
 * SQL of its version given the placeholders of its id and of its account (polled-orders.ts, polled-bookings.ts).
 */
export interface PolledRead {
  name: 'order' | 'booking';
  id: string;
  versionOf: (id: string, account: string) => string;
}

const withVersion: Partial<Record<PolledRead['name'], PreparedStatement>> = {};

/**
 * `$1` an API key's hash, `$2` the id of what `polled` names: the account's columns and, as `polled_version`, the
 * version of that order or booking of the key's account (null when it has none by that id). A conditional poll's one
 * statement (D23).
 */
export function accountAndVersionStatement(em: EntityManager, polled: Omit<PolledRead, 'id'>): PreparedStatement {
  return (withVersion[polled.name] ??= {
    name: `account_by_key_hash_and_${polled.name}_version`,
    sql: `select ${scalarColumns(em, Account).join(', ')}, (${polled.versionOf('$2', '"accounts"."id"')}) as "polled_version" ${BY_KEY_HASH}`,
  });
}

/** The account row of an API key's hash, or none: every request of every key runs this (D23), prepared. */
export async function readAccountRowByKeyHash(em: EntityManager, keyHash: string): Promise<SqlRow | undefined> {
  const { rows } = await runPrepared(em, accountByKeyHashStatement(em), [keyHash]);
  return rows[0];
}

/** As `readAccountRowByKeyHash`, with the version of what a conditional request polls, in the same statement. */
export async function readAccountRowAndVersion(
  em: EntityManager,
  keyHash: string,
  polled: PolledRead,
): Promise<{ row: SqlRow; version: string | null } | undefined> {
  const { rows } = await runPrepared(em, accountAndVersionStatement(em, polled), [keyHash, polled.id]);
  if (!rows[0]) return undefined;
  const { polled_version, ...row } = rows[0];
  return { row, version: polled_version as string | null };
}
