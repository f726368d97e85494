'use client';
// Ctrl/Cmd+S saves and Ctrl/Cmd+Enter runs from anywhere on the page (Monaco handles its own focus).
import { useEffect, useEffectEvent } from 'react';
import { shortcutOf } from '../studio-logic';

export function useShortcuts(actions: { save(): void; run(): void }): void {
  const onAction = useEffectEvent((action: 'save' | 'run') => (action === 'save' ? actions.save() : actions.run()));
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = shortcutOf(e);
      if (!action) return;
      e.preventDefault();
      onAction(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
