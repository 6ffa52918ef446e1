import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../db/paths';
import { openApiDocument } from './document';

/**
 * `npm run lint:openapi`: writes the document exactly as GET /api/v1/openapi.json serves it to a temporary file
 * and lints it with Redocly's recommended rules (redocly.yaml beside this file). The server URL is a production
 * one from APP_URL, or a stand-in, so the lint judges the document and not a developer's localhost. Redocly's
 * telemetry and update check are off: the lint must run offline and send nothing.
 */
const SERVER = `${(process.env.APP_URL ?? 'https://api.translations.example.org').replace(/\/+$/, '')}/api/v1`;

function main(): number {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, `${JSON.stringify(openApiDocument(SERVER), null, 2)}\n`);
    const result = spawnSync(
      join(REPO_ROOT, 'node_modules', '.bin', 'redocly'),
      [
        'lint',
        '--config',
        join(REPO_ROOT, 'src', 'api', 'rest', 'openapi', 'redocly.yaml'),
        '--max-problems',
        '1000',
        file,
      ],
      { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    );
    if (result.error) throw result.error;
    return result.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exit(main());
