import { stringifyDocument } from 'urql';
import { graphql } from '../../shared/gql';
import type { FileCountsFieldsFragment, UploadSourceMutation } from '../../shared/gql/graphql';
import { sessionStore } from '../../shared/session';

/** What the order form shows of a file: the upload's answer, and the answer while it is being counted. */
export const FileCountsFields = graphql(`
  fragment FileCountsFields on File {
    id
    name
    analysisStatus
    documentPages
    wordCount
    scannedPages
  }
`);

const UploadSource = graphql(`
  mutation UploadSource($file: Upload!) {
    uploadFile(file: $file) {
      ...FileCountsFields
    }
  }
`);

export type UploadedFile = FileCountsFieldsFragment;

/**
 * One file as a GraphQL multipart request (the upload's operations, its map and the file), sent with
 * XMLHttpRequest because fetch reports no upload progress. `Apollo-Require-Preflight` passes the CSRF guard.
 * Resolves with the file, or rejects with the service's message in the person's words.
 */
export function uploadWithProgress(file: File, onProgress: (fraction: number) => void): Promise<UploadedFile> {
  const body = new FormData();
  body.append('operations', JSON.stringify({ query: stringifyDocument(UploadSource), variables: { file: null } }));
  body.append('map', JSON.stringify({ 0: ['variables.file'] }));
  body.append('0', file, file.name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/graphql');
    request.setRequestHeader('Apollo-Require-Preflight', 'true');
    const token = sessionStore('portal').token();
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onerror = () => reject(new Error('The service could not be reached. Check the connection and try again.'));
    request.onload = () => {
      const answer = parse(request.responseText);
      const file = answer?.data?.uploadFile;
      if (file) resolve(file);
      else reject(new Error(messageOf(answer) ?? `The upload failed (${request.status}).`));
    };
    request.send(body);
  });
}

interface Answer {
  data?: UploadSourceMutation;
  errors?: { message: string; extensions?: { errors?: Record<string, string[]> } }[];
}

const parse = (text: string): Answer | undefined => {
  try {
    return JSON.parse(text) as Answer;
  } catch {
    return undefined;
  }
};

/** The first thing the service said about the file, whichever field it named it under. */
function messageOf(answer?: Answer): string | undefined {
  const error = answer?.errors?.[0];
  const named = error?.extensions?.errors ? Object.values(error.extensions.errors).flat()[0] : undefined;
  return named ?? error?.message;
}
