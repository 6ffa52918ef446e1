import { OrderStatus } from '../orders/order.entity';

/** What a client reads of its own certificate on the order (D29): the code printed on it, and where it is verified. */
export interface OrderCertificate {
  verificationCode: string;
  verifyUrl: string;
}

/** The certificate of a completed order, or null (not completed, or not certified). */
export function orderCertificate(
  order: { status: OrderStatus },
  code: string | null,
  verifyUrl: (code: string) => string,
): OrderCertificate | null {
  return order.status === OrderStatus.COMPLETED && code ? { verificationCode: code, verifyUrl: verifyUrl(code) } : null;
}
