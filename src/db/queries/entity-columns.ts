import { ReferenceKind, type EntityManager, type EntityName } from '@mikro-orm/core';

/**
 * The stored columns of an entity's own scalar properties, quoted (and prefixed by `alias`), as its metadata maps
 * them: a prepared statement names its columns, and a row of them is what `em.map()` hydrates.
 */
export function scalarColumns<T extends object>(em: EntityManager, entity: EntityName<T>, alias?: string): string[] {
  return em
    .getMetadata()
    .get(entity)
    .props.filter((prop) => prop.kind === ReferenceKind.SCALAR && prop.persist !== false)
    .flatMap((prop) => prop.fieldNames.map((column) => `${alias ? `${alias}.` : ''}"${column}"`));
}
