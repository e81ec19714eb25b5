/** What the form found wrong before sending anything, each in the field's words. */
export function FormErrors(props: { errors: readonly string[]; title?: string }) {
  if (props.errors.length === 0) return null;
  return (
    <div role="alert" className="notice notice-error">
      <strong>{props.title ?? 'Check these fields'}</strong>
      <ul>
        {props.errors.map((error) => (
          <li key={error}>{error}</li>
        ))}
      </ul>
    </div>
  );
}
