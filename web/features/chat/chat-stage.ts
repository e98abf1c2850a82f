/** Spec 001 §4: the widget's states. Closed is minimized after the window was shown (its conversation is kept). */
export type ChatStage = 'minimized' | 'opening' | 'open' | 'closing' | 'closed';
