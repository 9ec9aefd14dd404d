import escapeHtmlText from 'escape-html';

/** Text made safe to put into HTML, in content and in quoted attributes: the pages both services serve use it. */
export function escapeHtml(text: string): string {
  return escapeHtmlText(text);
}
