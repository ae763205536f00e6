import { splitTags } from './emoji.js';
import type { Message } from './message.js';
import { settings } from './settings.js';
import { Store } from './store.js';

/** Whether the browser may show notifications; asking needs a click (browsers refuse it otherwise). */
export function notificationsAllowed(): boolean {
  return 'Notification' in window && Notification.permission === 'granted';
}

export async function askForNotifications(): Promise<boolean> {
  if (!('Notification' in window)) return false;
  return (await Notification.requestPermission()) === 'granted';
}

/** The latest live message in words, for the page's live region: what screen readers announce. */
export const announcement = new Store<string>('');

/**
 * A browser notification for a live message (titled as ntfy's: emojis, then the title or the
 * topic), a chime, and the announcement.
 */
export function notify(message: Message, open: () => void): void {
  if (settings.value.sound) chime();
  const { emojis } = splitTags(message.tags);
  const title = [...emojis, message.title ?? message.topic].join(' ');
  announcement.set(`New notification on ${message.topic}: ${message.title ?? ''} ${message.message ?? ''}`.replace(/\s+/g, ' ').trim());
  if (!notificationsAllowed()) return;
  const notification = new Notification(title, { body: message.message ?? '', tag: message.id });
  notification.onclick = () => {
    window.focus();
    if (message.click) window.open(message.click, '_blank', 'noopener');
    else open();
  };
}

let audio: AudioContext | undefined;

/** Two short tones from WebAudio: no sound file to load. */
function chime(): void {
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    for (const [i, frequency] of [880, 1320].entries()) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.001, now + i * 0.12 + 0.3);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(now + i * 0.12);
      oscillator.stop(now + i * 0.12 + 0.3);
    }
  } catch {
    // No audio output (or autoplay refused before any click): stay silent.
  }
}
