/**
 * Outgoing email: nodemailer over SMTP_URL. Without SMTP the message is written to the server log,
 * so a self-hosted site without mail can still recover an account (whoever reads the log can).
 *
 * Sending happens in the background: `send` returns once the message is handed over, and a mail
 * server that is down, hangs or answers nonsense costs the visitor nothing. A password reset request
 * then answers the same, and as fast, whether the account exists and whether the mail server works
 * (awaiting the send would tell an attacker which addresses have accounts, and turn a mail outage
 * into failed pages). A failed send is logged once; the person can ask again.
 */
import nodemailer from "nodemailer";
import { log, logLevel } from "./log.server";

/** A link's query (a reset token) is a secret: the rest of the text is not. */
export function withoutSecrets(text: string): string {
  return text.replace(/(https?:\/\/[^\s?]+)\?\S*/g, "$1?… (hidden)");
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** When this process last handed a message to the mail server, and last failed to. */
export interface MailStatus {
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
}

export interface Mailer {
  /** "smtp" or "log": whether people get mail, or the log holds it. */
  readonly transport: "smtp" | "log";
  status(): MailStatus;
  /** Hands the message over; never throws for a mail server's failure (that is logged instead). */
  send(message: EmailMessage): Promise<void>;
}

/**
 * Each step with the mail server (connecting, its greeting, every reply) may take this long.
 * nodemailer's own defaults (2 min, 30 s, 10 min) would keep a hung connection open for minutes.
 * SMTP_URL's query can set them one by one: `smtp://host:587?greetingTimeout=5000`.
 */
export const SMTP_STEP_TIMEOUT_MS = 15_000;
/** A whole message, however slowly a server trickles its replies. */
export const SMTP_SEND_TIMEOUT_MS = 60_000;

export function createMailer({ smtpUrl, from }: { smtpUrl?: string; from: string }): Mailer {
  if (!smtpUrl) {
    return {
      transport: "log",
      status: () => ({ lastSuccessAt: null, lastFailureAt: null }),
      async send(message) {
        // Without SMTP the log is the only way a reset link reaches an admin; the link is a key to
        // the account, so it is written whole only where the operator asked for everything.
        if (logLevel() === "debug") {
          log.debug("email not sent (no SMTP_URL); here it is", { to: message.to, subject: message.subject, text: message.text });
        } else {
          log.info("email not sent (no SMTP_URL); its links are written only with LOG_LEVEL=debug", {
            subject: message.subject,
            text: withoutSecrets(message.text),
          });
        }
      },
    };
  }
  // The URL's own options (its query) take precedence over these defaults.
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_STEP_TIMEOUT_MS,
    greetingTimeout: SMTP_STEP_TIMEOUT_MS,
    socketTimeout: SMTP_STEP_TIMEOUT_MS,
  });
  const status: MailStatus = { lastSuccessAt: null, lastFailureAt: null };
  return {
    transport: "smtp",
    status: () => ({ ...status }),
    async send(message) {
      transporter.sendMail({ from, ...message, signal: AbortSignal.timeout(SMTP_SEND_TIMEOUT_MS) }).then(
        () => {
          status.lastSuccessAt = new Date();
          log.info("email sent", { subject: message.subject });
        },
        // Only the error: nodemailer's messages name the server and the step, never the password.
        (error: unknown) => {
          status.lastFailureAt = new Date();
          log.error("sending an email failed", { subject: message.subject, error });
        },
      );
    },
  };
}
