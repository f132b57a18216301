/**
 * The look of every text box, text area and select: a gold edge when focused (an unseen
 * outline keeps it visible in forced-colours mode), a red border when invalid.
 */
export const fieldLook =
  "w-full rounded-lg border border-aurora-400/30 bg-night-950/70 py-2.5 text-mist-100 placeholder:text-mist-400/60 focus:border-ember-400 focus:outline-hidden focus:ring-1 focus:ring-ember-400 aria-[invalid=true]:border-red-400";

/** A field with text from edge to edge; one with an icon inside takes `fieldLook` and its own padding. */
export const fieldClass = `${fieldLook} px-3`;
