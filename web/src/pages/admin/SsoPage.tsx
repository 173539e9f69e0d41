import { type FormEvent, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import type { AdminSsoQuery, Role, UpdateSsoConfigMutation, UpdateSsoConfigMutationVariables } from '../../gql/graphql.ts';
import { useSession } from '../../session.tsx';
import { Field } from '../../components/Field.tsx';
import { type Action, fieldProblem, orNull, useAction, when } from './admin-forms.ts';
import { Outcome } from '../../components/Outcome.tsx';

const SsoDocument = graphql(`
  query AdminSso {
    ssoStatus { configured enabled }
    ssoConfig {
      acsUrl metadataUrl spEntityId idpEntityId idpSsoUrl idpCertificate idpCertificateExpiresAt
      autoProvision defaultRole enabled roleMapping updatedAt
      attributeMapping { username email role }
    }
  }
`);

const UpdateSsoDocument = graphql(`
  mutation UpdateSsoConfig($input: UpdateSsoConfigInput!) {
    updateSsoConfig(input: $input) { updatedAt enabled configured }
  }
`);

type SaveAction = Action<UpdateSsoConfigMutation, UpdateSsoConfigMutationVariables>;

const FIELDS = [
  'idpEntityId',
  'idpSsoUrl',
  'idpCertificate',
  'idpMetadataXml',
  'spEntityId',
  'roleMapping',
  'defaultRole',
  'enabled',
  'username',
  'email',
  'role',
];

/** The SAML settings with the service provider's own addresses and the sign-in status. */
export default function SsoPage() {
  const [{ data, error }, refetch] = useQuery({ query: SsoDocument });
  const saving = useAction(UpdateSsoDocument);
  return (
    <section aria-labelledby="sso-title">
      <h1 id="sso-title">Single sign-on</h1>
      {error && <p role="alert">The single sign-on settings could not be loaded: {error.message}</p>}
      {data && (
        <>
          <p role="status">
            {data.ssoStatus.enabled
              ? 'Single sign-on is on: the sign-in page offers it.'
              : data.ssoStatus.configured
                ? 'Single sign-on is configured but switched off.'
                : 'Single sign-on is not configured: the identity provider’s entity id, sign-on URL and certificate are needed.'}
          </p>
          <dl className="facts">
            <dt>Assertion consumer service</dt>
            <dd className="text">{data.ssoConfig.acsUrl}</dd>
            <dt>Service provider metadata</dt>
            <dd className="text">{data.ssoConfig.metadataUrl}</dd>
            <dt>Certificate expires</dt>
            <dd>{when(data.ssoConfig.idpCertificateExpiresAt)}</dd>
          </dl>
          <SsoForm
            key={data.ssoConfig.updatedAt ?? 'never'}
            config={data.ssoConfig}
            saving={saving}
            onSaved={() => refetch({ requestPolicy: 'network-only' })}
          />
        </>
      )}
    </section>
  );
}

function SsoForm(props: { config: AdminSsoQuery['ssoConfig']; saving: SaveAction; onSaved(): void }) {
  const { config } = props;
  const { viewer } = useSession();
  const roles = (viewer.roleSets.find((set) => set.name === 'any')?.roles ?? []) as Role[];
  const [values, setValues] = useState({
    idpEntityId: config.idpEntityId ?? '',
    idpSsoUrl: config.idpSsoUrl ?? '',
    idpCertificate: config.idpCertificate ?? '',
    idpMetadataXml: '',
    spEntityId: config.spEntityId,
    username: config.attributeMapping.username ?? '',
    email: config.attributeMapping.email ?? '',
    role: config.attributeMapping.role ?? '',
    roleMapping: JSON.stringify(config.roleMapping ?? {}, null, 2),
  });
  const [defaultRole, setDefaultRole] = useState<Role>(config.defaultRole);
  const [autoProvision, setAutoProvision] = useState(config.autoProvision);
  const [enabled, setEnabled] = useState(config.enabled);
  const [mappingProblem, setMappingProblem] = useState<string>();
  const { saving } = props;
  const set = (name: keyof typeof values) => (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let roleMapping: unknown;
    try {
      roleMapping = JSON.parse(values.roleMapping || '{}');
      setMappingProblem(undefined);
    } catch {
      setMappingProblem('Role mapping: not valid JSON, e.g. {"Violet Admins": "admin"}');
      return;
    }
    const input = {
      idpEntityId: orNull(values.idpEntityId),
      idpSsoUrl: orNull(values.idpSsoUrl),
      idpCertificate: orNull(values.idpCertificate),
      ...(values.idpMetadataXml.trim() ? { idpMetadataXml: values.idpMetadataXml } : {}),
      spEntityId: orNull(values.spEntityId),
      attributeMapping: { username: orNull(values.username), email: orNull(values.email), role: orNull(values.role) },
      roleMapping,
      defaultRole,
      autoProvision,
      enabled,
    };
    if (await saving.run({ input }, 'Single sign-on settings saved.')) props.onSaved();
  };
  const text = (name: keyof typeof values, label: string, multiline = false) => (
    <Field
      id={`sso-${name}`}
      label={label}
      error={name === 'roleMapping' ? (mappingProblem ?? fieldProblem(saving.problem, name)) : fieldProblem(saving.problem, name)}
    >
      {(describedBy) =>
        multiline ? (
          <textarea id={`sso-${name}`} rows={4} value={values[name]} aria-describedby={describedBy} onChange={set(name)} />
        ) : (
          <input id={`sso-${name}`} value={values[name]} aria-describedby={describedBy} onChange={set(name)} />
        )
      }
    </Field>
  );
  return (
    <form aria-label="Single sign-on settings" onSubmit={submit} className="admin-card">
      <fieldset disabled={saving.busy} className="admin-grid">
        <legend>Identity provider</legend>
        {text('idpMetadataXml', 'IdP metadata XML (fills the three below unless they are given)', true)}
        {text('idpEntityId', 'IdP entity id')}
        {text('idpSsoUrl', 'IdP sign-on URL (HTTP-Redirect)')}
        {text('idpCertificate', 'IdP certificate (PEM)', true)}
        {text('spEntityId', 'Service provider entity id')}
      </fieldset>
      <fieldset disabled={saving.busy} className="admin-grid">
        <legend>Accounts</legend>
        {text('username', 'Username attribute (empty: the NameID)')}
        {text('email', 'E-mail attribute')}
        {text('role', 'Role attribute')}
        {text('roleMapping', 'Role mapping (JSON: attribute value → role)', true)}
        <Field id="sso-default-role" label="Default role" error={fieldProblem(saving.problem, 'defaultRole')}>
          {(describedBy) => (
            <select
              id="sso-default-role"
              value={defaultRole}
              aria-describedby={describedBy}
              onChange={(e) => setDefaultRole(e.target.value as Role)}
            >
              {roles.map((role) => (
                <option key={role} value={role}>
                  {role.replace('_', ' ')}
                </option>
              ))}
            </select>
          )}
        </Field>
        <label className="checkbox">
          <input type="checkbox" checked={autoProvision} onChange={(e) => setAutoProvision(e.target.checked)} />
          Create unknown users at their first sign-in
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Single sign-on on
        </label>
        {fieldProblem(saving.problem, 'enabled') && (
          <p role="alert" className="error">
            {fieldProblem(saving.problem, 'enabled')}
          </p>
        )}
      </fieldset>
      <button type="submit" className="button primary" disabled={saving.busy}>
        Save single sign-on settings
      </button>
      <Outcome problem={saving.problem} done={saving.done} fieldsShown={FIELDS} />
    </form>
  );
}
