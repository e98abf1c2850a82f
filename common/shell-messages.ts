/**
 * The texts every page's shell needs (the start-up line, the banner, the HTTP client's fallbacks, the chat launcher's
 * name, the pending-changes warning), apart from common/messages.ts so a first visit does not load every screen's
 * words (decision 0033). common/messages.ts re-exports them: import from either.
 */

/** Shell, routes and error pages. */
export const shellMessages = {
  starting: 'Starting Application...',
  notFound: 'This page was not found.',
  unauthorized: 'You are not authorized to see that page.',
  underDevelopment: 'This site is under development and some features may not be available.',
  productsComingSoon: 'PRODUCTS COMING SOON',
} as const;

/** Transport fallbacks: the original swapped GET and POST; ours uses the correct one (spec README). */
export const transportMessages = {
  GET: 'GET request failed.',
  POST: 'POST request failed.',
  PUT: 'PUT request failed.',
  DELETE: 'DELETE request failed.',
} as const;

/** Administration of users and roles. */
export const adminMessages = {
  rolesFailed: 'Failed to get roles.',
  usersFailed: 'Failed to get users.',
  cannotSwitchPages: 'Cannot switch pages with pending changes.',
  cannotHavePendingChanges: 'Cannot have pending changes.',
  duplicateLinks: 'Some links are duplicates.',
  somethingWentWrongTryAgain: 'Something went wrong... please try again.',
  // The success toasts the spec names without their words (000 §8), in the spec's style.
  roleUpdated: 'Successfully updated role.',
  roleDeleted: 'Successfully deleted role.',
  linkRemoved: 'Successfully removed link.',
  permissionRemoved: 'Successfully removed permission.',
  userRoleRemoved: 'Successfully removed user from role.',
} as const;

/** Public site: contact and chat. */
export const siteMessages = {
  contactFailed: 'Failed to Contact Us... Please try again.',
  subjectMax: 'Subject cannot be more than 50 characters.',
  messageMax: 'Message cannot be more than 1000 characters.',
  chatTitle: 'Chat with Titan',
  chatStartFailed: 'Failed to start the chat.',
  chatAddFailed: 'Failed to add message to the chat.',
} as const;
