/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type Locale, text } from '@platform/templates';
import { Field } from './account-form.js';

// The first and last name of the Profile form and of "complete your profile" (docs/decisions.md#dashboard-pages):
// both under the same rules of the accounts module, labelled, with the service's problem beside each after a refused
// save.

export interface NameFieldsProps {
  locale: Locale;
  /** What the inputs' ids start with, one per form (`profile`, `new`). */
  idPrefix: string;
  values: { firstName: string; lastName: string };
  /** The service's problem with each field, by field name. */
  problems: Record<string, string>;
}

/** The labels of the two fields, by field name: the forms and their refusals name them alike. */
export function nameFieldLabels(locale: Locale): { firstName: string; lastName: string } {
  return {
    firstName: text(locale, 'dashboard.profile.firstName'),
    lastName: text(locale, 'dashboard.profile.lastName'),
  };
}

export function NameFields({ locale, idPrefix, values, problems }: NameFieldsProps) {
  const labels = nameFieldLabels(locale);
  return (
    <>
      <Field
        id={`${idPrefix}-first-name`}
        name="firstName"
        label={labels.firstName}
        value={values.firstName}
        problem={problems['firstName']}
        maxlength={400}
        autocomplete="given-name"
        required
      />
      <Field
        id={`${idPrefix}-last-name`}
        name="lastName"
        label={labels.lastName}
        value={values.lastName}
        problem={problems['lastName']}
        maxlength={400}
        autocomplete="family-name"
        required
      />
    </>
  );
}
