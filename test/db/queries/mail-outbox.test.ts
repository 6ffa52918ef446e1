import { expect } from '@jest/globals';
import {
  claimEmail,
  giveUpUnsettled,
  isUnsettled,
  recordDelivered,
  recordDeliveredAnyway,
  recordGivenUp,
  recordRetry,
  unsettledSince,
} from '../../../src/domain/mail/mail-outbox.queries';
import { SentEmail } from '../../../src/domain/mail/sent-email.entity';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';

let db: QueryDatabase;
beforeAll(async () => (db = await openQueryDatabase()));
afterAll(() => db.close());

const SEALED = 'sealed:';

async function outboxMessage(fields: Partial<SentEmail> = {}): Promise<SentEmail> {
  const email = Object.assign(
    new SentEmail(),
    {
      kind: 'api_key',
      to: 'ana@example.test',
      from: 'Desk <desk@example.test>',
      subject: 'Your key',
      text: `${SEALED}abc`,
    },
    fields,
  );
  await db.em().persist(email).flush();
  return email;
}

const stored = (id: string) => db.em().findOneOrFail(SentEmail, { id });

it('claims an unsettled message once while the claim is young, and again once it has lapsed', async () => {
  const email = await outboxMessage();
  const claimed = await claimEmail(db.em(), email.id, 600);
  expect(claimed).toEqual({
    id: email.id,
    kind: 'api_key',
    from: email.from,
    to: email.to,
    subject: 'Your key',
    text: `${SEALED}abc`,
    claim: expect.any(String),
  });
  expect(await claimEmail(db.em(), email.id, 600)).toBeUndefined();
  expect(await isUnsettled(db.em(), email.id)).toBe(true);
  const retaken = await claimEmail(db.em(), email.id, 0);
  expect(retaken!.claim).not.toBe(claimed!.claim);
  // The lapsed claim no longer holds: its answer is not recorded over the new one's.
  expect(await recordDelivered(db.em(), claimed!)).toBe(false);
  expect(await recordDelivered(db.em(), retaken!)).toBe(true);
  expect(await stored(email.id)).toMatchObject({
    deliveredAt: expect.any(Date),
    text: '',
    sendingSince: null,
    failure: null,
  });
  expect(await isUnsettled(db.em(), email.id)).toBe(false);
  expect(await claimEmail(db.em(), email.id, 0)).toBeUndefined();
});

it('records a retry and a giving up while the claim holds, keeping why', async () => {
  const email = await outboxMessage();
  const claimed = (await claimEmail(db.em(), email.id, 600))!;
  expect(await recordRetry(db.em(), claimed, '421 try later')).toBe(true);
  expect(await stored(email.id)).toMatchObject({
    failure: '421 try later',
    sendingSince: null,
    text: `${SEALED}abc`,
    failedAt: null,
  });
  const again = (await claimEmail(db.em(), email.id, 600))!;
  expect(await recordGivenUp(db.em(), again, '550 no such user')).toBe(true);
  expect(await stored(email.id)).toMatchObject({ failure: '550 no such user', failedAt: expect.any(Date), text: '' });
  expect(await recordRetry(db.em(), again, 'too late')).toBe(false);
  // Delivered after all while given up meanwhile: both are kept.
  await recordDeliveredAnyway(db.em(), email.id);
  expect(await stored(email.id)).toMatchObject({
    failure: '550 no such user',
    failedAt: expect.any(Date),
    deliveredAt: expect.any(Date),
  });
});

it('finds the sealed messages unsettled for hours, and gives up those asked, a failure already noted kept', async () => {
  const old = new Date(Date.now() - 2 * 3_600_000);
  const [stale, noted, recent, plain] = [
    await outboxMessage({ createdAt: old }),
    await outboxMessage({ createdAt: old, failure: '421 try later' }),
    await outboxMessage(),
    await outboxMessage({ createdAt: old, text: 'sandbox text' }),
  ];
  const found = await unsettledSince(db.em(), SEALED, 1);
  expect(found).toEqual(expect.arrayContaining([stale.id, noted.id]));
  expect(found).not.toContain(recent.id);
  expect(found).not.toContain(plain.id);
  expect(await giveUpUnsettled(db.em(), [stale.id, noted.id])).toEqual(
    expect.arrayContaining([
      { id: stale.id, kind: 'api_key' },
      { id: noted.id, kind: 'api_key' },
    ]),
  );
  expect(await stored(stale.id)).toMatchObject({
    failure: 'No delivery attempt finished.',
    failedAt: expect.any(Date),
    text: '',
  });
  expect(await stored(noted.id)).toMatchObject({ failure: '421 try later' });
  expect(await giveUpUnsettled(db.em(), [stale.id])).toEqual([]);
});
