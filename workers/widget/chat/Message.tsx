/** @jsxImportSource preact */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { visibleSources } from "../../../app/lib/chat-stream";
import { failure, postJson } from "./api";
import { ProductCards } from "./ProductCards";
import { renderAnswer } from "./sanitize";
import type { Msg, VisitorAuth } from "./types";

// One message of the conversation (visitor, bot, team member or a note) with its sources, and the
// actions on a bot answer: thumbs and "report a problem".

export function MessageView(props: {
  m: Msg;
  showSources: boolean;
  api: string;
  auth: VisitorAuth;
  onFeedback: (m: Msg, v: 1 | -1) => void;
  onAnnounce: (s: string) => void;
  canAct: boolean;
}) {
  const { m } = props;
  const html = useMemo(() => (m.role === "bot" || m.role === "human" ? renderAnswer(m.content) : ""), [m.role, m.content]);
  if (m.role === "visitor") {
    return (
      <div class="pc-msg pc-visitor">
        <p class="pc-sr">You said:</p>
        <div class="pc-bubble">{m.content}</div>
      </div>
    );
  }
  if (m.role === "note") {
    return (
      <div class="pc-msg pc-note">
        <p>{m.content}</p>
      </div>
    );
  }
  const sources = props.showSources && !m.streaming ? visibleSources(m.content, m.sources) : [];
  return (
    <div class={`pc-msg pc-bot${m.role === "human" ? " pc-human" : ""}`} aria-busy={m.streaming ? "true" : undefined}>
      {m.role === "human" && <p class="pc-who">Team</p>}
      <div class="pc-bubble">
        {m.streaming && !m.content ? (
          <span class="pc-typing" role="img" aria-label="Typing">
            <span />
            <span />
            <span />
          </span>
        ) : (
          <div class="pc-md" dangerouslySetInnerHTML={{ __html: html }} />
        )}
        {m.error && <p class="pc-error">{m.error}</p>}
      </div>
      {m.products && m.products.length > 0 && <ProductCards products={m.products} />}
      {sources.length > 0 && (
        <div class="pc-sources">
          <p class="pc-sources-title">Sources</p>
          <ol>
            {sources.map((s) => (
              <li key={s.n} value={s.n}>
                {s.url && /^https?:\/\//i.test(s.url) ? (
                  <a href={s.url} target="_blank" rel="noopener noreferrer nofollow">
                    {s.title || s.url}
                  </a>
                ) : (
                  <span class="pc-source-title">{s.title}</span>
                )}
                {s.snippet && <span class="pc-snippet">{s.snippet}</span>}
              </li>
            ))}
          </ol>
        </div>
      )}
      {m.role === "bot" && m.id && props.canAct && <Actions {...props} />}
    </div>
  );
}

function Actions({
  m,
  api,
  auth,
  onFeedback,
  onAnnounce,
}: {
  m: Msg;
  api: string;
  auth: VisitorAuth;
  onFeedback: (m: Msg, v: 1 | -1) => void;
  onAnnounce: (s: string) => void;
}) {
  const [reporting, setReporting] = useState(false);
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const id = `pc-report-${m.key}`;

  useEffect(() => {
    if (reporting) areaRef.current?.focus();
  }, [reporting]);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!comment.trim()) return setError("Tell us what was wrong.");
    setSending(true);
    try {
      const r = await postJson<{ message: string }>(`${api}/bug-reports`, { ...auth, messageId: m.id, comment: comment.trim() });
      setDone(r.message);
      onAnnounce(r.message);
      setReporting(false);
    } catch (err) {
      const f = failure(err);
      setError(f.fields?.comment ?? f.message);
    } finally {
      setSending(false);
    }
  };

  return (
    <div class="pc-actions">
      <div class="pc-action-row">
        <button type="button" class="pc-icon-btn pc-thumb" aria-label="Helpful" aria-pressed={m.feedback === 1} onClick={() => onFeedback(m, 1)}>
          <svg viewBox="0 0 24 24" aria-hidden="true" width="16" height="16">
            <path d="M7 11v9H4v-9h3zm2 9h8.2a2 2 0 0 0 2-1.6l1.2-6A2 2 0 0 0 18.4 10H14V6a2 2 0 0 0-2-2l-3 7v9z" fill="currentColor" />
          </svg>
        </button>
        <button type="button" class="pc-icon-btn pc-thumb" aria-label="Not helpful" aria-pressed={m.feedback === -1} onClick={() => onFeedback(m, -1)}>
          <svg viewBox="0 0 24 24" aria-hidden="true" width="16" height="16">
            <path d="M17 13V4h3v9h-3zm-2-9H6.8a2 2 0 0 0-2 1.6l-1.2 6A2 2 0 0 0 5.6 14H10v4a2 2 0 0 0 2 2l3-7V4z" fill="currentColor" />
          </svg>
        </button>
        {!done && !reporting && (
          <button type="button" class="pc-link-btn" onClick={() => setReporting(true)}>
            Report a problem
          </button>
        )}
      </div>
      {done && <p class="pc-note-inline">{done}</p>}
      {reporting && (
        <form class="pc-report" onSubmit={submit} noValidate>
          <label for={id}>What was wrong?</label>
          <textarea
            id={id}
            ref={areaRef}
            rows={2}
            maxLength={1000}
            value={comment}
            onInput={(e) => (setComment((e.target as HTMLTextAreaElement).value), setError(null))}
            aria-invalid={error ? "true" : undefined}
            aria-describedby={error ? `${id}-err` : undefined}
          />
          {error && (
            <p class="pc-field-error" id={`${id}-err`}>
              {error}
            </p>
          )}
          <div class="pc-form-row">
            <button type="submit" class="pc-btn pc-btn-small" disabled={sending}>
              Send report
            </button>
            <button type="button" class="pc-link-btn" onClick={() => (setReporting(false), setError(null))}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
