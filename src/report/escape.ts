// Pure: text from the config or the SUT made inert in Markdown/HTML (GitHub comments and summaries).
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]|~])/g, '\\$1')
    .replace(/@/g, '@\u200b');
}
