import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AssignOrderDocument,
  ConfirmWithInterpreterDocument,
  HoldInterpretationBookingDocument,
  UpdateInterpreterDocument,
} from '../graphql/generated';
import { byRole, checkScreen, choose, fill, pageText, press, typeDate, waitForText } from '../helpers/browser';
import { createInterpreter, passStart, payBookingCheckout, requestBooking } from '../helpers/bookings';
import { consoleSuite, dateTimeKeys, signInToConsole } from '../helpers/console';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { paidOrder } from '../helpers/orders';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';

/**
 * The console's bookings desk in a real browser (docs/decisions.md D34, D32): the queue by status; a booking confirmed
 * with an interpreter chosen among those who qualify and are free (a refusal shown beside the field first), paid by
 * the client, and completed with the hours it really took; a paid booking's cancellation deadlines, and the fee the
 * service says a cancel keeps now, shown before it is cancelled with the fee waived; a held booking whose interpreter
 * was deactivated given another and released; each result checked through REST as the client sees it. A translator is
 * not shown the bookings at all.
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
  // A day that is none in an address edited by hand filters nothing; the queue still shows.
  await page.goto(`${suite.b.base}/console/bookings?from=garbage`, { waitUntil: 'load' });
  await byRole(page, 'link', booking.number);
  await press(page, 'Bookings', 'link');
  await choose(page, 'Status', 'REQUESTED');
  await press(page, 'Filter');
  await press(page, booking.number, 'link');
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
  // Reschedule without a new start is said beside the field, in words.
  await press(page, 'Reschedule');
  await waitForText(page, 'Choose the new start.');
  // A typo is said beside the field and sends nothing: read as no value, it would complete without the overtime.
  await fill(page, 'Actual hours (optional)', '3 h');
  await press(page, 'Complete booking');
  await waitForText(page, 'Write a number, such as 2 or 2.5.');
  expect(await clientView(booking.id)).toMatchObject({ status: 'confirmed' });
  await fill(page, 'Actual hours (optional)', '2.5');
  await press(page, 'Complete booking');
  await waitForText(page, 'Booking completed.');
  await waitForText(page, 'overtime 0.5 h');
  // The audit trail shows the move just made, without a reload.
  await waitForText(page, 'booking.complete');
  const completed = await clientView(booking.id);
  expect(completed).toMatchObject({ status: 'completed', payment: { overtime: { hours: 0.5 } } });
  // Once the client pays the overtime, the desk can refund from it, apart from the booking's own payment (D32).
  const overtimeCheckout = completed.payment.overtime.approval_url.replace(t.config.appUrl, '');
  await t.rest.raw().post(`${overtimeCheckout}/pay`).type('form').send({}).expect(200);
  await page.reload({ waitUntil: 'load' });
  await fill(page, 'Amount of the overtime to refund (USD)', '10');
  await fill(page, 'Reason for refunding the overtime', 'The last half hour was a break.');
  await press(page, 'Refund the overtime');
  await waitForText(page, 'Refund asked of the payment provider.');
  await waitForText(page, '$10.00 refunded');
  expect((await clientView(booking.id)).payment).toMatchObject({
    refunded_cents: 0,
    overtime: { refunded_cents: 1000 },
  });
  await checkScreen(t, page, 'console-booking');
  await page.close();
}, 120_000);

/** A booking `hoursAhead` from now, confirmed through the API with a new interpreter (the screen's is the test above). */
async function confirmedBooking(hoursAhead: number, fields: Record<string, unknown> = {}) {
  const { t } = suite;
  const start = new Date(Date.now() + hoursAhead * 3600_000).toISOString();
  const booking = await requestBooking(t, firm.key, { scheduled_at: start, ...fields });
  const interpreter = await createInterpreter(t, staffToken);
  const confirmed = await t.gql(
    ConfirmWithInterpreterDocument,
    { id: booking.id, interpreterId: interpreter.id },
    staffToken,
  );
  expect(confirmed.errors).toBeUndefined();
  return { booking, interpreter };
}

it('shows the deadlines and the fee the service says a cancel keeps, before the desk cancels, and waives it', async () => {
  const { t } = suite;
  // 30 hours ahead, booked at -05:00: the policy keeps half of what was paid.
  const at = new Date(Date.now() + 30 * 3600_000);
  const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
  const local = new Date(minute.getTime() - 5 * 3600_000).toISOString().slice(0, 16);
  const { booking } = await confirmedBooking(30, { scheduled_at: `${local}:00-05:00` });
  await payBookingCheckout(t, booking.id, firm.key);
  const paid = await clientView(booking.id);
  expect(paid.status).toBe('confirmed');

  const { page } = await signInToConsole(suite);
  // Hours pass in a second: the page's long timers (the wait for the next deadline) run at once.
  await page.evaluateOnNewDocument(`{
    const later = window.setTimeout;
    window.setTimeout = (run, ms, ...rest) => later(run, ms >= 60000 ? 1500 : ms, ...rest);
  }`);
  await page.goto(`${suite.b.base}/console/bookings/${booking.number}`, { waitUntil: 'load' });
  // The deadlines as the client's e-mails write them: in the offset booked in, UTC beside it.
  await waitForText(page, paid.cancellation_deadlines.terms);
  expect(paid.cancellation_deadlines.terms).toMatch(/UTC-05:00 \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
  // Its start likewise, as the client wrote it (D29).
  await waitForText(
    page,
    `${local.replace('T', ' ')} UTC-05:00 (${minute.toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
  );
  const half = (paid.total_cents / 200).toFixed(2);
  await waitForText(page, `Cancelling now keeps a fee of $${half} and refunds $${half}.`);

  // Rescheduled an hour later, typed in the client's offset (the form says which), not this browser's time zone.
  await waitForText(page, 'In the client’s time, UTC-05:00');
  const later = new Date(minute.getTime() - 4 * 3600_000).toISOString().slice(0, 16);
  await typeDate(page, 'New start', ...dateTimeKeys(later));
  await press(page, 'Reschedule');
  await waitForText(page, 'Booking rescheduled; the client is e-mailed.');
  await waitForText(page, `${later.replace('T', ' ')} UTC-05:00`);
  const moved = await clientView(booking.id);
  expect(Date.parse(moved.scheduled_at)).toBe(minute.getTime() + 3600_000);
  // The same start again is no change to e-mail: refused beside the field.
  await press(page, 'Reschedule');
  await waitForText(page, 'The booking already starts then: choose another start.');
  await checkScreen(t, page, 'console-booking-rescheduled');

  // Left open while its start comes within a day, the page reads the fee again when the deadline passes.
  await passHalfRefundDeadline(booking.id);
  const all = (paid.total_cents / 100).toFixed(2);
  await waitForText(page, `Cancelling now keeps a fee of $${all} and refunds $0.00.`);
  await press(page, 'Waive the fee (refund all of it)', 'checkbox');
  await fill(page, 'Reason to cancel', 'The hearing was adjourned.');
  await checkScreen(t, page, 'console-booking-cancel');
  await press(page, 'Cancel booking');
  await waitForText(page, `Booking cancelled; $${all} refunded, no fee kept. The client is e-mailed.`);
  const cancelled = await clientView(booking.id);
  expect(cancelled).toMatchObject({ status: 'cancelled', payment: { refunded_cents: paid.total_cents } });
  await byRole(page, 'heading', `Booking ${booking.number} Cancelled`);
  expect(await pageText(page)).not.toContain('Cancelling now');
  await page.close();
}, 120_000);

/** Moves a booking's start to 20 hours from now, as if the page had been left open past its half-refund deadline. */
const passHalfRefundDeadline = (bookingId: string) =>
  suite.t.orm.em
    .fork()
    .getConnection()
    .execute(`UPDATE interpretation_bookings SET scheduled_at = now() + interval '20 hours' WHERE id = ?`, [bookingId]);

it('says the fee a staff cancel kept', async () => {
  const { t } = suite;
  const { booking } = await confirmedBooking(30);
  await payBookingCheckout(t, booking.id, firm.key);
  const paid = await clientView(booking.id);
  const { page } = await signInToConsole(suite);
  await page.goto(`${suite.b.base}/console/bookings/${booking.number}`, { waitUntil: 'load' });
  const half = (paid.total_cents / 200).toFixed(2);
  await waitForText(page, `Cancelling now keeps a fee of $${half} and refunds $${half}.`);
  await fill(page, 'Reason to cancel', 'The client withdrew.');
  await press(page, 'Cancel booking');
  await waitForText(
    page,
    `Booking cancelled; a fee of $${half} is kept and $${half} refunded. The client is e-mailed.`,
  );
  await checkScreen(t, page, 'console-booking-cancelled-fee');
  await page.close();
}, 120_000);

it('gives a held booking whose interpreter was deactivated another who qualifies, then releases it', async () => {
  const { t } = suite;
  const { booking, interpreter } = await confirmedBooking(72);
  const held = await t.gql(
    HoldInterpretationBookingDocument,
    { id: booking.id, reason: 'Court may move it.' },
    staffToken,
  );
  expect(held.errors).toBeUndefined();
  const gone = await t.gql(UpdateInterpreterDocument, { id: interpreter.id, input: { active: false } }, staffToken);
  expect(gone.errors).toBeUndefined();
  const paz = await createInterpreter(t, staffToken, { name: 'Paz Replacement' });

  const { page } = await signInToConsole(suite);
  await page.goto(`${suite.b.base}/console/bookings/${booking.number}`, { waitUntil: 'load' });
  await byRole(page, 'heading', `Booking ${booking.number} On hold`);
  await press(page, 'Release');
  await waitForText(page, 'Active: the interpreter is inactive');
  expect((await clientView(booking.id)).status).toBe('on_hold');

  await byRole(page, 'combobox', 'Interpreter');
  await page.waitForFunction(
    `[...document.querySelectorAll('select[name="interpreterId"] option')].some((o) => o.value === ${JSON.stringify(paz.id)})`,
  );
  await choose(page, 'Interpreter', paz.id);
  await checkScreen(t, page, 'console-booking-replace');
  await press(page, 'Replace interpreter');
  await waitForText(page, 'Interpreter replaced; release the hold when ready.');
  await page.waitForFunction(
    `[...document.querySelectorAll('dl.facts dd')].some((dd) => dd.textContent === 'Paz Replacement')`,
  );
  await press(page, 'Release');
  await byRole(page, 'heading', `Booking ${booking.number} Awaiting payment`);
  expect(await clientView(booking.id)).toMatchObject({
    status: 'awaiting_payment',
    interpreter_name: 'Paz Replacement',
  });
  await page.close();
}, 120_000);

it('shows a translator neither the bookings nor the desk moves on an order', async () => {
  const { page, staff } = await signInToConsole(suite, { role: StaffRole.TRANSLATOR, name: 'Tom Translator' });
  expect(await page.$$eval('nav a', (links) => links.map((link) => link.textContent))).toEqual([
    'Orders',
    'Your profile',
  ]);
  // The queue asks a translator for nothing the role may not read (an order's account, D28): no refusal above it.
  const fileId = (await uploadFile(suite.t, firm.key, await docx({ paragraphs: [words(20)] }), 'tom.docx')).id;
  const orderId = await paidOrder(suite.t, firm, [fileId]);
  const assigned = await suite.t.gql(AssignOrderDocument, { orderId, staffUserId: staff.id }, staffToken);
  expect(assigned.errors).toBeUndefined();
  await page.goto(`${suite.b.base}/console/orders`, { waitUntil: 'load' });
  await waitForText(page, '1 order');
  expect(await pageText(page)).not.toContain('may not do this');
  expect(await page.$$('[role="alert"]')).toEqual([]);
  await page.goto(`${suite.b.base}/console/bookings`, { waitUntil: 'load' });
  await byRole(page, 'heading', 'Not found');
  await page.close();
}, 60_000);
