import { ReferenceKind, type EntityManager, type EntityName, type EntityProperty } from '@mikro-orm/core';
import type { SqlRow } from './orm-driver';

/**
 * The columns an entity's row stores, as its metadata maps them: its scalar properties and the keys of the rows it
 * points to (many-to-one, and one-to-one on the owning side), which `em.map()` makes references of.
 */
const columnsOf = <T extends object>(em: EntityManager, entity: EntityName<T>): string[] =>
  em
    .getMetadata()
    .get(entity)
    .props.filter((prop) => prop.persist !== false && !prop.formula && stored(prop))
    .flatMap((prop) => prop.fieldNames);

const stored = (prop: EntityProperty): boolean =>
  prop.kind === ReferenceKind.SCALAR ||
  prop.kind === ReferenceKind.MANY_TO_ONE ||
  (prop.kind === ReferenceKind.ONE_TO_ONE && prop.owner);

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
