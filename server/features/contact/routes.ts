import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  answerInput,
  archiveInput,
  contactInput,
  contactMessage,
  contactMessagesQuery,
  contactResult,
  messageIdParams,
  pagedContactMessages,
} from '#common/contract/contact.ts';
import { envelope } from '#common/contract/envelope.ts';
import { accountApiMessages } from '#common/messages.ts';
import { ApiError, success } from '#server/plugins/error-envelope.ts';
import { requireAdmin, requireSignedIn } from '#server/plugins/session.ts';
import {
  answerMessage,
  archiveMessage,
  pageOfMessages,
  sendContact,
  type Actor,
  type ContactDeps,
} from './contact-service.ts';

/** Contact messages one account may send a minute. */
export const CONTACT_PER_MINUTE = 5;

function actorOf(request: FastifyRequest): Actor {
  if (!request.account) throw new ApiError(401, accountApiMessages.signInRequired);
  return { userId: request.account.userId, address: request.ip };
}

/** The contact form (signed in) and the administrators' inbox of its messages. */
export function contactRoutes(deps: ContactDeps, perMinute = CONTACT_PER_MINUTE): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/contact',
      {
        preValidation: requireSignedIn,
        config: {
          rateLimit: {
            max: perMinute,
            timeWindow: 60_000,
            // Per account (the session hook has run): one person cannot flood the team's mailbox.
            keyGenerator: (request: FastifyRequest) =>
              request.account ? `contact:user:${request.account.userId}` : `contact:ip:${request.ip}`,
          },
        },
        schema: {
          tags: ['contact'],
          summary: 'Send a message to the team; From is the signed-in account',
          body: contactInput,
          response: { 200: envelope(contactResult) },
        },
      },
      async (request) => {
        const { result, message } = await sendContact(deps, actorOf(request), request.body);
        return success(result, message);
      },
    );

    await app.register(inboxRoutes(deps));
  };
}

/** The administrators' inbox: list, answer, archive. */
function inboxRoutes(deps: ContactDeps): FastifyPluginAsyncZod {
  return async (admin) => {
    admin.addHook('preValidation', requireAdmin);
    const tags = ['admin'];
    admin.get(
      '/api/admin/messages',
      {
        schema: {
          tags,
          summary: 'Contact messages, newest first; archived=true for the archive',
          querystring: contactMessagesQuery,
          response: { 200: envelope(pagedContactMessages) },
        },
      },
      async (request) => success(await pageOfMessages(deps.store, request.query)),
    );
    admin.post(
      '/api/admin/messages/:id/answer',
      {
        schema: {
          tags,
          summary: 'Answer a contact message by mail (stored even when the mail fails)',
          params: messageIdParams,
          body: answerInput,
          response: { 200: envelope(contactMessage) },
        },
      },
      async (request) => {
        const { result, message } = await answerMessage(
          deps,
          actorOf(request),
          request.params.id,
          request.body.answer,
        );
        return success(result, message);
      },
    );
    admin.post(
      '/api/admin/messages/:id/archive',
      {
        schema: {
          tags,
          summary: 'Archive a contact message, or bring it back to the inbox',
          params: messageIdParams,
          body: archiveInput,
          response: { 200: envelope(contactMessage) },
        },
      },
      async (request) => {
        const { result, message } = await archiveMessage(
          deps,
          actorOf(request),
          request.params.id,
          request.body.archived,
        );
        return success(result, message);
      },
    );
  };
}
