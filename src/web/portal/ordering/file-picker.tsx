import { useEffect, useId, useState, type DragEvent } from 'react';
import { useClient } from 'urql';
import { FieldErrors } from '../../shared/form';
import { graphql } from '../../shared/gql';
import { uploadWithProgress, type UploadedFile } from './upload';

const FileCounts = graphql(`
  query FileCounts($id: ID!) {
    file(id: $id) {
      ...FileCountsFields
    }
  }
`);

export interface PickedFile {
  key: string;
  name: string;
  progress: number;
  file?: UploadedFile;
  error?: string;
}

/**
 * Files to translate, picked or dropped: each is uploaded at once with its progress shown, then its pages, words
 * and scanned pages once the service has counted them (asked again every second while it counts).
 */
export function FilePicker({ files, onChange }: { files: PickedFile[]; onChange: (update: Updater) => void }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const start = (list: FileList | null) => {
    for (const chosen of Array.from(list ?? [])) {
      const key = `${chosen.name}-${Math.random()}`;
      onChange((all) => [...all, { key, name: chosen.name, progress: 0 }]);
      const set = (change: Partial<PickedFile>) =>
        onChange((all) => all.map((f) => (f.key === key ? { ...f, ...change } : f)));
      uploadWithProgress(chosen, (progress) => set({ progress })).then(
        (file) => set({ file, progress: 1 }),
        (error: Error) => set({ error: error.message }),
      );
    }
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    start(event.dataTransfer.files);
  };
  return (
    <fieldset className="files">
      <legend>Documents</legend>
      <div
        className={over ? 'drop over' : 'drop'}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <input
          id={id}
          className="file-input"
          type="file"
          multiple
          accept=".pdf,.docx,.jpg,.jpeg,.png"
          aria-describedby={`${id}-hint`}
          onChange={(event) => {
            start(event.currentTarget.files);
            event.currentTarget.value = '';
          }}
        />
        <label htmlFor={id} className="button">
          Upload
        </label>
        <span id={`${id}-hint`} className="hint">
          or drop files here: PDF, DOCX, JPEG or PNG.
        </span>
      </div>
      <FieldErrors name="fileIds" />
      {files.length > 0 && (
        <ul className="picked" aria-label="Uploaded documents">
          {files.map((picked) => (
            <FileRow key={picked.key} picked={picked} onChange={onChange} />
          ))}
        </ul>
      )}
    </fieldset>
  );
}

export type Updater = (files: PickedFile[]) => PickedFile[];

function FileRow({ picked, onChange }: { picked: PickedFile; onChange: (update: Updater) => void }) {
  const client = useClient();
  const counting = picked.file?.analysisStatus === 'PENDING';
  const fileId = picked.file?.id;
  useEffect(() => {
    if (!counting || !fileId) return;
    const timer = setInterval(() => {
      void client
        .query(FileCounts, { id: fileId }, { requestPolicy: 'network-only' })
        .toPromise()
        .then(({ data }) => {
          const file = data?.file;
          if (file && file.analysisStatus !== 'PENDING')
            onChange((all) => all.map((f) => (f.file?.id === file.id ? { ...f, file } : f)));
        });
    }, 1000);
    return () => clearInterval(timer);
  }, [client, counting, fileId, onChange]);
  const remove = () => onChange((all) => all.filter((f) => f.key !== picked.key));
  return (
    <li>
      <span className="name">{picked.name}</span>
      {picked.error ? (
        <span className="field-errors" role="alert">
          {picked.error}
        </span>
      ) : picked.file ? (
        <span role="status">{counts(picked.file)}</span>
      ) : (
        <progress max={1} value={picked.progress} aria-label={`Uploading ${picked.name}`} />
      )}
      <button type="button" className="link" onClick={remove} aria-label={`Remove ${picked.name}`}>
        Remove
      </button>
    </li>
  );
}

/** What the service counted: a scan has pages and no words, a file it could not read has neither. */
function counts(file: UploadedFile): string {
  if (file.analysisStatus === 'PENDING') return 'Uploaded; counting pages and words…';
  const parts = [
    typeof file.documentPages === 'number' ? plural(file.documentPages, 'page') : '',
    typeof file.wordCount === 'number' ? plural(file.wordCount, 'word') : '',
    file.scannedPages ? `${file.scannedPages} scanned` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'Uploaded; it could not be counted, so we will count it by hand.';
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
