import { builder, type SchemaTypes } from '../../graphql/builder.ts';
import { SmtpSecurity } from '../../generated/prisma/enums.ts';
import { TEST_EMAIL_OUTCOMES } from './outcome.ts';
import type { TestEmailResult } from './service.ts';
import type { EmailConfigView, EmailSettings } from './settings.ts';

export const SmtpSecurityEnum = builder.enumType(SmtpSecurity, {
  name: 'SmtpSecurity',
  description: 'none: plain SMTP (a trusted relay); starttls: STARTTLS required (usually port 587); tls: TLS from the start (usually 465).',
});

const settingsFields = <Shape extends EmailSettings>(t: PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, Shape>) => ({
  enabled: t.boolean({ description: 'Whether notification e-mails are sent.', resolve: (settings) => settings.enabled }),
  smtpHost: t.string({ nullable: true, resolve: (settings) => settings.smtpHost }),
  smtpPort: t.int({ resolve: (settings) => settings.smtpPort }),
  smtpSecurity: t.field({ type: SmtpSecurityEnum, resolve: (settings) => settings.smtpSecurity }),
  smtpUsername: t.string({
    nullable: true,
    description: 'null: the server is used without authentication.',
    resolve: (settings) => settings.smtpUsername,
  }),
  smtpPasswordSet: t.boolean({
    description: 'Whether a password is set. The password itself is never shown.',
    resolve: (settings) => settings.smtpPasswordSet,
  }),
  fromAddress: t.string({
    nullable: true,
    description: 'The sender address of every e-mail.',
    resolve: (settings) => settings.fromAddress,
  }),
});

const EmailSettingsType = builder.objectRef<EmailSettings>('EmailSettings').implement({
  description: 'E-mail settings from the deployment (SMTP_URL, EMAIL_FROM).',
  fields: settingsFields,
});

export const EmailConfigType = builder.objectRef<EmailConfigView>('EmailConfig').implement({
  description: 'The e-mail settings in force: each stored setting overrides the deployment default of the same name.',
  fields: (t) => ({
    ...settingsFields(t),
    configured: t.exposeBoolean('configured', { description: 'Whether an SMTP host and a sender address are known.' }),
    defaults: t.field({
      type: EmailSettingsType,
      description: 'The deployment defaults, which apply to every setting not stored.',
      resolve: (config) => config.defaults,
    }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true }),
    updatedById: t.exposeID('updatedById', { nullable: true }),
  }),
});

export const UpdateEmailConfigInput = builder.inputType('UpdateEmailConfigInput', {
  description: 'Settings to store. A field left out stays as it is; null removes the stored value, so the deployment default applies.',
  fields: (t) => ({
    enabled: t.boolean({ required: false, description: 'Cannot be true without an SMTP host and a sender address.' }),
    smtpHost: t.string({ required: false, description: 'Host name or IP address.' }),
    smtpPort: t.int({ required: false, description: '1 to 65535.' }),
    smtpSecurity: t.field({ type: SmtpSecurityEnum, required: false }),
    smtpUsername: t.string({ required: false, description: 'An empty string turns authentication off.' }),
    smtpPassword: t.string({ required: false, description: 'Write-only: stored encrypted, never shown again.' }),
    fromAddress: t.string({ required: false, description: 'An e-mail address.' }),
  }),
});

const TestEmailOutcomeEnum = builder.enumType('TestEmailOutcome', {
  description:
    'delivered; destination_refused: the host is not public and not allowed by SMTP_ALLOWED_HOSTS on this port; connection_failed; ' +
    'timed_out; authentication_failed; rejected: the server refused the sender, a recipient or the message; password_unreadable.',
  values: TEST_EMAIL_OUTCOMES,
});

export const TestEmailResultType = builder.objectRef<TestEmailResult>('TestEmailResult').implement({
  description: 'Whether the SMTP server accepted the test e-mail.',
  fields: (t) => ({
    delivered: t.exposeBoolean('delivered', { description: 'true when the server accepted the message.' }),
    outcome: t.field({ type: TestEmailOutcomeEnum, description: 'What happened, as a stable code.', resolve: (result) => result.outcome }),
    detail: t.exposeString('detail', { description: "The outcome in Violet's words; the SMTP server's own text is only logged." }),
    to: t.exposeString('to', { description: 'Where it was sent.' }),
  }),
});
