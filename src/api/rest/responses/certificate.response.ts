import { z } from 'zod';
import { Timestamp, Url } from './base.response';
import { component, documented } from './response-registry';

const verificationCode = z.string().regex(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);

/** D20's public view of a certificate: what it states, and of the client only the account's name. */
export const Certificate = component(
  'Certificate',
  z.strictObject({
    code: documented(
      verificationCode,
      'The verification code printed on the certificate and in the footer of every translated page.',
      ['K7QM-3XPA-9RTD-2WBN'],
    ),
    verification_url: documented(Url, 'The public verification page for people (`/verify/{code}`, HTML).'),
    order_number: documented(z.string(), 'Number of the certified order.', ['LT-2611-AB12CD']),
    account_name: documented(z.string(), "The client account's name: the only client data shown."),
    issued_at: Timestamp.describe('When the certificate was issued, at completion of the order (UTC).'),
    source_language: documented(z.string(), "Canonical code of the documents' language."),
    target_language: documented(z.string(), "Canonical code of the translation's language."),
    translator: documented(
      z.strictObject({
        name: documented(z.string(), 'Full name of the translator who reviewed and signed.'),
        credentials: documented(
          z.string().nullable(),
          "The translator's credentials as recorded by the operator; null when none are recorded.",
        ),
      }),
      'Who stands behind the translation.',
    ),
    notarized: documented(
      z.boolean(),
      'A notarization was recorded (notary, commission, date) before the certificate was issued.',
    ),
    superseded: documented(
      z.boolean(),
      "True once the certificate of a revision of the order replaced this one: rely on `superseded_by`'s certificate instead.",
    ),
    superseded_by: documented(
      z
        .string()
        .meta({ examples: ['P4RT-8WQE-2MZC-7HNA'] })
        .nullable(),
      "The verification code of the revision's certificate that superseded this one; null while it stands.",
    ),
    documents_deleted_at: documented(
      Timestamp.nullable(),
      "When the certified documents were deleted under the client's retention policy (UTC); null while they are kept. The certificate stays valid: the fingerprints still verify a copy.",
    ),
    documents: documented(
      z.array(
        z.strictObject({
          name: documented(z.string(), 'File name of the delivered translation.'),
          source_name: documented(z.string(), 'File name of the source document it translates.'),
          sha256: documented(
            z.string().regex(/^[0-9a-f]{64}$/),
            "SHA-256 of the delivered translation file, footer included: compare a copy's hash to it.",
          ),
          page_count: documented(z.number().int().min(1), 'Pages of the translation.'),
        }),
      ),
      'Each certified document, in the order of the certificate.',
    ),
  }),
);

export type CertificateJson = z.output<typeof Certificate>;
