import { z } from 'zod';
import { text } from '../shared/command-fields';
import { pageFields } from '../shared/pagination';

/** Staff's `sentEmails`: for one address when asked (D3, D28). */
export const listSentEmailsCommand = z.object({ to: text({ max: 254 }), ...pageFields });
export type ListSentEmails = z.output<typeof listSentEmailsCommand>;
