// Any other /studio/… address (an unknown tool, a deeper path): the shared not-found screen.
export function loader() {
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export default function UnknownStudioTool() {
  return null;
}
