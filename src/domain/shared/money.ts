/** An amount as e-mails, pages and receipts write it: `$12.50`. */
export const formatMoney = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
