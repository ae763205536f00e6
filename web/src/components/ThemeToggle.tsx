import { useEffect } from 'preact/hooks';
import { settings } from '../lib/settings.js';
import { useStore } from '../lib/store.js';
import { t } from '../lib/i18n.js';

/** Light or dark: the system's (prefers-color-scheme) until the user picks one. The CSS reads data-theme. */
export function ThemeToggle() {
  const { theme } = useStore(settings);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
  const dark = theme === 'dark' || (theme === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  return (
    <button type="button" class="icon" aria-label={t(dark ? 'theme.toLight' : 'theme.toDark')} title={t(dark ? 'theme.toLight' : 'theme.toDark')} onClick={() => settings.update((s) => ({ ...s, theme: dark ? 'light' : 'dark' }))}>
      {dark ? '☀' : '☾'}
    </button>
  );
}
