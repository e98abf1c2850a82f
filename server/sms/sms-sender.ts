import { writeToOutbox } from '#server/mail/outbox.ts';

/** One text message: `to` in E.164 (+15551234567). */
export interface SmsMessage {
  to: string;
  body: string;
}

/** Delivers text messages: through an HTTP provider when SMS_URL is set, else into `$DATA_DIR/outbox/`. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

export interface SmsSenderSettings {
  /** A Twilio-compatible Messages endpoint with the credentials in it: https://SID:TOKEN@host/…/Messages.json */
  smsUrl: string | null;
  smsFrom: string | null;
  dataDir: string;
  /** Longest wait for the provider's answer (ms); 10 s by default. */
  timeoutMs?: number;
}

export interface SmsLog {
  info(obj: object, msg: string): void;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** The text of a code message. */
export function codeSms(code: string, minutes: number): string {
  return `Your DBUI code is ${code}. It expires in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

/** Builds the sender SMS_URL asks for; throws at once on a URL it cannot use, so start-up reports it. */
export function createSmsSender(settings: SmsSenderSettings, log: SmsLog): SmsSender {
  return settings.smsUrl
    ? providerSender(settings.smsUrl, settings.smsFrom, settings.timeoutMs ?? DEFAULT_TIMEOUT_MS, log)
    : outboxSender(settings.dataDir, settings.smsFrom, log);
}

/**
 * Twilio's Messages API and the providers that copy it: a form-encoded POST of To, From and Body with HTTP Basic
 * authentication (account SID and auth token, or API key and secret).
 */
function providerSender(smsUrl: string, from: string | null, timeoutMs: number, log: SmsLog): SmsSender {
  let url: URL;
  try {
    url = new URL(smsUrl);
  } catch {
    throw new Error('SMS_URL is not a valid URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error('SMS_URL must be an http:// or https:// URL.');
  }
  const authorization = url.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
    : null;
  // The credentials travel in the header only, never in the request line (nor in error messages).
  url.username = '';
  url.password = '';
  const endpoint = url.toString();
  const provider = url.host;

  return {
    async send(message) {
      const form = new URLSearchParams({
        To: message.to,
        ...(from ? { From: from } : {}),
        Body: message.body,
      });
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
            ...(authorization ? { authorization } : {}),
          },
          body: form,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
      } catch (error) {
        const timedOut = error instanceof Error && error.name === 'TimeoutError';
        const reason = timedOut
          ? `no answer within ${timeoutMs / 1000} s`
          : error instanceof Error
            ? causeOf(error)
            : String(error);
        throw new Error(`The SMS to ${message.to} could not be sent through ${provider}: ${reason}.`, {
          cause: error,
        });
      }
      const answer = await response.text().catch(() => '');
      if (!response.ok) {
        throw new Error(
          `The SMS provider ${provider} refused the message to ${message.to} (HTTP ${response.status}): ${providerMessage(answer) ?? (response.statusText || 'no reason given')}`,
        );
      }
      log.info({ to: message.to, id: providerId(answer) }, 'SMS sent');
    },
  };
}

function outboxSender(dataDir: string, from: string | null, log: SmsLog): SmsSender {
  return {
    async send(message) {
      const now = new Date();
      const content = `To: ${message.to}\nFrom: ${from ?? '(SMS_FROM not set)'}\nDate: ${now.toISOString()}\n\n${message.body}\n`;
      const file = await writeToOutbox(dataDir, '.sms.txt', content, now);
      // Never the body: it holds codes.
      log.info({ to: message.to, file }, 'SMS written to the outbox');
    },
  };
}

/** fetch reports network failures as "fetch failed" with the real reason in `cause`. */
function causeOf(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error)
    return `${error.message} (${'code' in cause ? String(cause.code) : cause.message})`;
  return error.message;
}

/** The provider's own explanation: Twilio answers errors as JSON with `message` (and `code`, `more_info`). */
function providerMessage(answer: string): string | null {
  const parsed = parseJson(answer);
  if (parsed && typeof parsed.message === 'string' && parsed.message) {
    return typeof parsed.code === 'number' || typeof parsed.code === 'string'
      ? `${parsed.message} (code ${parsed.code})`
      : parsed.message;
  }
  const text = answer.trim();
  return text && !text.startsWith('<') ? text.slice(0, 200) : null;
}

/** The message id (Twilio's `sid`) for the log, when the provider gives one. */
function providerId(answer: string): string | null {
  const parsed = parseJson(answer);
  return parsed && typeof parsed.sid === 'string' ? parsed.sid : null;
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
