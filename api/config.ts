/**
 * `policyfuzz/config`: the project config (policyfuzz.config.json or .ts), typed. A .ts config
 * can `export default defineConfig({...})` and get completion for every key.
 */
import type { z } from 'zod';
import { ConfigSchema, loadConfig, parseConfig, findConfig, CONFIG_FILE_NAMES, type PolicyfuzzConfig } from '../engine/config/config-file.ts';

export type ConfigInput = z.input<typeof ConfigSchema>;

export function defineConfig(config: ConfigInput): ConfigInput {
  return config;
}

export { ConfigSchema, loadConfig, parseConfig, findConfig, CONFIG_FILE_NAMES, type PolicyfuzzConfig };
