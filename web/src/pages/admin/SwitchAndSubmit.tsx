/** The end of a settings form of the administration: the switch that turns what it edits on or off, then its submit button. */
export function SwitchAndSubmit(props: { label: string; on: boolean; onSwitch(on: boolean): void; busy: boolean; submit: string }) {
  return (
    <>
      <label className="checkbox">
        <input type="checkbox" checked={props.on} disabled={props.busy} onChange={(e) => props.onSwitch(e.target.checked)} />
        {props.label}
      </label>
      <div className="admin-actions">
        <button type="submit" className="button primary" disabled={props.busy}>
          {props.submit}
        </button>
      </div>
    </>
  );
}
