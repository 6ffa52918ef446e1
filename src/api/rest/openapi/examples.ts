import { LANGUAGE_CODES } from '../../../domain/catalog/language-codes';
import { DEEPL_LANGUAGES } from '../../../providers/translation/deepl-language-lists';

/**
 * Example data of the reference: one Spanish affidavit followed from upload to a completed certified order,
 * and one remote interpreter booked for a deposition. Every example is validated against its schema by the
 * tests and by the OpenAPI lint, so they cannot drift from what the service answers.
 */
const BASE = 'https://api.translations.example.org/api/v1';
const ids = {
  source: '3f1c2b7e-8d4a-4c1b-9e2f-6a5b4c3d2e1f',
  translation: '7a9e4d21-5b3c-4f6e-8a1d-2c3b4a5e6f70',
  certificate: 'c2d4e6f8-1a3b-4c5d-9e7f-8a9b0c1d2e3f',
  quote: '5e8d1c4b-2a3f-4b6c-8d9e-0f1a2b3c4d5e',
  order: '9b7c5d3e-1f2a-4b4c-8d6e-7f8a9b0c1d2e',
  booking: 'e1d2c3b4-a5f6-4e7d-8c9b-0a1b2c3d4e5f',
  account: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
};
const checkoutId = 'SBX-4b2e9c1a-7d3f-4e8b-9a6c-5d1e2f3a4b5c';
const signedLink = (id: string) =>
  `${BASE}/files/${id}/download?expires=1795437000&signature=${'5d41402abc4b2a76b9719d911017c592'.repeat(2)}`;

export const exampleFileUploaded = {
  id: ids.source,
  type: 'source',
  name: 'affidavit_es.docx',
  mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  size_bytes: 48213,
  page_count: null,
  word_count: null,
  document_pages: null,
  scanned_pages: null,
  analysis_status: 'pending',
  created_at: '2026-11-22T09:30:00.123000Z',
  purged_at: null,
};

export const exampleFileCounted = {
  ...exampleFileUploaded,
  page_count: 3,
  word_count: 612,
  document_pages: 2,
  scanned_pages: 0,
  analysis_status: 'counted',
};

export const exampleCertificateFile = {
  id: ids.certificate,
  type: 'certificate',
  name: 'LT-2611-AB12CD-certificate.pdf',
  mime_type: 'application/pdf',
  size_bytes: 91544,
  page_count: 1,
  word_count: 233,
  document_pages: 1,
  scanned_pages: 0,
  analysis_status: 'counted',
  created_at: '2026-11-23T15:12:40.512000Z',
  purged_at: null,
  download_url: signedLink(ids.certificate),
};

const shippingAddress = {
  name: 'Smith & Partners LLP, attn. Records',
  line1: '1200 Main Street',
  line2: 'Suite 400',
  city: 'Houston',
  region: 'TX',
  postal_code: '77002',
  country: 'US',
};

/** A `PUT /orders/{id}/shipping_address` body: the address itself. */
export const exampleShippingAddress = shippingAddress;

const INSTRUCTIONS = 'Spell the petitioner as on her passport: María José GARCÍA LÓPEZ.';

export const exampleQuoteRequest = {
  source_language: 'es',
  target_language: 'en',
  service_type: 'certified',
  file_ids: [ids.source],
  addons: [{ code: 'hard_copy', quantity: 2 }],
  reference: 'Matter 114 - Garcia asylum petition',
  shipping_address: shippingAddress,
  instructions: INSTRUCTIONS,
};

const pricedWork = {
  service_type: 'certified',
  source_language: 'es',
  target_language: 'en',
  unit_type: 'page',
  unit_count: 3,
  document_pages: 2,
  scanned_pages: 0,
  subtotal_cents: 2970,
  addons: [{ code: 'hard_copy', quantity: 2, unit_price_cents: 1495, total_cents: 2990 }],
  addons_total_cents: 2990,
  total_cents: 5960,
  currency: 'USD',
  reference: 'Matter 114 - Garcia asylum petition',
  purchase_order: null,
  shipping_address: shippingAddress,
  placed_by: {
    kind: 'member',
    member: { id: '5e0c2f7a-91d4-4b8e-a3f6-0d2b7c9e1a44', name: 'Dana Whitfield', email: 'dana@whitfield-law.example' },
  },
  instructions: INSTRUCTIONS,
};

export const exampleQuote = {
  id: ids.quote,
  status: 'priced',
  ...pricedWork,
  file_ids: [ids.source],
  unit_price_cents: 990,
  expires_at: '2026-11-29T09:31:12.004000Z',
  created_at: '2026-11-22T09:31:12.004000Z',
};

export const exampleConvertRequest = { redirect_url: 'https://portal.smith-partners.example/orders/returned' };

export const exampleConverted = {
  data: { id: ids.order, number: 'LT-2611-AB12CD', status: 'pending_payment' },
  provider_approval_url: `${BASE}/sandbox/checkout/${checkoutId}`,
};

const paidPayment = {
  provider: 'sandbox',
  provider_order_id: checkoutId,
  approval_url: `${BASE}/sandbox/checkout/${checkoutId}`,
  paid_at: '2026-11-22T09:40:05.871000Z',
  refunded_at: null,
  refunded_cents: 0,
  receipt_url: `${BASE}/payments/6d0c4b2a-1e9f-4a7b-8c3d-2f1e0d9c8b7a/receipt`,
};

const orderBase = {
  id: ids.order,
  number: 'LT-2611-AB12CD',
  ...pricedWork,
  quote_id: ids.quote,
  payment: paidPayment,
  hold_reason: null,
  certificate: null,
  shipping_address_required: false,
  shipment: null,
  revision_of: null,
  revision_reason: null,
  revisions: [],
  revision_window_closes_at: null,
  reference_file_ids: [],
  legal_hold: false,
  legal_hold_by_staff: false,
  documents_deleted_at: null,
  due_at: '2026-11-24T09:40:05.871000Z',
  completed_at: null,
  cancelled_at: null,
  created_at: '2026-11-22T09:38:47.220000Z',
};

/** Paid and being translated: the client sees only its source. */
export const exampleOrderProcessing = {
  ...orderBase,
  status: 'processing',
  files: [{ id: ids.source, type: 'source', name: 'affidavit_es.docx' }],
  updated_at: '2026-11-22T09:40:05.871000Z',
};

/** Reviewed, certified and completed: the translation and the certificate now carry signed links. */
export const exampleOrderCompleted = {
  ...orderBase,
  status: 'completed',
  files: [
    { id: ids.source, type: 'source', name: 'affidavit_es.docx' },
    {
      id: ids.translation,
      type: 'translation',
      name: 'affidavit_es.en.docx',
      download_url: signedLink(ids.translation),
    },
    {
      id: ids.certificate,
      type: 'certificate',
      name: 'LT-2611-AB12CD-certificate.pdf',
      download_url: signedLink(ids.certificate),
    },
  ],
  certificate: {
    verification_code: 'K7QM-3XPA-9RTD-2WBN',
    verify_url: 'https://api.translations.example.org/verify/K7QM-3XPA-9RTD-2WBN',
  },
  shipment: { carrier: 'UPS', tracking_number: '1Z999AA10123456784', shipped_at: '2026-11-23T17:45:09.264000Z' },
  revision_window_closes_at: '2026-12-23T15:12:40.512000Z',
  completed_at: '2026-11-23T15:12:40.512000Z',
  updated_at: '2026-11-23T17:45:09.264000Z',
};

/** A free revision of the completed order (D30): a new order, total 0, nothing to pay, in review with draft copies. */
export const exampleOrderRevision = {
  ...orderBase,
  id: '6f1d3b5a-9c7e-4a2f-8d0b-1e3c5a7f9b2d',
  number: 'LT-2611-RV34EF',
  status: 'in_review',
  subtotal_cents: 0,
  addons: [],
  addons_total_cents: 0,
  total_cents: 0,
  files: [{ id: ids.source, type: 'source', name: 'affidavit_es.docx' }],
  payment: {
    provider: 'none',
    provider_order_id: null,
    approval_url: null,
    paid_at: '2026-11-25T10:14:02.118000Z',
    refunded_at: null,
    refunded_cents: 0,
    receipt_url: null,
  },
  revision_of: { id: ids.order, number: 'LT-2611-AB12CD' },
  revision_reason: 'The surname is misspelt on page 1: Müller, as on the passport.',
  reference_file_ids: [ids.source],
  revision_window_closes_at: '2026-12-23T15:12:40.512000Z',
  due_at: '2026-11-27T10:14:02.118000Z',
  created_at: '2026-11-25T10:14:02.118000Z',
  updated_at: '2026-11-25T10:14:02.118000Z',
};

export const exampleRevisionRequest = {
  reason: 'The surname is misspelt on page 1: Müller, as on the passport.',
  file_ids: [ids.source],
};

/** Cancelled before it was paid: nothing to refund. */
export const exampleOrderCancelled = {
  ...orderBase,
  status: 'cancelled',
  files: [{ id: ids.source, type: 'source', name: 'affidavit_es.docx' }],
  payment: { ...paidPayment, paid_at: null },
  due_at: null,
  cancelled_at: '2026-11-22T10:02:13.090000Z',
  updated_at: '2026-11-22T10:02:13.090000Z',
};

const renewedCheckoutId = 'SBX-5b7d9f1e-3a2c-4e8b-b6d4-0f2e4a6c8e1a';

/** A new checkout for a payment link the client lost: the old one no longer pays. */
const renewedPayment = {
  provider: 'sandbox',
  provider_order_id: renewedCheckoutId,
  approval_url: `${BASE}/sandbox/checkout/${renewedCheckoutId}`,
  paid_at: null,
  refunded_at: null,
  refunded_cents: 0,
  receipt_url: null,
};

export const exampleOrderRenewed = {
  ...orderBase,
  status: 'pending_payment',
  files: [{ id: ids.source, type: 'source', name: 'affidavit_es.docx' }],
  payment: renewedPayment,
  due_at: null,
  updated_at: '2026-11-23T08:02:44.610000Z',
};

export const exampleBookingRequest = {
  source_language: 'es-MX',
  target_language: 'en',
  mode: 'video_remote',
  setting: 'deposition',
  scheduled_at: '2026-12-01T09:30:00-05:00',
  duration_hours: 1.5,
  video_platform_notes: 'Zoom meeting 812 5531 0472; the court reporter admits the interpreter at 9:20.',
  reference: 'Garcia v. Smith, No. 2:26-cv-01187',
  redirect_url: 'https://portal.smith-partners.example/bookings/returned',
};

export const exampleBookingRequested = {
  id: ids.booking,
  number: 'LT-INT-2611-7QK2ZP',
  status: 'requested',
  mode: 'video_remote',
  setting: 'deposition',
  source_language: 'es-MX',
  target_language: 'en',
  scheduled_at: '2026-12-01T14:30:00.000000Z',
  duration_hours: 1.5,
  billable_hours: 2,
  unit_price_cents: 8500,
  total_cents: 17000,
  currency: 'USD',
  payment: {
    provider: 'sandbox',
    provider_order_id: null,
    approval_url: null,
    paid_at: null,
    refunded_at: null,
    refunded_cents: 0,
    receipt_url: null,
    overtime: null,
  },
  location: null,
  video_platform_notes: 'Zoom meeting 812 5531 0472; the court reporter admits the interpreter at 9:20.',
  reference: 'Garcia v. Smith, No. 2:26-cv-01187',
  interpreter_name: null,
  interpreter: null,
  hold_reason: null,
  cancellation_deadlines: null,
  completed_at: null,
  cancelled_at: null,
  created_at: '2026-11-22T11:05:31.447000Z',
  updated_at: '2026-11-22T11:05:31.447000Z',
  placed_by: { kind: 'api_key', member: null },
};

/** An interpreter was confirmed and the client paid. */
export const exampleBookingConfirmed = {
  ...exampleBookingRequested,
  status: 'confirmed',
  payment: {
    provider: 'sandbox',
    provider_order_id: 'SBX-8e1f2a3b-4c5d-4e6f-9a7b-8c9d0e1f2a3b',
    approval_url: `${BASE}/sandbox/checkout/SBX-8e1f2a3b-4c5d-4e6f-9a7b-8c9d0e1f2a3b`,
    paid_at: '2026-11-23T08:14:52.306000Z',
    refunded_at: null,
    refunded_cents: 0,
    receipt_url: null,
    overtime: null,
  },
  interpreter_name: 'Lucia Ramirez',
  interpreter: { name: 'Lucia Ramirez', qualifications: ['COURT_CERTIFIED'] },
  cancellation_deadlines: {
    full_refund_until: '2026-11-29T14:30:00.000000Z',
    half_refund_until: '2026-11-30T14:30:00.000000Z',
    terms:
      'Cancellation once paid: refunded in full by 2026-11-29 09:30 UTC-05:00 (2026-11-29 14:30 UTC); 50% refunded by 2026-11-30 09:30 UTC-05:00 (2026-11-30 14:30 UTC); nothing refunded after that.',
  },
  updated_at: '2026-11-23T08:14:52.306000Z',
};

export const exampleBookingRenewed = {
  ...exampleBookingRequested,
  status: 'awaiting_payment',
  payment: { ...renewedPayment, overtime: null },
  interpreter_name: 'Lucia Ramirez',
  interpreter: { name: 'Lucia Ramirez', qualifications: ['COURT_CERTIFIED'] },
  updated_at: '2026-11-23T08:02:44.610000Z',
};

export const exampleBookingCancelled = {
  ...exampleBookingRequested,
  status: 'cancelled',
  cancelled_at: '2026-11-22T16:20:03.118000Z',
  updated_at: '2026-11-22T16:20:03.118000Z',
};

export const exampleAccount = {
  id: ids.account,
  name: 'Smith & Partners LLP',
  email: 'it@smith-partners.example',
  status: 'approved',
  api_key_last4: '9f3k',
  api_key_issued_at: '2026-11-20T14:02:11.385000Z',
  approved_at: '2026-11-20T14:02:11.385000Z',
  retention_days: 90,
  created_at: '2026-11-20T13:58:40.019000Z',
};

export const examplePricing = {
  services: [
    { service_type: 'certified', unit: 'page', unit_price_cents: 990, currency: 'USD' },
    { service_type: 'standard', unit: 'word', unit_price_cents: 1, currency: 'USD' },
  ],
  addons: [
    { code: 'notarization', name: 'Notarization', pricing_type: 'flat', price_cents: 0, currency: 'USD' },
    { code: 'hard_copy', name: 'Mailed hard copy', pricing_type: 'per_copy', price_cents: 1495, currency: 'USD' },
    { code: 'rush_2h', name: 'Rush delivery (1-2 hours)', pricing_type: 'flat', price_cents: 3995, currency: 'USD' },
  ],
  interpretation: [
    { mode: 'on_site', unit: 'hour', unit_price_cents: 12500, minimum_hours: 2, currency: 'USD' },
    { mode: 'video_remote', unit: 'hour', unit_price_cents: 8500, minimum_hours: 2, currency: 'USD' },
    { mode: 'sight_translation', unit: 'hour', unit_price_cents: 9500, minimum_hours: 2, currency: 'USD' },
    { mode: 'asl', unit: 'hour', unit_price_cents: 11000, minimum_hours: 2, currency: 'USD' },
    { mode: 'ai_conference', unit: 'hour', unit_price_cents: 3500, minimum_hours: 2, currency: 'USD' },
  ],
  booking_policy: {
    free_cancellation_statuses: ['requested', 'awaiting_payment'],
    tiers: [
      { hours_before_start_at_least: 48, refund_percent: 100 },
      { hours_before_start_at_least: 24, refund_percent: 50 },
      { hours_before_start_at_least: 0, refund_percent: 0 },
    ],
    waivable_by_staff: true,
  },
};

/** The whole catalog, as `GET /languages` answers it (the schema asks for at least 200 entries). */
const names = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' });
/** As the sandbox answers: standard where DeepL's lists have the language. */
export const exampleLanguages = LANGUAGE_CODES.map((code) => ({
  code,
  name: names.of(code) ?? code,
  services: DEEPL_LANGUAGES.translates(code) ? ['certified', 'standard'] : ['certified'],
})).sort((a, b) => a.name.localeCompare(b.name, 'en'));

export const exampleCertificate = {
  code: 'K7QM-3XPA-9RTD-2WBN',
  verification_url: 'https://api.translations.example.org/verify/K7QM-3XPA-9RTD-2WBN',
  order_number: 'LT-2611-AB12CD',
  account_name: 'Smith & Partners LLP',
  issued_at: '2026-11-23T15:12:40.512000Z',
  source_language: 'es',
  target_language: 'en',
  translator: { name: 'Maria Fernandez', credentials: 'ATA-certified translator, Spanish into English (No. 512345)' },
  notarized: false,
  superseded: false,
  superseded_by: null,
  documents_deleted_at: null,
  documents: [
    {
      name: 'affidavit_es.en.docx',
      source_name: 'affidavit_es.docx',
      sha256: '9f2c6a1e0b7d4c3a8e5f1b2d6c9a0e3f7b4d1c8a5e2f9b6d3c0a7e4f1b8d5c2a',
      page_count: 3,
    },
  ],
};

/** A list envelope as a page of one item answers it. */
export const examplePage = (path: string, item: unknown) => ({
  data: [item],
  links: { first: `${BASE}${path}?page=1`, last: `${BASE}${path}?page=1`, prev: null, next: null },
  meta: { current_page: 1, from: 1, last_page: 1, path: `${BASE}${path}`, per_page: 15, to: 1, total: 1 },
});

/** A message of an order's conversation (D30), and the body that writes one. */
export const exampleOrderMessageRequest = {
  text: 'The birth certificate spells the father as "Jose" without the accent; please keep it so.',
};

export const exampleOrderMessage = {
  id: '4c6e8a0b-2d4f-4a6b-8c0e-1f3a5b7c9d2e',
  author: { kind: 'client', name: 'Dana Whitfield' },
  ...exampleOrderMessageRequest,
  created_at: '2026-11-22T11:05:42.310000Z',
};

export const exampleUpload = { file: '(the bytes of affidavit_es.docx)', type: 'source' };

export const exampleWebhookAck = { status: 'handled' };

export const exampleCheckoutPage =
  '<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Pay LT-2611-AB12CD</title></head>' +
  '<body><h1>Order LT-2611-AB12CD</h1><p>Certified translation, es to en, 3 pages: $29.70. Mailed hard copy x 2: $29.90. Total $59.60</p><form method="post"><button>Pay</button></form></body></html>';

export const exampleOnAccountPage =
  '<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Place LT-2611-AB12CD on account</title></head>' +
  '<body><h1>Order LT-2611-AB12CD</h1><p>Certified translation, es to en, 3 pages: $29.70. Total $29.70</p><form method="post" action="ACC-4b2e9c1a/place"><button>Place order on account</button></form><form method="post" action="ACC-4b2e9c1a/card"><button>Pay by card instead</button></form></body></html>';

export const examplePaymentPage =
  '<!doctype html><html lang="en"><head><title>Payment received</title></head><body><p>Payment received for LT-2611-AB12CD.</p></body></html>';
