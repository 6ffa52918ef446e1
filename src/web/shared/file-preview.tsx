/** A signed download link as a path of this service: the link is signed over its path and query, not its host. */
export const localPath = (url: string) => {
  const parsed = new URL(url, location.href);
  return `${parsed.pathname}${parsed.search}`;
};

export interface LinkedFile {
  id: string;
  name: string;
  downloadUrl?: string | null;
}

/** Each file with its download link (a fresh signed link each time the screen loads). */
export function FileLinks({ files }: { files: LinkedFile[] }) {
  if (files.length === 0) return <p>None.</p>;
  return (
    <ul className="files">
      {files.map((file) => (
        <li key={file.id}>
          <span className="file-name">{file.name}</span>{' '}
          {file.downloadUrl && (
            <a href={localPath(file.downloadUrl)} download={file.name} aria-label={`Download ${file.name}`}>
              Download
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}
