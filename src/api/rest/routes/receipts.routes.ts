import { Router } from 'express';
import { receiptPdf } from '../../../documents/receipt-pdf';
import { NotFoundError } from '../../../shared/errors';
import type { Services } from '../../../services';
import { authenticateAccountOrStaff } from '../authenticate';
import { limitByAddress } from '../rate-limit';
import { route } from '../routing';

/**
 * D31's receipts: `payment.receipt_url` is `GET /payments/{id}/receipt`, a stable link (so a polled answer's ETag
 * holds, D23) that answers its account, or staff, with a redirect to a fresh 5-minute signed link of the PDF; the PDF
 * itself needs only that signature, as a file's download link does.
 */
export function receiptsRoutes(services: Services): Router {
  const router = Router();
  const { receipts } = services;

  route(router, '/payments/:id/receipt', {
    get: [
      authenticateAccountOrStaff(services),
      async (req, res) => {
        const url = await receipts.link(req.ctx, req.params.id);
        res.set('Cache-Control', 'private, no-store').redirect(302, url);
      },
    ],
  });
  route(router, '/payments/:id/receipt/pdf', {
    get: [
      limitByAddress(services),
      async (req, res) => {
        const id = String(req.params.id);
        if (!receipts.verify(id, req.query.expires, req.query.signature)) throw new NotFoundError();
        const content = await receipts.content(req.ctx.em, id);
        if (!content) throw new NotFoundError();
        res
          .type('application/pdf')
          .set({
            'Content-Disposition': `attachment; filename="receipt-${content.paidFor.split(' ').pop()}.pdf"`,
            'Cache-Control': 'private, no-store',
          })
          .send(Buffer.from(await receiptPdf(content)));
      },
    ],
  });
  return router;
}
