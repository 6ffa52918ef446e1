import { z } from 'zod';
import { text } from '../shared/command-fields';

/** Staff's `addOrderNote` and `addBookingNote`: an internal note, never shown to the client. */
export const addNoteCommand = z.object({ text: text({ required: true, max: 5000 }) });
export type AddNote = z.output<typeof addNoteCommand>;

/** Staff's holds and cancels of an order or a booking: why, for the client and the audit (D10, D12). */
export const staffReasonCommand = z.object({ reason: text({ required: true, max: 500 }) });
export type StaffReason = z.output<typeof staffReasonCommand>;
