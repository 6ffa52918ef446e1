import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { ConfirmWithInterpreterDocument } from '../graphql/generated';
import { byRole, checkScreen, choose, fill, pageText, press, waitForText } from '../helpers/browser';
import { createInterpreter, passStart, payBookingCheckout, requestBooking } from '../helpers/bookings';
import { consoleSuite, signInToConsole } from '../helpers/console';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';

/**
 * The console's bookings desk in a real browser (docs/decisions.md D34, D32): the queue by status; a booking confirmed
 * with an interpreter chosen among those who qualify and are free (a refusal shown beside the field first), paid by
 * the client, and completed with the hours it really took; a paid booking cancelled with the policy's fee shown and
 * waived; each result checked through REST as the client sees it. A translator is not shown the bookings at all.
 */
const suite = consoleSuite();
let firm: TestAccount;
let staffToken: string;

beforeAll(async () => {
  staffToken = await createStaffToken(suite.t);
  firm = await createApprovedAccount(suite.t, staffToken);
}, 60_000);

const clientView = async (id: string) =>
  (await suite.t.rest.get(`/api/v1/interpretation-bookings/${id}`, firm.key).expect(200)).body.data;

it('confirms a booking with an interpreter who qualifies and is free, and completes it with its actual hours', async () => {
  const { t } = suite;
  const booking = await requestBooking(t, firm.key, { reference: 'Deposition Ruiz' });
  const ines = await createInterpreter(t, staffToken, { name: 'Inés Interpreter' });
  await createInterpreter(t, staffToken, { name: 'Franz French', languages: ['fr'] });
  await createInterpreter(t, staffToken, { name: 'Olga Off', active: false });
  const { page } = await signInToConsole(suite);
  await press(page, 'Bookings', 'link');
  await choose(page, 'Status', 'REQUESTED');
  await press(page, 'Filter');
  await (await byRole(page, 'link', booking.number)).click();
  await byRole(page, 'heading', `Booking ${booking.number} Requested`);

  // Only who speaks Spanish, works by video, is active and free is offered.
  await byRole(page, 'combobox', 'Interpreter');
  await page.waitForFunction(`document.querySelectorAll('select[name="interpreterId"] option').length > 1`);
  const offered = await page.$$eval('select[name="interpreterId"] option', (options) =>
    options.map((option) => option.textContent),
  );
  expect(offered).toEqual(['Choose an interpreter', 'Inés Interpreter · es']);
  await press(page, 'Confirm availability');
  await page.waitForSelector('select[name="interpreterId"][aria-invalid="true"]');
  await checkScreen(t, page, 'console-booking-refused');
  await choose(page, 'Interpreter', ines.id);
  await press(page, 'Confirm availability');
  await waitForText(page, 'Availability confirmed');
  expect(await clientView(booking.id)).toMatchObject({ status: 'awaiting_payment', interpreter_name: ines.name });

  await payBookingCheckout(t, booking.id, firm.key);
  await passStart(t, booking.id);
  await page.reload({ waitUntil: 'load' });
  await fill(page, 'Actual hours (optional)', '2.5');
  await press(page, 'Complete booking');
  await waitForText(page, 'Booking completed.');
  await waitForText(page, 'overtime 0.5 h');
  expect(await clientView(booking.id)).toMatchObject({ status: 'completed', payment: { overtime: { hours: 0.5 } } });
  await checkScreen(t, page, 'console-booking');
  await page.close();
}, 120_000);

it('shows the fee a cancel keeps before the desk cancels, and waives it', async () => {
  const { t } = suite;
  // 30 hours ahead: the policy keeps half of what was paid.
  const start = new Date(Date.now() + 30 * 3600_000).toISOString();
  const booking = await requestBooking(t, firm.key, { scheduled_at: start });
  // Confirmed through the API (the screen's confirmation is the test above), and paid by the client.
  const ines = await createInterpreter(t, staffToken);
  const confirmed = await t.gql(ConfirmWithInterpreterDocument, { id: booking.id, interpreterId: ines.id }, staffToken);
  expect(confirmed.errors).toBeUndefined();
  await payBookingCheckout(t, booking.id, firm.key);
  const paid = await clientView(booking.id);
  expect(paid.status).toBe('confirmed');

  const { page } = await signInToConsole(suite);
  await page.goto(`${suite.b.base}/console/bookings/${booking.number}`, { waitUntil: 'load' });
  const half = (paid.total_cents / 200).toFixed(2);
  await waitForText(page, `Cancelling now keeps a fee of $${half} and refunds $${half}.`);
  await (await byRole(page, 'checkbox', 'Waive the fee (refund all of it)')).click();
  await fill(page, 'Reason to cancel', 'The hearing was adjourned.');
  await checkScreen(t, page, 'console-booking-cancel');
  await press(page, 'Cancel booking');
  await waitForText(page, 'Booking cancelled; the client is e-mailed.');
  const cancelled = await clientView(booking.id);
  expect(cancelled).toMatchObject({ status: 'cancelled', payment: { refunded_cents: paid.total_cents } });
  await byRole(page, 'heading', `Booking ${booking.number} Cancelled`);
  expect(await pageText(page)).not.toContain('Cancelling now');
  await page.close();
}, 120_000);

it('shows a translator neither the bookings nor the desk moves on an order', async () => {
  const { page } = await signInToConsole(suite, { role: StaffRole.TRANSLATOR, name: 'Tom Translator' });
  expect(await page.$$eval('nav a', (links) => links.map((link) => link.textContent))).toEqual(['Orders']);
  await page.goto(`${suite.b.base}/console/bookings`, { waitUntil: 'load' });
  await byRole(page, 'heading', 'Not found');
  await page.close();
}, 60_000);
