import { body, type Route } from '../../../rest-adapter/types.ts';
import { systemRoles } from './permissions.ts';
import type { Health } from './service.ts';

const EMAIL_SETTINGS = 'enabled smtpHost smtpPort smtpSecurity smtpUsername smtpPasswordSet fromAddress';
const EMAIL_CONFIG_FIELDS = `${EMAIL_SETTINGS} configured defaults { ${EMAIL_SETTINGS} } updatedAt updated_by_id: updatedById`;

const HEALTH = 'query { health { status database { status engine } redis { status } storage { status driver } workers { status count } } }';

/** Drops the details an anonymous caller gets as null, so its answer holds status words only. */
const withoutNulls = (value: unknown): unknown =>
  value && typeof value === 'object'
    ? Object.fromEntries(
        Object.entries(value)
          .filter(([, inner]) => inner !== null)
          .map(([key, inner]) => [key, withoutNulls(inner)]),
      )
    : value;

export const systemRoutes: Route[] = [
  {
    method: 'GET',
    path: '/system/health',
    tag: 'System',
    summary:
      'Health check: 200 with status ok, or 503 with status degraded when the database or a configured Redis fails; ' +
      'status words of the database, Redis, storage and job workers, with the engine, driver and worker count for admins',
    roles: systemRoles.health,
    documents: [HEALTH],
    async handle(_req, res, { execute }) {
      const health = (await execute(HEALTH, {})) as Health;
      res.status(health.status === 'ok' ? 200 : 503).json(withoutNulls(health));
    },
  },
  {
    method: 'GET',
    path: '/system/scheduler-status',
    tag: 'System',
    roles: systemRoles.scheduler,
    summary: 'Scheduler status: running, how many processes work the queues, and the recurring jobs with their next run time',
    document: 'query { schedulerStatus { running workers jobs { id name nextRunTime } } }',
  },
  {
    method: 'GET',
    path: '/system/email-config',
    tag: 'System',
    roles: systemRoles.email,
    summary:
      'E-mail (SMTP) settings in force: enabled, smtp_host, smtp_port, smtp_security, smtp_username, smtp_password_set (never the password), ' +
      'from_address, configured, and the deployment defaults (SMTP_URL, EMAIL_FROM) they override',
    document: `query { emailConfig { ${EMAIL_CONFIG_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/system/email-config',
    tag: 'System',
    roles: systemRoles.email,
    summary:
      'Store e-mail settings over the deployment defaults: any of enabled, smtp_host, smtp_port, smtp_security (none, starttls, tls), ' +
      'smtp_username, smtp_password (write-only, stored encrypted), from_address; null returns a setting to its default',
    document: `mutation ($input: UpdateEmailConfigInput!) { updateEmailConfig(input: $input) { ${EMAIL_CONFIG_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'POST',
    path: '/system/email-test',
    tag: 'System',
    roles: systemRoles.email,
    expensive: true,
    summary:
      "Send a test e-mail now to body to (default: the caller's address); 200 with delivered (whether the SMTP server accepted it), " +
      "outcome (a stable code) and detail (Violet's words, never the server's); 409 EMAIL_NOT_CONFIGURED while e-mail is disabled or lacks a host or sender",
    document: 'mutation ($to: String) { sendTestEmail(to: $to) { delivered outcome detail to } }',
  },
];
