import type { EntityManager } from '@mikro-orm/core';
import { statusesOfOrdersWithFile } from './orders-of-file.queries';
import { FileType, type StoredFile } from '../files/file.entity';
import { seesEveryFile } from '../files/file-visibility';
import type { Actor } from '../identity/context';
import { OrderStatus } from './order.entity';

/**
 * D18, the one rule of who sees which file of an order: staff see every file of every order at any time (with
 * signed links, sources included); a client sees the sources at any time and the translations and certificates
 * only once the order is completed, so unreviewed certified work never leaves the desk. Every door and read path
 * (REST serializers, GraphQL resolvers, GET /files/{id}, a faster read path) asks here.
 */
export function clientSeesFile(orderStatus: OrderStatus, fileType: FileType): boolean {
  return fileType === FileType.SOURCE || orderStatus === OrderStatus.COMPLETED;
}

/** The files of one order that `viewer` may see. */
export function visibleOrderFiles<F extends { type: FileType }>(
  viewer: Actor | null,
  order: { status: OrderStatus },
  files: F[],
): F[] {
  return seesEveryFile(viewer) ? files : files.filter((file) => clientSeesFile(order.status, file.type));
}

/** Whether a client may see one of its own files on its own: any source; anything else through an order that shows it. */
export async function clientMaySeeFile(em: EntityManager, file: StoredFile): Promise<boolean> {
  if (file.type === FileType.SOURCE) return true;
  return (await statusesOfOrdersWithFile(em, file.id)).some((status) => clientSeesFile(status, file.type));
}
