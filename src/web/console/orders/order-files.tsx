import { formatDateTime } from '../../shared/format';
import { graphql } from '../../shared/gql';
import { useAction } from '../../shared/action';
import { FileField, Form, formFile, formText, SelectField } from '../../shared/form';
import { FileLinks } from '../../shared/file-preview';
import type { OrderView } from './order-query';

const ApproveTranslation = graphql(`
  mutation ApproveTranslation($id: ID!) {
    approveTranslation(id: $id) {
      id
      status
      reviews {
        fileId
        kind
        reviewedAt
      }
    }
  }
`);

const AttachTranslation = graphql(`
  mutation AttachTranslation($id: ID!, $file: Upload!, $sourceFileId: ID) {
    attachReviewedTranslation(id: $id, file: $file, sourceFileId: $sourceFileId) {
      id
      status
      files {
        id
        name
        type
        downloadUrl
      }
    }
  }
`);

/**
 * The order's documents side by side: the sources on one hand, the translations (each with its review) and the
 * certificates on the other, each opened in the page or downloaded. A translation is approved as it is, or a reviewed
 * one is attached from a file picker.
 */
export function OrderFiles({ order, open }: { order: OrderView; open: boolean }) {
  const sources = order.files.filter((file) => file.type === 'SOURCE');
  const translations = order.files.filter((file) => file.type === 'TRANSLATION');
  const certificates = order.files.filter((file) => file.type === 'CERTIFICATE');
  const reviewOf = (id: string) => order.reviews?.find((review) => review.fileId === id);
  return (
    <section aria-labelledby="files-heading">
      <h2 id="files-heading">Documents</h2>
      <div className="side-by-side">
        <div>
          <h3>Sources</h3>
          <FileLinks files={sources} />
        </div>
        <div>
          <h3>Translations</h3>
          {translations.length === 0 && <p>No translation yet.</p>}
          {translations.map((file) => {
            const review = reviewOf(file.id);
            return (
              <div key={file.id} className="file-block">
                <FileLinks files={[file]} />
                <p className="hint">
                  {review
                    ? `${review.kind === 'APPROVED' ? 'Approved' : 'Replaced'} by ${review.reviewer.name}, ${formatDateTime(review.reviewedAt)}`
                    : 'Not reviewed yet.'}
                </p>
                {open && !review && <Approve fileId={file.id} fileName={file.name} />}
              </div>
            );
          })}
          {certificates.length > 0 && (
            <>
              <h3>Certificates</h3>
              <FileLinks files={certificates} />
            </>
          )}
        </div>
      </div>
      {open && <Attach order={order} sources={sources} />}
    </section>
  );
}

function Approve({ fileId, fileName }: { fileId: string; fileName: string }) {
  const approve = useAction(ApproveTranslation, `${fileName} approved.`);
  return (
    <Form
      submitLabel="Approve translation"
      label={`Approve ${fileName}`}
      onSubmit={() => approve.run({ id: fileId })}
      {...approve.form}
    />
  );
}

function Attach({ order, sources }: { order: OrderView; sources: OrderView['files'] }) {
  const attach = useAction(AttachTranslation, 'Translation attached.');
  const submit = (data: FormData) => {
    // Sent as null, no file would be refused in GraphQL's own words ("of non-null type Upload!").
    const file = formFile(data, 'file');
    if (!file) return attach.refuse({ file: 'Choose the translation’s file.' });
    return attach.run({ id: order.id, file, sourceFileId: formText(data, 'sourceFileId') || undefined });
  };
  return (
    <>
      <h3>Attach a reviewed translation</h3>
      <Form submitLabel="Attach translation" onSubmit={submit} label="Attach a reviewed translation" {...attach.form}>
        <FileField name="file" label="Translation file" accept=".pdf,.docx,application/pdf" />
        {sources.length > 1 && (
          <SelectField
            name="sourceFileId"
            label="Translation of"
            options={sources.map((source) => ({ value: source.id, label: source.name }))}
          />
        )}
      </Form>
    </>
  );
}
