import type { EntityManager } from '@mikro-orm/core';
import { Account, AccountStatus } from './account.entity';
import { runPrepared, type DateOf, type PreparedStatement, type SqlRow } from '../../db/orm-driver';
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
 * What a poll of an order or a booking reads in the statement that looks its API key up (D23), by an id already
 * checked to be one: only its version for a conditional request, its whole answer for one that is not. The SQL of
 * each is given the placeholders of its id and of its account (polled-orders.queries.ts, polled-bookings.queries.ts).
 */
export interface PolledRead {
  name: 'order' | 'booking';
  id: string;
  reads: 'version' | 'answer';
  versionOf: (id: string, account: string) => string;
  /** One row, its columns as the polled read maps them, its version among them. */
  answerOf: (id: string, account: string) => string;
}

/** The polled answer's row, read with the key: its timestamps to be taken with `date`, as a prepared row's are. */
export interface PolledAnswer {
  row: SqlRow;
  date: DateOf;
}

const withPolled: Partial<Record<`${PolledRead['name']}_${PolledRead['reads']}`, PreparedStatement>> = {};

/** The key's account, in the outer statement, as the polled SQL names it. */
const KEY_ACCOUNT = '"accounts"."id"';

/**
 * `$1` an API key's hash, `$2` the id of what `polled` names: the account's columns and, of that order or booking of
 * the key's account, its version (`polled_version`) or its answer as one JSON row (`polled_answer`); null when the
 * account has none by that id, and no answer for an account that is not approved. A poll's one statement (D23).
 */
export function accountAndPolledStatement(em: EntityManager, polled: Omit<PolledRead, 'id'>): PreparedStatement {
  const key = `${polled.name}_${polled.reads}` as const;
  const read =
    polled.reads === 'version'
      ? `(${polled.versionOf('$2', KEY_ACCOUNT)}) as "polled_version"`
      : // Only an approved account's answer is read: any other is refused (403) before it is served, uncharged.
        `(select row_to_json(polled) from (${polled.answerOf('$2', KEY_ACCOUNT)}) polled where "accounts"."status" = '${AccountStatus.APPROVED}') as "polled_answer"`;
  return (withPolled[key] ??= {
    name: `account_by_key_hash_and_${key}`,
    sql: `select ${scalarColumns(em, Account).join(', ')}, ${read} ${BY_KEY_HASH}`,
  });
}

/** The account row of an API key's hash, or none: every request of every key runs this (D23), prepared. */
export async function readAccountRowByKeyHash(em: EntityManager, keyHash: string): Promise<SqlRow | undefined> {
  const { rows } = await runPrepared(em, accountByKeyHashStatement(em), [keyHash]);
  return rows[0];
}

/**
 * As `readAccountRowByKeyHash`, with what a poll reads (`polled.reads`) in the same statement: the version, or the
 * answer; null when the key's account has no such order or booking.
 */
export async function readAccountRowAndPolled(
  em: EntityManager,
  keyHash: string,
  polled: PolledRead,
): Promise<{ row: SqlRow; version?: string | null; answer?: PolledAnswer | null } | undefined> {
  const { rows, date } = await runPrepared(em, accountAndPolledStatement(em, polled), [keyHash, polled.id]);
  if (!rows[0]) return undefined;
  const { polled_version, polled_answer, ...row } = rows[0];
  return polled.reads === 'version'
    ? { row, version: polled_version as string | null }
    : { row, answer: polled_answer ? { row: polled_answer as SqlRow, date } : null };
}
