import { type FormEvent, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import type {
  AdminEmailConfigQuery,
  SmtpSecurity,
  UpdateEmailConfigMutation,
  UpdateEmailConfigMutationVariables,
} from '../../gql/graphql.ts';
import { Field } from '../../components/Field.tsx';
import { type Action, fieldProblem, orNull, useAction, when } from './admin-forms.ts';
import { Outcome } from '../../components/Outcome.tsx';

const EmailConfigDocument = graphql(`
  query AdminEmailConfig {
    emailConfig {
      configured enabled fromAddress smtpHost smtpPort smtpSecurity smtpUsername smtpPasswordSet updatedAt
    }
  }
`);

const UpdateEmailConfigDocument = graphql(`
  mutation UpdateEmailConfig($input: UpdateEmailConfigInput!) {
    updateEmailConfig(input: $input) { configured enabled fromAddress smtpHost smtpPort smtpSecurity smtpUsername smtpPasswordSet updatedAt }
  }
`);

type SaveAction = Action<UpdateEmailConfigMutation, UpdateEmailConfigMutationVariables>;

const SendTestEmailDocument = graphql(`
  mutation SendTestEmail($to: String) {
    sendTestEmail(to: $to) { delivered outcome detail to }
  }
`);

const SECURITY: [SmtpSecurity, string][] = [
  ['none', 'None (plain SMTP)'],
  ['starttls', 'STARTTLS'],
  ['tls', 'TLS'],
];
const FIELDS = ['enabled', 'fromAddress', 'smtpHost', 'smtpPassword', 'smtpPort', 'smtpSecurity', 'smtpUsername'];

/** The SMTP settings (the password is write-only) and a test send whose outcome is told in words. */
export default function EmailPage() {
  const [{ data, error }, refetch] = useQuery({ query: EmailConfigDocument });
  const saving = useAction(UpdateEmailConfigDocument);
  return (
    <section aria-labelledby="email-title">
      <h1 id="email-title">E-mail</h1>
      {error && <p role="alert">The e-mail settings could not be loaded: {error.message}</p>}
      {data && (
        <>
          <p>
            {data.emailConfig.configured
              ? 'An SMTP server and a sender are set.'
              : 'No SMTP server or sender is set: no e-mail can be sent.'}{' '}
            {data.emailConfig.updatedAt ? `Last saved ${when(data.emailConfig.updatedAt)}.` : 'The deployment defaults apply.'}
          </p>
          <EmailForm
            key={data.emailConfig.updatedAt ?? 'defaults'}
            config={data.emailConfig}
            saving={saving}
            onSaved={() => refetch({ requestPolicy: 'network-only' })}
          />
          <TestSend />
        </>
      )}
    </section>
  );
}

type Config = AdminEmailConfigQuery['emailConfig'];

function EmailForm(props: { config: Config; saving: SaveAction; onSaved(): void }) {
  const { config } = props;
  const [enabled, setEnabled] = useState(config.enabled);
  const [fromAddress, setFrom] = useState(config.fromAddress ?? '');
  const [smtpHost, setHost] = useState(config.smtpHost ?? '');
  const [smtpPort, setPort] = useState(String(config.smtpPort));
  const [smtpSecurity, setSecurity] = useState<SmtpSecurity>(config.smtpSecurity);
  const [smtpUsername, setUsername] = useState(config.smtpUsername ?? '');
  const [smtpPassword, setPassword] = useState('');
  const { saving } = props;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      enabled,
      fromAddress: orNull(fromAddress),
      smtpHost: orNull(smtpHost),
      smtpPort: Number(smtpPort),
      smtpSecurity,
      smtpUsername,
      ...(smtpPassword ? { smtpPassword } : {}),
    };
    if (await saving.run({ input }, 'E-mail settings saved.')) {
      setPassword('');
      props.onSaved();
    }
  };
  const problem = (field: string) => fieldProblem(saving.problem, field);
  return (
    <form aria-label="SMTP settings" onSubmit={submit} className="admin-card">
      <fieldset disabled={saving.busy} className="admin-grid">
        <legend>SMTP settings</legend>
        <Field id="smtp-host" label="SMTP host" error={problem('smtpHost')}>
          {(describedBy) => (
            <input id="smtp-host" value={smtpHost} aria-describedby={describedBy} onChange={(e) => setHost(e.target.value)} />
          )}
        </Field>
        <Field id="smtp-port" label="Port" error={problem('smtpPort')}>
          {(describedBy) => (
            <input
              id="smtp-port"
              type="number"
              min={1}
              max={65535}
              value={smtpPort}
              aria-describedby={describedBy}
              onChange={(e) => setPort(e.target.value)}
            />
          )}
        </Field>
        <Field id="smtp-security" label="Security" error={problem('smtpSecurity')}>
          {(describedBy) => (
            <select
              id="smtp-security"
              value={smtpSecurity}
              aria-describedby={describedBy}
              onChange={(e) => setSecurity(e.target.value as SmtpSecurity)}
            >
              {SECURITY.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="smtp-username" label="Username (empty: no authentication)" error={problem('smtpUsername')}>
          {(describedBy) => (
            <input
              id="smtp-username"
              autoComplete="off"
              value={smtpUsername}
              aria-describedby={describedBy}
              onChange={(e) => setUsername(e.target.value)}
            />
          )}
        </Field>
        <Field id="smtp-password" label="New password" error={problem('smtpPassword')}>
          {(describedBy) => (
            <input
              id="smtp-password"
              type="password"
              autoComplete="new-password"
              value={smtpPassword}
              aria-describedby={describedBy ?? 'smtp-password-hint'}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <p id="smtp-password-hint" className="hint">
          {config.smtpPasswordSet ? 'A password is set; it is never shown. Leave empty to keep it.' : 'No password is set.'}
        </p>
        <Field id="from-address" label="Sender address" error={problem('fromAddress')}>
          {(describedBy) => (
            <input
              id="from-address"
              type="email"
              value={fromAddress}
              aria-describedby={describedBy}
              onChange={(e) => setFrom(e.target.value)}
            />
          )}
        </Field>
        <div className="field">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={enabled}
              aria-describedby={problem('enabled') ? 'email-enabled-error' : undefined}
              onChange={(e) => setEnabled(e.target.checked)}
            />
            Send notification e-mails
          </label>
          {problem('enabled') && (
            <p id="email-enabled-error" role="alert" className="error">
              {problem('enabled')}
            </p>
          )}
        </div>
      </fieldset>
      <button type="submit" className="button primary" disabled={saving.busy}>
        Save e-mail settings
      </button>
      <Outcome problem={saving.problem} done={saving.done} fieldsShown={FIELDS} />
    </form>
  );
}

function TestSend() {
  const [to, setTo] = useState('');
  const sending = useAction(SendTestEmailDocument);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await sending.run({ to: orNull(to) }, (data) =>
      data.sendTestEmail.delivered
        ? `Sent to ${data.sendTestEmail.to}: ${data.sendTestEmail.detail}`
        : `Not sent to ${data.sendTestEmail.to}: ${data.sendTestEmail.detail}`,
    );
  };
  return (
    <form aria-label="Test e-mail" onSubmit={submit} className="admin-card">
      <h2>Send a test e-mail</h2>
      <Field id="test-email-to" label="Send to (empty: your own address)" error={fieldProblem(sending.problem, 'to')}>
        {(describedBy) => (
          <input id="test-email-to" type="email" value={to} aria-describedby={describedBy} onChange={(e) => setTo(e.target.value)} />
        )}
      </Field>
      <button type="submit" className="button" disabled={sending.busy}>
        Send test e-mail
      </button>
      <Outcome problem={sending.problem} done={sending.done} fieldsShown={['to']} />
    </form>
  );
}
