import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { ChatbotHomeScreen } from "~/components/chatbot/chatbot-home-screen";
import { notFound, requireChatbot } from "~/.server/auth/guards";
import { findConversations } from "~/.server/chat/conversation-list";
import { getTranscript, numberedSources } from "~/.server/chat/conversations";
import { getTranscriptAnnotations } from "~/.server/chat/transcript-annotations";
import { getSetupProgress } from "~/.server/chatbots/setup-progress";
import { parseConversationListQuery } from "~/lib/schemas/conversation-list";
import { inboxLists } from "~/.server/inbox/inbox-list";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.chatbot.name} · ${data.orgName} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { user, org, chatbot, role } = await requireChatbot(ctx, request, params, "chatbot:view");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const search = new URL(request.url).searchParams;
  const conversationId = search.get("c");
  // The list's state is the URL query (search, filters, page position): see conversationListSearch.
  const query = parseConversationListQuery(search);
  const [page, transcript, setup, inbox] = await Promise.all([
    findConversations(ctx, ref, query.params),
    conversationId ? getTranscript(ctx, ref, conversationId) : Promise.resolve(null),
    getSetupProgress(ctx, { orgId: org.id, chatbot, role }),
    // The live inbox (ADR 025): every member works it ("inbox:work").
    inboxLists(ctx, ref, user.id),
  ]);
  // A conversation id of another chatbot or organisation reveals nothing.
  if (conversationId && !transcript) notFound();
  const annotations = transcript ? await getTranscriptAnnotations(ctx, ref, transcript.conversation) : null;
  return {
    orgName: org.name,
    orgId: org.id,
    chatbot: { id: chatbot.id, name: chatbot.name, visibility: chatbot.visibility },
    setup,
    me: { id: user.id, name: user.name },
    inbox,
    list: {
      q: search.get("q") ?? "",
      filters: query.params.filters,
      error: query.error,
      rows: page.rows,
      total: page.total,
      searchCapped: page.searchCapped,
      older: page.older,
      newer: page.newer,
      at: { older: query.params.older, newer: query.params.newer },
    },
    transcript: transcript
      ? {
          conversation: {
            id: transcript.conversation.id,
            visitorId: transcript.conversation.visitorId,
            channel: transcript.conversation.channel,
            status: transcript.conversation.status,
            verified: transcript.conversation.verified,
            rating: transcript.conversation.rating,
            createdAt: transcript.conversation.createdAt,
          },
          leads: annotations?.leads ?? [],
          bugReports: annotations?.bugReports ?? [],
          messages: transcript.messages.map((m) => ({
            id: m.id,
            role: m.role,
            content: m.content,
            createdAt: m.createdAt,
            answered: m.answered,
            model: m.model,
            latencyMs: m.latencyMs,
            feedback: m.feedback,
            sources: numberedSources(m.sources),
          })),
        }
      : null,
  };
}

// The screen: ~/components/chatbot/chatbot-home-screen.tsx.
export default function ChatbotHome() {
  const data = useLoaderData<typeof loader>();
  return <ChatbotHomeScreen data={data} />;
}
