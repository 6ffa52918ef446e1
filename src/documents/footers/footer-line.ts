/** What the footer of a certified translation names: its order and its certificate's verification code. */
export interface FooterFacts {
  orderNumber: string;
  code: string;
}

/**
 * D20: what every page of a certified translation carries; `page` and `pages` are filled in per page. The certificate
 * quotes it with `n` and `N`, so what it promises is what the pages say.
 */
export const footerLine = ({ orderNumber, code }: FooterFacts, page: string, pages: string): string =>
  `Order ${orderNumber} · Certified translation · Page ${page} of ${pages} · Verification ${code}`;
