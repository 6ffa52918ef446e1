import type { EntityManager } from '@mikro-orm/core';
import { IssuedCertificate } from './issued-certificate.entity';

/** The certificates of several orders in one query, by order id. */
export async function certificatesOf(
  em: EntityManager,
  orderIds: readonly string[],
): Promise<Map<string, IssuedCertificate>> {
  const certificates = await em.find(IssuedCertificate, { order: { $in: [...orderIds] } });
  return new Map(certificates.map((certificate) => [certificate.order.id, certificate]));
}
