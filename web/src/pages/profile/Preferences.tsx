import { type FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { applyTheme } from '../../theme.ts';
import { problemOf } from '../../components/problems.ts';
import { Outcome } from '../../components/Outcome.tsx';

const SavePreferencesDocument = graphql(`
  mutation SavePreferences($preferences: JSON!) {
    updateMyPreferences(preferences: $preferences)
  }
`);

type Stored = Record<string, unknown>;
const THEMES = [
  { value: 'system', label: 'As the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];
const CHANNELS = [
  { channel: 'in_app', label: 'In the app' },
  { channel: 'email', label: 'By e-mail' },
] as const;

/** The notices the API keeps toggles for, read from the preferences it answers (never a copy of its list). */
function eventsOf(preferences: Stored): string[] {
  const events = Object.keys(preferences).flatMap((key) =>
    typeof preferences[key] === 'boolean' ? (/^(?:in_app|email)_(.+)$/.exec(key)?.[1] ?? []) : [],
  );
  return [...new Set(events)];
}

const eventLabel = (event: string) => event.charAt(0).toUpperCase() + event.slice(1).replaceAll('_', ' ');

/** Theme and notification toggles, saved together with `updateMyPreferences`. */
export function Preferences(props: { preferences: unknown }) {
  const [values, setValues] = useState<Stored>(() => ({ ...((props.preferences as Stored | null) ?? {}) }));
  const [problem, setProblem] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [{ fetching }, save] = useMutation(SavePreferencesDocument);
  const events = eventsOf(values);
  const set = (key: string, value: unknown) => {
    setSaved(false);
    setValues((current) => ({ ...current, [key]: value }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const changes = Object.fromEntries(
      Object.entries(values).filter(([key]) => key === 'theme' || key.startsWith('in_app_') || key.startsWith('email_')),
    );
    const result = await save({ preferences: changes });
    setProblem(problemOf(result.error)?.message);
    setSaved(!result.error);
    if (result.data) {
      setValues(result.data.updateMyPreferences as Stored);
      applyTheme(result.data.updateMyPreferences);
    }
  }

  return (
    <form aria-labelledby="preferences-title" className="profile-form" onSubmit={(event) => void submit(event)}>
      <h2 id="preferences-title">Preferences</h2>
      <div className="field">
        <label htmlFor="preference-theme">Theme</label>
        <select id="preference-theme" value={String(values.theme ?? 'system')} onChange={(e) => set('theme', e.target.value)}>
          {THEMES.map((theme) => (
            <option key={theme.value} value={theme.value}>
              {theme.label}
            </option>
          ))}
        </select>
      </div>
      {events.length > 0 && (
        <table className="toggles">
          <caption>Notify me when</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              {CHANNELS.map(({ channel, label }) => (
                <th key={channel} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event}>
                <th scope="row" id={`event-${event}`}>
                  {eventLabel(event)}
                </th>
                {CHANNELS.map(({ channel, label }) => (
                  <td key={channel}>
                    {typeof values[`${channel}_${event}`] === 'boolean' ? (
                      <input
                        type="checkbox"
                        aria-label={`${eventLabel(event)}: ${label.toLowerCase()}`}
                        checked={values[`${channel}_${event}`] !== false}
                        onChange={(e) => set(`${channel}_${event}`, e.target.checked)}
                      />
                    ) : (
                      <span title="Not sent on this channel">—</span>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Outcome problem={problem} />
      {saved && <p role="status">Preferences saved.</p>}
      <button type="submit" className="button primary" disabled={fetching}>
        Save preferences
      </button>
    </form>
  );
}
