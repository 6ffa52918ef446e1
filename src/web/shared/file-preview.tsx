import { useState } from 'react';

/** A signed download link as a path of this service: the link is signed over its path and query, not its host. */
export const localPath = (url: string) => {
  const parsed = new URL(url, location.href);
  return `${parsed.pathname}${parsed.search}`;
};

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
  const [open, setOpen] = useState(false);
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
          aria-expanded={open}
          aria-controls={frameId}
          aria-label={`Preview ${file.name}`}
          onClick={() => setOpen(!open)}
        >
          Preview
        </button>
      )}
      {url && open && (
        <iframe id={frameId} className="preview" title={`Preview of ${file.name}`} src={`${url}&disposition=inline`} />
      )}
    </li>
  );
}
