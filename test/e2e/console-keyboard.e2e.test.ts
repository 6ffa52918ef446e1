import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { byRole, checkScreen, codeFromOutbox, offlinePage, waitForText } from '../helpers/browser';
import { createStaffMember } from '../helpers/certified';
import { consoleSuite } from '../helpers/console';
import { docx } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { activate, focused, tabTo } from '../helpers/keyboard';
import { paidOrder, waitForStatus } from '../helpers/orders';

/**
 * The staff console with the keyboard alone (docs/decisions.md D34): a desk person who uses no mouse signs in, filters
 * the order queue, opens an order and holds it with a reason, with Tab, Shift+Tab, Enter and typing, and sees where the
 * focus is at every stop. The hold is then read through REST as the client sees it.
 */
const suite = consoleSuite();

it('signs in, filters the queue, opens an order and holds it with the keyboard only, the focus visible throughout', async () => {
  const { t, b } = suite;
  const firm = await createApprovedAccount(t, await createStaffToken(t));
  const source = (await uploadFile(t, firm.key, await docx({ paragraphs: ['Poder notarial.'] }), 'poder.docx')).id;
  const orderId = await paidOrder(t, firm, [source], 'certified', { reference: 'Matter 5120' });
  // No job worker runs in this suite: the paid order stays processing.
  const { number } = await waitForStatus(t, firm, orderId, 'processing');
  const desk = await createStaffMember(t, { role: StaffRole.DESK, name: 'Kim Keyboard' });
  const page = await offlinePage(b);
  await page.goto(`${b.base}/console`, { waitUntil: 'load' });

  await tabTo(page, 'E-mail');
  await page.keyboard.type(desk.email);
  await page.keyboard.press('Enter');
  await byRole(page, 'textbox', 'Code');
  // The code field takes the focus as it appears.
  expect((await focused(page)).name).toBe('Code');
  await page.keyboard.type(await codeFromOutbox(b, desk.email));
  await page.keyboard.press('Enter');
  await byRole(page, 'heading', 'Orders');

  // The queue's filters: a search typed, a status chosen by typing its name on the list, Enter on "Filter".
  await tabTo(page, 'Search');
  await page.keyboard.type('Matter 5120');
  await tabTo(page, 'Status');
  await page.keyboard.type('Processing');
  await activate(page, 'Filter');
  await waitForText(page, '1 order');
  expect(new URL(page.url()).search).toBe('?search=Matter+5120&status=PROCESSING');

  // Back with Shift+Tab from the order's link to the filter, the focus shown there too; then on to the order.
  await tabTo(page, number);
  await page.keyboard.down('Shift');
  await page.keyboard.press('Tab');
  await page.keyboard.up('Shift');
  expect((await focused(page)).visible).toBe(true);
  await activate(page, number);
  await byRole(page, 'heading', `Order ${number} Processing`);

  await tabTo(page, 'Reason to hold', 80);
  await page.keyboard.type('Waiting for the client to confirm the spelling of a name.');
  await activate(page, 'Hold');
  await byRole(page, 'button', 'Release');
  const held = (await t.rest.get(`/api/v1/orders/${orderId}`, firm.key).expect(200)).body.data;
  expect(held).toMatchObject({
    status: 'on_hold',
    hold_reason: 'Waiting for the client to confirm the spelling of a name.',
  });
  await checkScreen(t, page, 'console-keyboard-held');
  await page.close();
}, 120_000);
