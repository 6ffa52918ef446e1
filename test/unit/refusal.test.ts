import { refusalOf, unplacedMessages } from '../../src/web/shared/refusal';

describe('a refusal a form shows (D2)', () => {
  // As urql's CombinedError carries the service's answer.
  const refusal = refusalOf({
    graphQLErrors: [
      {
        message: 'Invalid input.',
        extensions: {
          code: 'BAD_USER_INPUT',
          errors: {
            'input.reason': ['The reason field is required.'],
            interpreterId: ['Ana Court no longer qualifies for this booking: confirm another interpreter first.'],
          },
        },
      },
      { message: 'The booking was changed meanwhile.', extensions: { code: 'CONFLICT' } },
    ],
  });

  it('keys field messages by the form’s names and keeps the others', () => {
    expect(refusal).toEqual({
      fields: {
        reason: ['The reason field is required.'],
        interpreterId: ['Ana Court no longer qualifies for this booking: confirm another interpreter first.'],
      },
      messages: ['The booking was changed meanwhile.'],
    });
  });

  it('shows a message no field of the form takes as the sentence it is, without the API’s field name', () => {
    expect(unplacedMessages(refusal, ['reason'])).toEqual([
      'The booking was changed meanwhile.',
      'Ana Court no longer qualifies for this booking: confirm another interpreter first.',
    ]);
    expect(unplacedMessages(undefined, [])).toEqual([]);
  });

  it('says how long to wait when the budget or a sign-in limit is spent, as the service tells it', () => {
    const spent = (retryAfterSeconds: number) =>
      refusalOf({
        graphQLErrors: [{ message: 'Too Many Attempts.', extensions: { code: 'RATE_LIMITED', retryAfterSeconds } }],
      })?.messages;
    expect(spent(42)).toEqual(['Too many attempts: try again in 42 seconds.']);
    expect(spent(60)).toEqual(['Too many attempts: try again in 1 minute.']);
    expect(spent(601)).toEqual(['Too many attempts: try again in 11 minutes.']);
  });
});
