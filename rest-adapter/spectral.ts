import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';

/** Spectral's OpenAPI ruleset (`spectral:oas`, its recommended rules) over a document; severity 0 is an error, 1 a warning. */
export async function lintOpenApi(document: unknown) {
  const spectral = new spectralCore.Spectral();
  spectral.setRuleset({ extends: [[spectralRulesets.oas as never, 'recommended']] });
  return spectral.run(new spectralCore.Document(JSON.stringify(document, null, 2), spectralParsers.Json));
}
