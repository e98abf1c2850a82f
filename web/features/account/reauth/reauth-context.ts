import { createContext } from 'react';

/** What the re-authentication provider offers its page: ask the person to confirm it is them. */
export interface ReauthPrompt {
  /** Opens the confirmation (or joins the one already open); true once the server accepted the proof, false when
   * the person cancelled. */
  confirm(): Promise<boolean>;
}

export const ReauthContext = createContext<ReauthPrompt | null>(null);
