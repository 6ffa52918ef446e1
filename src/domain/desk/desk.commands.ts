import { z } from 'zod';
import { text } from '../shared/command-fields';

/** Staff's `addOrderNote` and `addBookingNote`: an internal note, never shown to the client. */
export const addNoteCommand = z.object({ text: text({ required: true, max: 5000 }) });
export type AddNote = z.output<typeof addNoteCommand>;
