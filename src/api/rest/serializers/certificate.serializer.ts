import type { IssuedCertificate } from '../../../domain/certification/issued-certificate.entity';
import { formatOptionalTimestamp, formatTimestamp } from '../../format';
import type { CertificateJson } from '../responses/certificate.response';

/** D20's public view of a certificate: what it states, and of the client only the account's name. */
export function serializeCertificate(certificate: IssuedCertificate, verificationUrl: string): CertificateJson {
  return {
    code: certificate.code,
    verification_url: verificationUrl,
    order_number: certificate.orderNumber,
    account_name: certificate.accountName,
    issued_at: formatTimestamp(certificate.issuedAt),
    source_language: certificate.sourceLanguage,
    target_language: certificate.targetLanguage,
    translator: { name: certificate.translator.name, credentials: certificate.translator.credentials },
    notarized: certificate.notarized,
    // D30: a revision's certificate replaced this one; an added field (D4).
    superseded: certificate.supersededBy !== null,
    superseded_by: certificate.supersededBy,
    // D33: the certified documents were deleted under the retention policy; the hashes below still verify a copy.
    documents_deleted_at: formatOptionalTimestamp(certificate.order.documentsDeletedAt),
    documents: certificate.documents.map((document) => ({
      name: document.name,
      source_name: document.sourceName,
      sha256: document.sha256,
      page_count: document.pageCount,
    })),
  };
}
