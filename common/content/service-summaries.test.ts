import { describe, expect, it } from 'vitest';
import { serviceSummaries } from '#common/content/service-summaries.ts';
import { services } from '#common/content/services.ts';

describe('the service summaries', () => {
  it('are the services of services.ts, word for word and in order', () => {
    expect(serviceSummaries).toEqual(services);
  });
});
