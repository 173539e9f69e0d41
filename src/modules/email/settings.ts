import type { Config, SmtpSecurity } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { EmailConfig } from '../../generated/prisma/client.ts';
import type { SecretKeyring } from '../../crypto/secret-box.ts';
import { movesDestination } from '../../crypto/secret-binding.ts';

/** The single row of `email_config`. */
export const EMAIL_CONFIG_ID = 1;
/** The purpose the stored SMTP password is sealed for (its key and authenticated data). */
export const SMTP_PASSWORD_PURPOSE = 'email_config.smtp_password';

const DEFAULT_PORT: Record<SmtpSecurity, number> = { none: 25, starttls: 587, tls: 465 };

/** E-mail settings as an admin sees them: never the password, only whether one is set. */
export interface EmailSettings {
  enabled: boolean;
  smtpHost: string | null;
  smtpPort: number;
  smtpSecurity: SmtpSecurity;
  /** null: no authentication. */
  smtpUsername: string | null;
  smtpPasswordSet: boolean;
  fromAddress: string | null;
}

/** What a transport needs: the settings in force with the password, read only to send. */
export interface SmtpSettings extends EmailSettings {
  /** The password, or null when none is set; `unreadable` when the stored one cannot be decrypted. */
  smtpPassword: string | null | 'unreadable';
}

/** The settings in force plus the deployment defaults they override, for the config endpoints. */
export interface EmailConfigView extends EmailSettings {
  /** Whether a host and a sender address are known, so mail can be sent once enabled. */
  configured: boolean;
  defaults: EmailSettings;
  updatedAt: Date | null;
  updatedById: string | null;
}

export const isConfigured = (settings: Pick<EmailSettings, 'smtpHost' | 'fromAddress'>): boolean =>
  Boolean(settings.smtpHost && settings.fromAddress);

/** The deployment defaults: SMTP_URL and EMAIL_FROM; e-mail is on when both are set. */
export function environmentSettings(config: Pick<Config, 'SMTP_URL' | 'EMAIL_FROM'>): EmailSettings & { smtpPassword: string | null } {
  const server = config.SMTP_URL;
  const security = server?.security ?? 'starttls';
  return {
    enabled: Boolean(server && config.EMAIL_FROM),
    smtpHost: server?.host ?? null,
    smtpPort: server?.port ?? DEFAULT_PORT[security],
    smtpSecurity: security,
    smtpUsername: server?.username ?? null,
    smtpPasswordSet: Boolean(server?.password),
    smtpPassword: server?.password ?? null,
    fromAddress: config.EMAIL_FROM ?? null,
  };
}

type StoredRow = Omit<EmailConfig, 'id'> | null;

/** Where the password goes: changing any of these drops a stored password, and the environment's applies only to its own. */
export const SMTP_DESTINATION = ['smtpHost', 'smtpPort', 'smtpSecurity', 'smtpUsername'] as const;
type Destination = Pick<EmailSettings, (typeof SMTP_DESTINATION)[number]>;

/** The settings in force without the password: each stored column overrides its default; an empty user name turns authentication off. */
export function settingsInForce(
  row: Partial<StoredRow> | null,
  config: Pick<Config, 'SMTP_URL' | 'EMAIL_FROM'>,
): Omit<EmailSettings, 'smtpPasswordSet'> {
  const defaults = environmentSettings(config);
  const security = row?.smtpSecurity ?? defaults.smtpSecurity;
  return {
    enabled: row?.enabled ?? defaults.enabled,
    smtpHost: row?.smtpHost ?? defaults.smtpHost,
    smtpPort: row?.smtpPort ?? (config.SMTP_URL ? defaults.smtpPort : DEFAULT_PORT[security]),
    smtpSecurity: security,
    smtpUsername: (row?.smtpUsername ?? defaults.smtpUsername) || null,
    fromAddress: row?.fromAddress ?? defaults.fromAddress,
  };
}

/** The settings in force with the password: the stored one, else SMTP_URL's while the destination is SMTP_URL's own. */
function merge(row: StoredRow, config: Pick<Config, 'SMTP_URL' | 'EMAIL_FROM'>, keyring: SecretKeyring): SmtpSettings {
  const defaults = environmentSettings(config);
  const settings = settingsInForce(row, config);
  const sealed = row?.smtpPasswordEncrypted ?? null;
  let smtpPassword: SmtpSettings['smtpPassword'] = movesDestination<Destination>(SMTP_DESTINATION, defaults, settings)
    ? null
    : defaults.smtpPassword;
  if (sealed !== null) {
    try {
      smtpPassword = keyring.box(SMTP_PASSWORD_PURPOSE).open(sealed);
    } catch {
      smtpPassword = 'unreadable';
    }
  }
  return { ...settings, smtpPasswordSet: smtpPassword !== null, smtpPassword };
}

export interface SettingsDeps {
  config: Pick<Config, 'SMTP_URL' | 'EMAIL_FROM'>;
  secrets: SecretKeyring;
}

export const readRow = (db: Db): Promise<StoredRow> => db.emailConfig.findUnique({ where: { id: EMAIL_CONFIG_ID } });

/** The settings in force now, password included: what a transport is built from. */
export async function smtpSettings(db: Db, deps: SettingsDeps): Promise<SmtpSettings> {
  return merge(await readRow(db), deps.config, deps.secrets);
}

const withoutPassword = ({ smtpPassword: _password, ...settings }: SmtpSettings | ReturnType<typeof environmentSettings>): EmailSettings =>
  settings;

/** The view of a stored row (or of none): the settings in force, whether they suffice, and the defaults. */
export function configView(row: StoredRow, deps: SettingsDeps): EmailConfigView {
  const settings = withoutPassword(merge(row, deps.config, deps.secrets));
  return {
    ...settings,
    configured: isConfigured(settings),
    defaults: withoutPassword(environmentSettings(deps.config)),
    updatedAt: row?.updatedAt ?? null,
    updatedById: row?.updatedById ?? null,
  };
}

export async function readConfigView(db: Db, deps: SettingsDeps): Promise<EmailConfigView> {
  return configView(await readRow(db), deps);
}
