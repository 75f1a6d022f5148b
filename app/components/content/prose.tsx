// Rendered markdown from app/.server/content (marked → xss allowlist): the HTML is produced and
// sanitised on the server, never assembled from untrusted strings here. Styles: `.prose-parley`
// in app/styles/app.css.
export function Prose({ html, className = "" }: { html: string; className?: string }) {
  return <div className={`prose-parley ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
