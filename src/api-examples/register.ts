import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { DocumentExamples } from '../http/openapi/openapi.js';
import { operationExamples } from './catalogue.js';
import { DemoPartner } from './demo-partner.js';
import { writeExamples } from './document.js';
import { ApiExampleShowcase } from './showcase.js';
import { FIXED_EXAMPLE_VALUES } from './values.js';

/**
 * The request examples of /docs. With demo data (staging) each read of the document names demo
 * objects that exist (showcase.ts), so "Try it out" succeeds as filled in; if they cannot be made
 * (the demo partner missing), the stable examples are served and the reason logged once.
 */
export function apiExamples(app: FastifyInstance, context: AppContext): DocumentExamples {
  const fixed: DocumentExamples['fixed'] = (document) =>
    writeExamples(document, operationExamples(FIXED_EXAMPLE_VALUES));
  if (!context.config.demoData) return { fixed };
  const partner = new DemoPartner(app, FIXED_EXAMPLE_VALUES.login, context.config.basePath);
  // Loopback is a webhook address staging accepts; nothing listens there, so deliveries fail and are retried.
  const showcase = new ApiExampleShowcase(partner, context.clock, 'http://127.0.0.1:9/demo-webhooks');
  let warned = false;
  return {
    fixed,
    async live(document) {
      try {
        return writeExamples(document, operationExamples(await showcase.current()));
      } catch (error) {
        if (!warned)
          app.log.warn({ err: error }, 'the demo objects of /docs could not be made; stable examples served');
        warned = true;
        return document;
      }
    },
  };
}
