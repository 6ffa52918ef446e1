import type { EntityManager } from '@mikro-orm/core';
import { Account } from '../../domain/accounts/account.entity';
import { runPrepared, type PreparedStatement, type SqlRow } from '../orm-driver';
import { scalarColumns } from './entity-columns';

let statement: PreparedStatement | undefined;

/** `$1` an API key's SHA-256 hash: the account's columns, by name, as `em.map(Account, row)` takes them. */
export function accountByKeyHashStatement(em: EntityManager): PreparedStatement {
  return (statement ??= {
    name: 'account_by_key_hash',
    sql: `select ${scalarColumns(em, Account).join(', ')} from "accounts" where "api_key_hash" = $1`,
  });
}

/** The account row of an API key's hash, or none: every request of every key runs this (D23), prepared. */
export async function readAccountRowByKeyHash(em: EntityManager, keyHash: string): Promise<SqlRow | undefined> {
  const { rows } = await runPrepared(em, accountByKeyHashStatement(em), [keyHash]);
  return rows[0];
}
