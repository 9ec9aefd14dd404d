/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type DocumentKind, idTypes, type VerificationDocument, type VerificationSession } from '@platform/db';
import { type BilingualKey, isBilingualKey, say } from '@platform/templates';
import { type CaptureField, type FieldError, type FieldProblem, formKindsOf, type PageResend } from './capture.js';
import { countryChoices, FIRST_COUNTRY } from './countries.js';
import type { Draft } from './draft.js';
import type { PageLanguage } from './page.js';
import { formatSize, HiddenFields } from './page-parts.js';

// The capture form of the hosted page (docs/decisions.md#hosted-capture): the details, then one file input per
// document kind (director IDs: several), posted as multipart to `<id>/documents`. Errors are listed first, each a
// link to its field, and said again at the field.

/**
 * What the capture form shows: its token, the errors of the last upload, what was typed, what was received, and
 * what a requires_input decision asks to be sent again (then only those inputs).
 */
export interface CaptureFormInput {
  formToken: string;
  errors: FieldError[];
  draft: Draft;
  documents: VerificationDocument[];
  resend: PageResend | undefined;
}

const fileAccept: Record<'kyc' | 'kyb', string> = { kyc: 'image/*', kyb: 'image/*,application/pdf' };

type TextField = 'idNumber' | 'registrationNumber' | 'companyName' | 'firstName' | 'middleName' | 'lastName';
/** Each text input's label, length and autofill token (names: the browser may offer the person's own). */
const textFields: Record<TextField, { label: BilingualKey; max: number; autocomplete: string }> = {
  idNumber: { label: 'verify.capture.idNumber', max: 20, autocomplete: 'off' },
  registrationNumber: { label: 'verify.capture.registrationNumber', max: 30, autocomplete: 'off' },
  companyName: { label: 'verify.capture.companyName', max: 200, autocomplete: 'off' },
  firstName: { label: 'verify.capture.firstName', max: 100, autocomplete: 'given-name' },
  middleName: { label: 'verify.capture.middleName', max: 100, autocomplete: 'additional-name' },
  lastName: { label: 'verify.capture.lastName', max: 100, autocomplete: 'family-name' },
};

export function CaptureForm(props: { session: VerificationSession; input: CaptureFormInput; language: PageLanguage }) {
  const { session, input, language } = props;
  const { locale } = language;
  const { errors, draft, documents, resend } = input;
  const errorOf = (field: CaptureField) => errors.find((error) => error.field === field);
  const errorText = (field: CaptureField, problem: FieldProblem) =>
    say(locale, problemKey(session.type, field, problem));
  /** The field's hint and error, for screen readers, and whether it is invalid. */
  const described = (field: CaptureField, hint = false) => {
    const ids = [hint ? `hint-${field}` : '', errorOf(field) === undefined ? '' : `error-${field}`].filter(Boolean);
    return {
      'aria-describedby': ids.length === 0 ? undefined : ids.join(' '),
      'aria-invalid': errorOf(field) === undefined ? undefined : 'true',
    };
  };
  const FieldErrorText = ({ field }: { field: CaptureField }) => {
    const error = errorOf(field);
    if (error === undefined) return null;
    return (
      <p class="field-error" id={`error-${field}`}>
        {errorText(field, error.problem)}
      </p>
    );
  };
  const TextInput = ({ field }: { field: TextField }) => (
    <div class="field">
      <label for={`field-${field}`}>{say(locale, textFields[field].label)}</label>
      <FieldErrorText field={field} />
      <input
        type="text"
        id={`field-${field}`}
        name={field}
        maxlength={textFields[field].max}
        autocomplete={textFields[field].autocomplete}
        spellcheck={false}
        value={draft[field] ?? ''}
        {...described(field)}
      />
    </div>
  );
  // A date picker on phones; the server receives YYYY-MM-DD either way (a browser without one sends the text).
  const DateInput = (props: { field: 'dateOfBirth' | 'documentExpiry'; label: BilingualKey; hint?: BilingualKey }) => (
    <div class="field">
      <label for={`field-${props.field}`}>{say(locale, props.label)}</label>
      {props.hint === undefined ? null : (
        <p class="hint" id={`hint-${props.field}`}>
          {say(locale, props.hint)}
        </p>
      )}
      <FieldErrorText field={props.field} />
      <input
        type="date"
        id={`field-${props.field}`}
        name={props.field}
        autocomplete={props.field === 'dateOfBirth' ? 'bday' : 'off'}
        value={draft[props.field] ?? ''}
        {...described(props.field, props.hint !== undefined)}
      />
    </div>
  );
  const FileInput = ({ kind }: { kind: DocumentKind }) => {
    // While documents are sent again, "received" means sent again: the earlier ones are being replaced.
    const received = (resend?.sentAgain ?? documents).filter((document) => document.kind === kind);
    const files = received.map((document) => formatSize(locale, document.sizeBytes)).join(', ');
    const capture = kind === 'selfie' ? 'user' : session.type === 'kyc' ? 'environment' : undefined;
    return (
      <div class="field">
        <label for={`field-${kind}`}>{say(locale, `verify.capture.fileLabel.${kind}`)}</label>
        {received.length === 0 ? null : (
          <p class="hint" id={`hint-${kind}`}>
            {say(locale, 'verify.capture.received', { files })}
          </p>
        )}
        <FieldErrorText field={kind} />
        <input
          type="file"
          id={`field-${kind}`}
          name={kind}
          accept={fileAccept[session.type]}
          capture={capture}
          multiple={kind === 'director_id'}
          {...described(kind, received.length > 0)}
        />
      </div>
    );
  };
  const details = resend?.detailsKept ? (
    <p>{say(locale, 'verify.capture.detailsKept')}</p>
  ) : session.type === 'kyc' ? (
    <>
      <fieldset>
        <legend>{say(locale, 'verify.capture.detailsLegend.kyc')}</legend>
        <div class="field">
          <label for="field-idType">{say(locale, 'verify.capture.idType')}</label>
          <FieldErrorText field="idType" />
          <select id="field-idType" name="idType" {...described('idType')}>
            <option value="">{say(locale, 'verify.capture.choose')}</option>
            {idTypes.map((idType) => (
              <option value={idType} selected={draft.idType === idType}>
                {say(locale, `idType.${idType}`)}
              </option>
            ))}
          </select>
        </div>
        <TextInput field="idNumber" />
        <DateInput
          field="documentExpiry"
          label="verify.capture.documentExpiry"
          hint="verify.capture.documentExpiryHint"
        />
        <div class="field passport-only">
          <label for="field-mrz">{say(locale, 'verify.capture.mrz')}</label>
          <p class="hint" id="hint-mrz">
            {say(locale, 'verify.capture.mrzHint')}
          </p>
          <FieldErrorText field="mrz" />
          <textarea
            id="field-mrz"
            name="mrz"
            class="mrz"
            rows={2}
            maxlength={200}
            autocomplete="off"
            autocapitalize="characters"
            spellcheck={false}
            {...described('mrz', true)}
          >
            {draft.mrz ?? ''}
          </textarea>
        </div>
      </fieldset>
      <fieldset aria-describedby="hint-person">
        <legend>{say(locale, 'verify.capture.personLegend')}</legend>
        <p class="hint" id="hint-person">
          {say(locale, 'verify.capture.personHint')}
        </p>
        <TextInput field="firstName" />
        <TextInput field="middleName" />
        <TextInput field="lastName" />
        <DateInput field="dateOfBirth" label="verify.capture.dateOfBirth" />
        <div class="field">
          <label for="field-nationality">{say(locale, 'verify.capture.nationality')}</label>
          <FieldErrorText field="nationality" />
          <select id="field-nationality" name="nationality" autocomplete="off" {...described('nationality')}>
            {countryChoices(locale).map(({ code, name }) => (
              <option value={code} selected={(draft.nationality ?? FIRST_COUNTRY) === code}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </fieldset>
    </>
  ) : (
    <fieldset>
      <legend>{say(locale, 'verify.capture.detailsLegend.kyb')}</legend>
      <TextInput field="registrationNumber" />
      <TextInput field="companyName" />
    </fieldset>
  );
  return (
    <section aria-labelledby="capture-heading">
      <h2 id="capture-heading">{say(locale, 'verify.capture.heading')}</h2>
      {errors.length === 0 ? null : (
        <div class="error-summary" role="alert" aria-labelledby="error-summary-heading">
          <h3 id="error-summary-heading">{say(locale, 'verify.capture.errorSummary')}</h3>
          <ul>
            {errors.map(({ field, problem }) => (
              <li>
                <a href={`#field-${field}`}>{errorText(field, problem)}</a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p>{say(locale, `verify.capture.intro.${session.type}`)}</p>
      {session.status !== 'requires_input' ? null : (
        <p>{say(locale, resend === undefined ? 'verify.capture.resend' : 'verify.capture.resendOnly')}</p>
      )}
      <form method="post" action={`${session.id}/documents`} enctype="multipart/form-data" class="capture">
        <HiddenFields token={input.formToken} language={language} />
        {details}
        <fieldset>
          <legend>{say(locale, 'verify.capture.filesLegend')}</legend>
          {(resend?.kinds ?? formKindsOf(session)).map((kind) => (
            <FileInput kind={kind} />
          ))}
        </fieldset>
        <button type="submit" class="primary">
          {say(locale, 'verify.capture.send')}
        </button>
      </form>
    </section>
  );
}

function problemKey(type: 'kyc' | 'kyb', field: CaptureField, problem: FieldProblem): BilingualKey {
  if (problem === 'unsupported_media_type') return `verify.error.unsupported_media_type.${type}`;
  if (problem === 'required' || problem === 'invalid') {
    const key = `verify.error.${problem}.${field}`;
    if (isBilingualKey(key)) return key;
    return problem === 'required' ? 'verify.error.required.file' : 'verify.error.unreadable';
  }
  return `verify.error.${problem}`;
}
