import { Form, useNavigation, useSearchParams } from "@remix-run/react";
import { Alert, Button, Card, CardBody, CardHeader, Input } from "~/components/ui";

export type PreviewPassage = { chunkId: number; title: string; heading: string | null; url: string | null; text: string; score: number };
export type RetrievalPreviewData = { query: string; answerable: boolean; passages: PreviewPassage[]; ms: number } | null;

/** "What would the bot retrieve?": runs the chatbot's real retrieval for a question (GET ?q=). */
export function RetrievalPreview({ preview }: { preview: RetrievalPreviewData }) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location?.search.includes("q=");
  return (
    <Card>
      <CardHeader
        title="What would the bot retrieve?"
        description="Ask a question the way a visitor would and see the passages the bot would answer from, best first."
      />
      <CardBody className="space-y-4">
        <Form method="get" preventScrollReset className="flex flex-col gap-2 sm:flex-row" role="search">
          {params.get("add") ? <input type="hidden" name="add" value={params.get("add")!} /> : null}
          <label htmlFor="retrieval-q" className="sr-only">
            Question
          </label>
          <Input
            id="retrieval-q"
            name="q"
            maxLength={500}
            defaultValue={preview?.query ?? ""}
            placeholder="e.g. How do I invite a colleague?"
            className="sm:flex-1"
          />
          <Button type="submit" variant="secondary" disabled={busy}>
            {busy ? "Searching…" : "Search knowledge"}
          </Button>
        </Form>
        {preview ? (
          <div className="space-y-3" aria-live="polite">
            {preview.answerable ? null : (
              <Alert tone="warning">Nothing clears the relevance floor: the bot would reply with its fallback message instead of answering.</Alert>
            )}
            {preview.passages.length === 0 ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-300">No passage matches this question.</p>
            ) : (
              <ol className="space-y-3">
                {preview.passages.map((p, i) => (
                  <li key={p.chunkId} className="rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800">
                    <div className="flex flex-wrap items-baseline justify-between gap-2">
                      <p className="font-medium">
                        {i + 1}. {p.title}
                        {p.heading ? <span className="font-normal text-zinc-600 dark:text-zinc-400"> › {p.heading}</span> : null}
                      </p>
                      <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{`score ${p.score.toFixed(3)}`}</span>
                    </div>
                    {p.url ? (
                      <a href={p.url} className="break-all text-xs text-brand-700 underline dark:text-brand-300" rel="noreferrer noopener" target="_blank">
                        {p.url}
                      </a>
                    ) : null}
                    <p className="mt-2 whitespace-pre-line text-zinc-700 dark:text-zinc-300">{p.text}</p>
                  </li>
                ))}
              </ol>
            )}
            <p className="text-xs text-zinc-500 dark:text-zinc-400">{`Retrieved in ${preview.ms} ms.`}</p>
          </div>
        ) : null}
      </CardBody>
    </Card>
  );
}
