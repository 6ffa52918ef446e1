import type { Page } from 'puppeteer-core';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { byRole, expectClean, offlinePage, openBrowser, signInThroughPage, type BrowserSession } from './browser';
import { createStaffMember } from './certified';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';

/**
 * What every console browser test sets up (docs/decisions.md D34): the test app and a browser on it for the file,
 * closed after it, and after each test the check that nothing left the machine and no page logged an error. Call it
 * at the top of a test file; its fields are set once `beforeAll` has run.
 */
export function consoleSuite(options: TestAppOptions = { workers: false }): { t: TestApp; b: BrowserSession } {
  const suite = {} as { t: TestApp; b: BrowserSession };
  beforeAll(async () => {
    suite.t = await startTestApp(options);
    suite.b = await openBrowser(suite.t);
  }, 60_000);
  afterAll(async () => {
    await suite.b?.close();
    await suite.t?.close();
  });
  afterEach(() => expectClean(suite.b));
  return suite;
}

/** A new staff member of `role`, signed in at /console on a page of its own, the order queue shown. */
export async function signInToConsole(
  { t, b }: { t: TestApp; b: BrowserSession },
  { role = StaffRole.DESK, name = 'Dana Desk', credentials = null as string | null } = {},
): Promise<{ page: Page; staff: Awaited<ReturnType<typeof createStaffMember>> }> {
  const staff = await createStaffMember(t, { role, name, credentials });
  const page = await offlinePage(b);
  await signInThroughPage(b, page, 'console', staff.email);
  await byRole(page, 'heading', 'Orders');
  return { page, staff };
}

/**
 * The keys `typeDate` types into a date and time field for a wall-clock time `YYYY-MM-DDTHH:mm`, in the order
 * Chromium's en-US field shows its segments: `2026-11-26T21:05` -> `['11262026', '0905P']`.
 */
export function dateTimeKeys(wallClock: string): string[] {
  const [, year, month, day, hour, minute] = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)/.exec(wallClock)!;
  const hours = Number(hour);
  return [`${month}${day}${year}`, `${String(hours % 12 || 12).padStart(2, '0')}${minute}${hours < 12 ? 'A' : 'P'}`];
}
