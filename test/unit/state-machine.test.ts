import { ValidationError } from '../../src/shared/errors';
import { defineTransitions } from '../../src/domain/lifecycle/state-machine';

type Light = 'green' | 'amber' | 'red';
type Row = { status: Light; broken?: boolean };
const moves = { green: ['amber'], amber: ['red'], red: ['green'] } as const;

describe('defineTransitions', () => {
  it('refuses, when its module loads, a move to an unknown state', () => {
    expect(() =>
      defineTransitions<Light, Row>({ initial: 'green', moves: { ...moves, red: ['blue' as Light] } }),
    ).toThrow('Transition red -> blue names an unknown state');
  });

  it('refuses a state no move reaches from the initial one', () => {
    expect(() =>
      defineTransitions<Light, Row>({
        initial: 'green',
        moves: { green: ['amber'], amber: ['green'], red: ['green'] },
      }),
    ).toThrow('No move reaches red from green');
  });

  it('refuses a move the table has not with the 422 of D2, under status, naming what was asked', () => {
    const table = defineTransitions<Light, Row>({ initial: 'green', moves });
    const refused = expect.objectContaining({
      errors: { status: ['Cannot stop the traffic while the status is green.'] },
    });
    expect(() => table.assertMove('green', 'red', { status: 'green' }, { actor: null }, 'stop the traffic')).toThrow(
      ValidationError,
    );
    expect(() => table.assertMove('green', 'red', { status: 'green' }, { actor: null }, 'stop the traffic')).toThrow(
      refused,
    );
  });

  it('asks the guard only about moves the table has, and throws its refusal under the field it names', () => {
    const guard = jest.fn((_from: Light, _to: Light, row: Row) =>
      row.broken ? { field: 'lamp', message: 'The lamp is broken.' } : undefined,
    );
    const table = defineTransitions<Light, Row>({ initial: 'green', moves, guard });
    expect(table.refusal('green', 'red', { status: 'green', broken: true }, { actor: null }, 'stop')).toBe(
      'Cannot stop while the status is green.',
    );
    expect(guard).not.toHaveBeenCalled();
    expect(table.refusal('green', 'amber', { status: 'green' }, { actor: null }, 'slow down')).toBeUndefined();
    expect(() =>
      table.assertMove('green', 'amber', { status: 'green', broken: true }, { actor: null }, 'slow down'),
    ).toThrow(expect.objectContaining({ errors: { lamp: ['The lamp is broken.'] } }));
  });
});
