/**
 * The order and booking lifecycles as integrators see them, written once for the `status` fields and the
 * list filters. They follow order.states.ts and booking.states.ts and the services that make each move.
 */
export const ORDER_LIFECYCLE = [
  'Where the order is. `completed` and `cancelled` are final.',
  '',
  '- `pending_payment`: made by converting a quote; waits for the client to pay at `payment.approval_url`.',
  '- `processing`: the payment was captured (`payment.paid_at` and `due_at` are set) and the documents are being translated in the background.',
  '- `in_review`: certified orders only, once the machine translation is done: a named translator reviews it, and the order stays here until staff complete it, which issues the signed certificate of accuracy.',
  '- `completed`: delivered. Standard orders get here straight from `processing`, certified ones from `in_review`. Translations and the certificate appear in `files` with download links only now.',
  "- `on_hold`: stopped from `pending_payment`, `processing` or `in_review`, by the translation pipeline (a document with no text to translate, an engine that keeps failing), by staff, or because the payment provider reversed the payment; `hold_reason` says why and the account is e-mailed. Staff release it back to the state it was held from (an order paid while on hold resumes in `processing`). `hold_reason` `awaiting_client`: staff asked a question in the order's messages and wait for the answer; your next `POST /orders/{id}/messages` resumes it.",
  '- `cancelled`: the client may cancel only from `pending_payment` or `on_hold` (a paid order is then refunded: `payment.refunded_at`); staff may cancel any order not yet completed, refunding it when paid.',
].join('\n');

export const BOOKING_LIFECYCLE = [
  'Where the booking is. `completed` and `cancelled` are final.',
  '',
  '- `requested`: made by the client and priced; no payment is asked yet while staff look for an interpreter.',
  '- `awaiting_payment`: staff confirmed an interpreter (`interpreter_name`); the checkout is created, its link (`payment.approval_url`) is e-mailed to the account and the booking waits for payment, until its start: a booking whose start passed can no longer be paid.',
  '- `confirmed`: the client paid (`payment.paid_at`); the interpreter is booked.',
  '- `completed`: staff mark a confirmed booking done once the assignment took place (never before its start).',
  '- `on_hold`: stopped by staff from `requested`, `awaiting_payment` or `confirmed`, or because the payment provider reversed the payment; `hold_reason` says why and the account is e-mailed. Staff release it back to the state it was held from (a booking paid while on hold resumes as `confirmed`).',
  '- `cancelled`: the client may cancel only before paying, from `requested` or `awaiting_payment`; afterwards ask the operator. Staff may cancel any booking not yet completed, refunding it when paid. A booking still unpaid when its start passes is cancelled by the service and the account e-mailed.',
].join('\n');

export const QUOTE_LIFECYCLE = [
  'Where the quote is.',
  '',
  '- `priced`: priced and open; it can be converted into an order until `expires_at`.',
  '- `converted`: an order was made from it (exactly one); it can no longer be deleted.',
  '- `expired`: `expires_at` passed before it was converted; make a new quote (prices may have changed). It can still be deleted.',
].join('\n');
