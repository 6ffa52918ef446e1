/**
 * The pages of the service that e-mails send people to (D30): a person acts on a page, so an e-mail links to the client
 * portal or the staff console (D34, D35) and names the API only in the API's own documentation. Absolute, from the
 * configured public address (`APP_URL`), as every link the service writes.
 */
export class PageLinks {
  constructor(private readonly appUrl: string) {}

  /** The portal's page of one order: its status, its conversation with the desk (answered there) and its documents. */
  portalOrder(orderId: string): string {
    return `${this.appUrl}/portal/orders/${orderId}`;
  }

  /** The portal's invoices of a terms account, each with a fresh link to its PDF (D31). */
  portalInvoices(): string {
    return `${this.appUrl}/portal/invoices`;
  }

  /** The console's page of one order, found by its number as the desk reads it. */
  consoleOrder(orderNumber: string): string {
    return `${this.appUrl}/console/orders/${encodeURIComponent(orderNumber)}`;
  }
}
