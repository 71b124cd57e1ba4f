import { onFirstUse } from "../../shared/on-first-use.ts";

// marked and sanitize-html load with the first comment shown, not at start (issue 12, idle memory).
const markdown = onFirstUse(() => require("./comment-markdown.ts") as typeof import("./comment-markdown.ts"));

/** A comment's Markdown as the safe HTML the workspace shows (`bodyHtml`). */
export const commentHtml = (body: string): string => markdown().renderCommentMarkdown(body);
