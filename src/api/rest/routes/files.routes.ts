import { Router } from 'express';
import type { Services } from '../../../services';
import { authenticateAccount } from '../authenticate';
import { answerJson } from '../conditional';
import { bodyTypes } from '../media-type';
import { readMultipart } from '../multipart';
import { permit } from '../permit';
import { route } from '../routing';
import { serializeFile } from '../serializers/file.serializer';
import { sendCreated } from './location';

/** `uploadFile`, `getFile`, `deleteFile`, and D5's signed `downloadFile`. */
export function filesRoutes(services: Services): Router {
  const router = Router();
  const { files } = services;
  const auth = authenticateAccount(services);

  route(router, '/files', {
    post: [
      auth,
      permit('files.upload'),
      bodyTypes('multipart/form-data'),
      async (req, res) => {
        const upload = await readMultipart(req, services.config.uploadMaxBytes, 'file', (stream) =>
          files.receive(stream),
        );
        const file = await files.create(req.ctx, {
          upload: upload.file,
          filename: upload.filename,
          type: upload.fields.type,
        });
        sendCreated(req, res, services.config.appUrl, { data: serializeFile(file, files) });
      },
    ],
  });
  route(router, '/files/:id', {
    get: [
      auth,
      async (req, res) => answerJson(req, res, { data: serializeFile(await files.get(req.ctx, req.params.id), files) }),
    ],
    delete: [
      auth,
      async (req, res) => {
        await files.delete(req.ctx, req.params.id);
        res.status(204).end();
      },
    ],
  });
  route(router, '/files/:id/download', {
    get: [
      async (req, res) => {
        const { file, stream } = await files.openDownload(req.ctx.em, String(req.params.id), req.query);
        const inline = req.query.disposition === 'inline' && PREVIEWED_IN_PAGE.has(file.mimeType);
        res.status(200).set({
          'Content-Type': file.mimeType,
          'Content-Length': String(file.sizeBytes),
          'Content-Disposition': contentDisposition(file.name, inline ? 'inline' : 'attachment'),
          'Cache-Control': 'private, no-store',
          'X-Content-Type-Options': 'nosniff',
          ...(inline ? PREVIEW_HEADERS : {}),
        });
        stream.on('error', () => res.destroy());
        stream.pipe(res);
      },
    ],
  });
  return router;
}

/**
 * What a page of this service may show in a frame of its own (`disposition=inline`: the staff console's previews,
 * docs/decisions.md D34): PDFs and photos, which the browser draws without running anything of the file. Any other
 * type (a DOCX, an HTML or SVG that would run as this origin) is always an attachment.
 */
const PREVIEWED_IN_PAGE = new Set(['application/pdf', 'image/png', 'image/jpeg']);

/** An inline file may be framed by this service's own pages, and loads nothing itself. */
const PREVIEW_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'",
  'X-Frame-Options': 'SAMEORIGIN',
};

/** RFC 6266: an ASCII fallback plus the exact UTF-8 name. */
function contentDisposition(name: string, kind: 'attachment' | 'inline'): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
