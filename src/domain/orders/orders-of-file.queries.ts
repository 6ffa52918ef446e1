import type { EntityManager } from '@mikro-orm/core';
import type { OrderStatus } from './order.entity';
import { runSql } from '../../db/orm-driver';

/** The statuses of the orders a file is attached to, in one statement and with no partly loaded order left in the identity map. */
export async function statusesOfOrdersWithFile(em: EntityManager, fileId: string): Promise<OrderStatus[]> {
  const rows = await runSql<{ status: OrderStatus }>(
    em,
    `select o.status from file_attachments a join orders o on o.id = a.order_id where a.file_id = ?`,
    [fileId],
  );
  return rows.map((row) => row.status);
}
