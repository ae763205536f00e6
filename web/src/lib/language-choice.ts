import { browserLanguage, isLanguage, language, setLanguage } from './i18n.js';
import { settings } from './settings.js';

/**
 * Shows the language picked in the settings, else the browser's best match: before the
 * first render, then whenever the settings change (the picker, or another tab's).
 */
export function startLanguage(): Promise<void> {
  const wanted = (): ReturnType<typeof browserLanguage> => {
    const picked = settings.value.language;
    return picked && isLanguage(picked) ? picked : browserLanguage();
  };
  settings.subscribe(() => {
    if (wanted() !== language.value.language) void setLanguage(wanted());
  });
  return setLanguage(wanted());
}
