import { ReferenceKind, type EntityManager, type EntityName } from '@mikro-orm/core';
import type { SqlRow } from '../orm-driver';

/** The stored columns of an entity's own scalar properties, as its metadata maps them. */
const columnsOf = <T extends object>(em: EntityManager, entity: EntityName<T>): string[] =>
  em
    .getMetadata()
    .get(entity)
    .props.filter((prop) => prop.kind === ReferenceKind.SCALAR && prop.persist !== false)
    .flatMap((prop) => prop.fieldNames);

/**
 * Those columns quoted (and prefixed by `alias`): a prepared statement names its columns, and a row of them is what
 * `em.map()` hydrates.
 */
export function scalarColumns<T extends object>(em: EntityManager, entity: EntityName<T>, alias?: string): string[] {
  return columnsOf(em, entity).map((column) => `${alias ? `${alias}.` : ''}"${column}"`);
}

/**
 * Those columns of the row aliased `alias`, each named `<prefix><column>`: a statement that reads another row beside
 * it (a page of orders with their accounts) keeps the two apart; `prefixedRow` takes it back out.
 */
export function prefixedColumns<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  alias: string,
  prefix: string,
): string[] {
  return columnsOf(em, entity).map((column) => `${alias}."${column}" AS "${prefix}${column}"`);
}

/** The columns `prefixedColumns` named, as `em.map()` takes them; null when no row was joined (its id is null). */
export function prefixedRow(row: SqlRow, prefix: string): SqlRow | null {
  if (row[`${prefix}id`] === null || row[`${prefix}id`] === undefined) return null;
  const own: SqlRow = {};
  for (const key of Object.keys(row)) if (key.startsWith(prefix)) own[key.slice(prefix.length)] = row[key];
  return own;
}
