import { useEffect, useRef, useState } from 'react';

/** A signed download link as a path of this service: the link is signed over its path and query, not its host. */
export const localPath = (url: string) => {
  const parsed = new URL(url, location.href);
  return `${parsed.pathname}${parsed.search}`;
};

/** How long the service signs a link for (D5), and how long before that the screen asks for fresh ones. */
const LINK_LIFETIME_MS = 5 * 60_000;
const REFRESH_MARGIN_MS = 30_000;

/**
 * Keeps a screen's signed links usable on a page left open: the service signs them for 5 minutes (D5), so shortly
 * before links it just answered expire, `refresh` asks the service for the screen again, which answers new ones.
 * Counted from when the links arrived, not from their `expires` against this machine's clock, which may be off; a
 * timer held back while the machine slept fires at once on waking.
 */
export function useFreshLinks(urls: readonly (string | null | undefined)[], refresh: () => void): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  // The links' identity: new links (a refresh, another answer) start the count again.
  const links = urls.filter(Boolean).join(' ');
  useEffect(() => {
    if (!links) return;
    const timer = setTimeout(() => latest.current(), LINK_LIFETIME_MS - REFRESH_MARGIN_MS);
    return () => clearTimeout(timer);
  }, [links]);
}

/**
 * The types the browser shows in a frame without running anything of the file; the service answers any other type as
 * an attachment, whatever the link asks (`disposition=inline`).
 */
const PREVIEWABLE = /\.(pdf|png|jpe?g)$/i;

export interface LinkedFile {
  id: string;
  name: string;
  downloadUrl?: string | null;
}

/** Each file with its download link, and for a PDF or a photo a preview opened in the page. */
export function FileLinks({ files }: { files: LinkedFile[] }) {
  if (files.length === 0) return <p>None.</p>;
  return (
    <ul className="files">
      {files.map((file) => (
        <FileItem key={file.id} file={file} />
      ))}
    </ul>
  );
}

function FileItem({ file }: { file: LinkedFile }) {
  // The preview keeps the link it opened with, so a refreshed link does not reload a document being read.
  const [opened, setOpened] = useState<string>();
  const url = file.downloadUrl ? localPath(file.downloadUrl) : undefined;
  const frameId = `preview-${file.id}`;
  return (
    <li>
      <span className="file-name">{file.name}</span>
      {url && (
        <a href={url} download={file.name} aria-label={`Download ${file.name}`}>
          Download
        </a>
      )}
      {url && PREVIEWABLE.test(file.name) && (
        <button
          type="button"
          className="link"
          aria-expanded={opened !== undefined}
          aria-controls={frameId}
          aria-label={`Preview ${file.name}`}
          onClick={() => setOpened(opened === undefined ? `${url}&disposition=inline` : undefined)}
        >
          Preview
        </button>
      )}
      {opened && <iframe id={frameId} className="preview" title={`Preview of ${file.name}`} src={opened} />}
    </li>
  );
}
