/**
 * Outgoing email: nodemailer over SMTP_URL. Without SMTP the message is written to the server log,
 * so a self-hosted site without mail can still recover an account (whoever reads the log can).
 */
import nodemailer from "nodemailer";
import { log } from "./log.server";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** "smtp" or "log": whether people get mail, or the log holds it. */
  readonly transport: "smtp" | "log";
  send(message: EmailMessage): Promise<void>;
}

export function createMailer({ smtpUrl, from }: { smtpUrl?: string; from: string }): Mailer {
  if (!smtpUrl) {
    return {
      transport: "log",
      async send(message) {
        // Deliberately logged in full: without SMTP this is the only way the link reaches an admin.
        log.info("email not sent (no SMTP_URL); here it is", { to: message.to, subject: message.subject, text: message.text });
      },
    };
  }
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    transport: "smtp",
    async send(message) {
      await transporter.sendMail({ from, ...message });
    },
  };
}
