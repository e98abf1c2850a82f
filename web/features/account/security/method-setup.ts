/*
 * The steps of setting up one two-factor method (spec 000 §4): not set up (or verified), then entering the value
 * (the email address or phone number; for the App, asking for its QR code), then entering the one-time code, then
 * verified, which shows the Added date and can be redone. A pure reducer, so the steps are tested without a page.
 */

/** Where one card's setup is. `target` is what the code was sent to (the address or number; for the App, the
 * secret the QR code carries), kept so the code step can say it and the resend can reuse it. */
export type SetupState =
  { step: 'idle' } | { step: 'value' } | { step: 'code'; target: string } | { step: 'verified' };

export type SetupEvent =
  /** Set up (or redo): start entering the value. */
  | { type: 'start' }
  /** The code was sent (or the QR code arrived): enter the code. */
  | { type: 'sent'; target: string }
  /** Go back from the code to change the value. */
  | { type: 'change' }
  /** The server accepted the code. */
  | { type: 'verified' }
  /** Leave the setup; the card shows what the server has. */
  | { type: 'cancel' };

export const initialSetup: SetupState = { step: 'idle' };

/** The next step; an event that does not belong to the current step changes nothing. */
export function setupReducer(state: SetupState, event: SetupEvent): SetupState {
  switch (event.type) {
    case 'start':
      return state.step === 'idle' || state.step === 'verified' ? { step: 'value' } : state;
    case 'sent':
      // A resend from the code step sends again to the same or a new target.
      return state.step === 'value' || state.step === 'code' ? { step: 'code', target: event.target } : state;
    case 'change':
      return state.step === 'code' ? { step: 'value' } : state;
    case 'verified':
      return state.step === 'code' ? { step: 'verified' } : state;
    case 'cancel':
      return state.step === 'value' || state.step === 'code' ? { step: 'idle' } : state;
  }
}

/** Whether the setup is open (the card shows the value or code step instead of its summary). */
export function isSettingUp(state: SetupState): boolean {
  return state.step === 'value' || state.step === 'code';
}
