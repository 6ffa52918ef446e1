import { Router } from 'express';
import { listSentEmailsCommand } from '../../domain/mail/sent-email.commands';
import type { SentEmail } from '../../domain/mail/sent-email.entity';
import type { Services } from '../../services';
import { restCommand } from '../commands';
import { formatTimestamp } from '../format';
import { escapeHtml, htmlDocument } from '../http/html';

const STYLE = `main{max-width:60rem}article{background:#fff;border-radius:8px;padding:1rem;margin:1rem 0;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h2{font-size:1.1rem;margin:0 0 .25rem}pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.9rem}
.meta{color:#4b5563;font-size:.9rem;margin:0;overflow-wrap:anywhere}form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
input{font:inherit;padding:.4rem;max-width:100%}form button{width:auto;padding:0 1rem;min-height:40px}nav{display:flex;gap:1rem}`;

/**
 * `/sandbox/mail` (docs/decisions.md D34): the sandbox's outbox in a browser, newest first, for one address when
 * asked, so a person can read a sign-in code or what a client was sent. Only the sandbox has it: in production the
 * path is not served (404) and the service refuses to list the outbox to anyone but staff.
 */
export function sandboxMailRoutes(services: Services): Router {
  const router = Router();
  if (services.config.env !== 'sandbox') return router;
  router.get('/sandbox/mail', async (req, res) => {
    const query = req.query as Record<string, string | undefined>;
    const command = restCommand(listSentEmailsCommand, { to: query.to || undefined, page: query.page, perPage: '20' });
    const page = await services.sentEmails.sandboxOutbox(req.ctx, command);
    res
      .type('html')
      .set('Cache-Control', 'no-store')
      .send(outboxPage(page.items, command.to, page.page, Math.ceil(page.total / page.perPage)));
  });
  return router;
}

function outboxPage(mails: SentEmail[], to: string | undefined, page: number, lastPage: number): string {
  const link = (n: number) =>
    `/sandbox/mail?${new URLSearchParams({ ...(to ? { to } : {}), page: String(n) }).toString()}`;
  const pager = [
    page > 1 ? `<a href="${escapeHtml(link(page - 1))}">Newer</a>` : '',
    page < lastPage ? `<a href="${escapeHtml(link(page + 1))}">Older</a>` : '',
  ].join('');
  const items = mails
    .map(
      (mail) => `<article><h2>${escapeHtml(mail.subject)}</h2>
<p class="meta">To ${escapeHtml(mail.to)} · ${escapeHtml(mail.kind)} · ${formatTimestamp(mail.createdAt)}</p>
<pre>${escapeHtml(mail.text)}</pre></article>`,
    )
    .join('');
  return htmlDocument(
    'Sandbox outbox',
    `<main><h1>Sandbox outbox</h1><p>Every e-mail the sandbox would have sent, newest first. Nothing here leaves this machine.</p>
<form method="get" action="/sandbox/mail" role="search"><label>To <input type="email" name="to" value="${escapeHtml(to ?? '')}"></label><button class="primary" type="submit">Show</button></form>
${items || '<p>No e-mail yet.</p>'}<nav aria-label="Pages">${pager}</nav></main>`,
    STYLE,
  );
}
