/** @module The seed's unified image HTML for note fields, appended once and never duplicated. */

/** `<div><img src="FILE" style="max-width:100%;height:auto"/></div>` (spec 000, "Единый HTML-формат"). */
export function imgHtml(filename: string): string {
  return `<div><img src="${filename.replace(/"/g, "&quot;")}" style="max-width:100%;height:auto"/></div>`;
}

/**
 * Ensure `field` shows `filename`: appends the unified HTML after a blank line when the field
 * already has text, and leaves the field unchanged when an <img> of that file is already there.
 */
export function ensureImgTag(field: string, filename: string): string {
  const escaped = filename.replace(/"/g, "&quot;").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (new RegExp(`<img\\b[^>]*\\bsrc=["']?${escaped}["'\\s/>]`, "i").test(field)) return field;
  const html = imgHtml(filename);
  return field.trim() === "" ? html : `${field}\n\n${html}`;
}
