import type { ChatSource } from '#common/contract/chat.ts';

/*
 * What every part of Titan (issue 16) produces for one reply: its plain text (links written as Markdown
 * `[Title](/path)`), where it came from, and the site pages it was drawn from. The chat service stores it as the
 * assistant's message.
 */

/** One reply of Titan before it is stored. */
export interface Answer {
  /** Plain text; links are Markdown `[Title](/path)` to site paths or https URLs, never HTML. */
  text: string;
  /** The introduction, the built-in retrieval answer, the built-in reply to a greeting or thanks (not a question,
   * so never counted as unanswered), a configured language model, or the canned limit reply. */
  origin: 'introduction' | 'built-in' | 'small-talk' | 'model' | 'limit';
  /** The pages the reply was drawn from, one per path; empty when Titan did not know. */
  sources: ChatSource[];
}
