import { defineConfig } from 'vitest/config';
import suite from './vitest.config.js';

// `npm run test:unit`: the tests beside the code in src/ only. They open no database, start no
// process and listen on no port, so the suite's database set-up is not needed.
export default defineConfig({
  test: { ...suite.test, include: ['src/**/*.test.ts'], globalSetup: [] },
});
