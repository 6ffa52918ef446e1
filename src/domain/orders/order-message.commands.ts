import { z } from 'zod';
import { text } from '../shared/command-fields';
import { pageFields } from '../shared/pagination';
import { MAX_MESSAGE_LENGTH } from './order-message.entity';

/** `GET /orders/{id}/messages` and `Order.messages`: the conversation a page at a time, newest first (D3, D30). */
export const listOrderMessagesCommand = z.object({ ...pageFields });
export type ListOrderMessages = z.output<typeof listOrderMessagesCommand>;

const messageText = text({ required: true, max: MAX_MESSAGE_LENGTH });

/** `POST /orders/{id}/messages` and `postOrderMessage`: the client writes to the desk (D30). */
export const postOrderMessageCommand = z.object({ text: messageText });
export type PostOrderMessage = z.output<typeof postOrderMessageCommand>;

/** Staff's `postStaffOrderMessage`: `waitForClient` holds the order until the client answers (D30). */
export const postStaffOrderMessageCommand = z.object({
  text: messageText,
  waitForClient: z.boolean().optional(),
});
export type PostStaffOrderMessage = z.output<typeof postStaffOrderMessageCommand>;
