import type { CertificateContent, CertifiedDocumentLine } from '../../documents/certificate-pdf';
import type { Account } from '../identity/account.entity';
import { languageName } from '../catalog/language-names';
import type { Order } from '../orders/order.entity';
import { billedUnits } from '../quotes/billed-units';
import type { StaffUser } from '../identity/staff-user.entity';
import type { Notarization } from './notarization.entity';

/**
 * What a certificate of accuracy states (D20), gathered from the order for the drawing in
 * `src/documents/certificate-pdf.ts`: the operator, the client, the order and its languages, the documents, the
 * certifying translator, the date, the notarization when recorded (D21) and the verification code.
 */
export function certificateFacts(input: {
  company: CertificateContent['company'];
  order: Order;
  account: Account;
  documents: CertifiedDocumentLine[];
  signer: StaffUser;
  notarization: Notarization | null;
  date: Date;
  verification: CertificateContent['verification'];
}): CertificateContent {
  const { order, notarization } = input;
  return {
    company: input.company,
    clientName: input.account.name,
    orderNumber: order.number,
    languages: { from: languageName(order.sourceLanguage), to: languageName(order.targetLanguage) },
    documents: input.documents,
    billed: billedUnits(order),
    translator: { name: input.signer.name, credentials: input.signer.credentials },
    date: input.date,
    notarization: notarization && {
      notaryName: notarization.notaryName,
      commissionNumber: notarization.commissionNumber,
      jurisdiction: notarization.jurisdiction,
      commissionExpiresOn: notarization.commissionExpiresOn,
      notarizedAt: notarization.notarizedAt,
    },
    verification: input.verification,
  };
}
