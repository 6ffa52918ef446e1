import { graphqlCommand, restCommand } from '../../src/api/commands';
import {
  createBookingCommand,
  rescheduleBookingCommand,
  staffBookingsCommand,
} from '../../src/domain/bookings/booking.commands';
import { errorsOf } from '../helpers/commands';

const booking = {
  source_language: 'ES',
  target_language: 'en',
  mode: 'video_remote',
  scheduled_at: '2030-12-01T09:30:00-05:00',
  duration_hours: '1.25',
};

describe('booking commands (D12, D28, D29)', () => {
  it('reads a booking: canonical languages, the start with its offset, the duration in hundredths', () => {
    expect(restCommand(createBookingCommand, booking)).toEqual({
      sourceLanguage: 'es',
      targetLanguage: 'en',
      mode: 'video_remote',
      scheduledAt: { date: new Date('2030-12-01T14:30:00Z'), offsetMinutes: -300 },
      durationHours: 125,
    });
  });

  it('reports every error at once, the cross-field rules included', () => {
    expect(
      errorsOf(() =>
        restCommand(createBookingCommand, {
          ...booking,
          target_language: 'es',
          mode: 'on_site',
          scheduled_at: '2020-01-01T10:00:00Z',
          duration_hours: 1.255,
          location: '  ',
        }),
      ),
    ).toEqual({
      target_language: ['The target language must be different from the source language.'],
      scheduled_at: ['The scheduled at field must be a date in the future.'],
      duration_hours: ['The duration hours field must have at most 2 decimal places.'],
      location: ['The location field is required.'],
    });
    expect(errorsOf(() => restCommand(createBookingCommand, { ...booking, duration_hours: 12.01 }))).toEqual({
      duration_hours: ['The duration hours field must be greater than 0 and at most 12.'],
    });
  });

  it('reschedules with or without a new duration; null keeps it', () => {
    const start = '2030-12-01T09:30:00+01:00';
    expect(graphqlCommand(rescheduleBookingCommand, { scheduledAt: start, durationHours: null })).toEqual({
      scheduledAt: { date: new Date('2030-12-01T08:30:00Z'), offsetMinutes: 60 },
    });
    expect(errorsOf(() => graphqlCommand(rescheduleBookingCommand, { durationHours: 0 }))).toEqual({
      scheduled_at: ['The scheduled at field is required.'],
      duration_hours: ['The duration hours field must be greater than 0 and at most 12.'],
    });
  });

  it('bounds the desk window: `to` after `from`', () => {
    expect(
      errorsOf(() =>
        graphqlCommand(staffBookingsCommand, { from: '2030-01-02T00:00:00Z', to: '2030-01-01T00:00:00Z', perPage: 0 }),
      ),
    ).toEqual({
      per_page: ['The per page field must be at least 1.'],
      to: ['The to field must be after the from field.'],
    });
  });
});
