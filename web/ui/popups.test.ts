import { describe, expect, it, vi } from 'vitest';
import { closeAllPopups, registerPopup } from '#web/ui/popups.ts';

describe('the popup registry', () => {
  it('closes every registered popup, and none once removed', () => {
    const first = vi.fn();
    const second = vi.fn();
    const removeFirst = registerPopup(first);
    const removeSecond = registerPopup(second);
    closeAllPopups();
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    removeFirst();
    removeSecond();
    closeAllPopups();
    expect(first).toHaveBeenCalledTimes(1);
  });
});
