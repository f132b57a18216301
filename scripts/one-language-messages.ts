/**
 * A Vite plugin for the compiled message catalogue (app/paraglide/messages/), decision 039.
 *
 * Each compiled message is a function per language and an exported function that picks one by the
 * page's language. One language's browser code knows the pick already, so there the message
 * becomes that language's function itself: the bundle carries one small function per text and no
 * wrapper around it. The server's code, and a browser build of every language, keep the pick.
 *
 * Paraglide's one-language code also warns, in every message, when a call names another language.
 * The site never does (a page has one language), and that line was most of each message's code:
 * it is removed everywhere.
 */

const LOCALE_WARNING = /^\s*if \(.*\) console\.warn\("Paraglide: options\.locale cannot override a locale-specialized client bundle[^\n]*$/m;
const MESSAGE_EXPORT = /^export const (\w+) = \/\*\* @type \{[^\n]*\*\/ \(\(inputs[^)]*\) => \{\n[\s\S]*?\n\}\);?$/m;

/** The compiled message `code` with its export bound to `language`'s function (unchanged if its shape is not known). */
export function oneLanguageMessage(code: string, language: string): string {
  const match = MESSAGE_EXPORT.exec(code);
  if (!match) return code;
  const [whole, key] = match;
  const own = new RegExp(`if \\(locale === "${language}"\\) return (\\w+)\\(inputs\\)`).exec(whole)?.[1];
  // A language without its own text falls to the base language's, the pick's last line.
  const fallback = /\breturn (\w+)\(inputs\)\n\}\);?$/.exec(whole)?.[1];
  const chosen = own ?? fallback;
  return chosen ? code.replace(whole, `export const ${key} = ${chosen};`) : code;
}

export function withoutLocaleWarning(code: string): string {
  return code.replace(LOCALE_WARNING, "");
}

/** `language`: the browser build's one language, or undefined for a build of every language. */
export function oneLanguageMessages(language: string | undefined) {
  return {
    name: "dwell-one-language-messages",
    transform(this: { environment?: { name: string } }, code: string, id: string) {
      if (!id.includes("/app/paraglide/messages/")) return;
      const quiet = withoutLocaleWarning(code);
      return language && this.environment?.name === "client" ? oneLanguageMessage(quiet, language) : quiet;
    },
  };
}
