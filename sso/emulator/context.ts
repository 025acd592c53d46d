import type { SsoConfig } from '../config.ts';
import type { SsoSettings } from '../model/settings.ts';
import type { EmulatorStore } from './store.ts';

/** What the routes of one running emulator share. */
export interface EmulatorContext {
  readonly config: SsoConfig;
  /** The settings the emulator acts on: `config.settings`, unless a fault overrides some (health reports the configured ones). */
  readonly settings: SsoSettings;
  readonly store: EmulatorStore;
  /** One-click buttons for the configured users on the login page. */
  readonly presetUsers: boolean;
  /** Username logged in without a form when a browser without a session opens /login. */
  readonly autoLogin: string | undefined;
}
