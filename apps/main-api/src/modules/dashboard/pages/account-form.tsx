/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */

// One labelled field of the Profile and Settings forms (docs/decisions.md#dashboard-pages): its hint and, after a
// refused save, the service's problem with it, both tied to the input by `aria-describedby`; the value kept.

export interface FieldProps {
  id: string;
  name: string;
  label: string;
  value: string;
  hint?: string | undefined;
  problem?: string | undefined;
  type?: 'text' | 'tel' | 'date' | 'email' | 'number';
  maxlength?: number;
  autocomplete?: string;
  required?: boolean;
  /** A textarea of this many rows instead of a one-line input. */
  rows?: number;
}

export function Field(props: FieldProps) {
  const { id, problem, hint } = props;
  const describedBy = [hint === undefined ? '' : `${id}-hint`, problem === undefined ? '' : `${id}-problem`]
    .filter((each) => each !== '')
    .join(' ');
  const common = {
    id,
    name: props.name,
    maxlength: props.maxlength,
    autocomplete: props.autocomplete,
    required: props.required,
    'aria-describedby': describedBy === '' ? undefined : describedBy,
    'aria-invalid': problem === undefined ? undefined : 'true',
  };
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {hint === undefined ? null : (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {problem === undefined ? null : (
        <span class="problem" id={`${id}-problem`}>
          {problem}
        </span>
      )}
      {props.rows === undefined ? (
        <input {...common} type={props.type ?? 'text'} value={props.value} />
      ) : (
        <textarea {...common} rows={props.rows}>
          {props.value}
        </textarea>
      )}
    </div>
  );
}

/** A read-only fact: its label and value, or what to say when it is not set. */
export function Fact({ label, value, unset }: { label: string; value: string | null; unset: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value === null || value === '' ? unset : value}</dd>
    </>
  );
}
