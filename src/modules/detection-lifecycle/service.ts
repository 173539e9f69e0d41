// The detection lifecycle's three sub-domains (assets, validations, infrastructure changes) and its dashboard.
export { LIFECYCLE_PAGE } from './inputs.ts';
export * from './assets.ts';
export * from './validations.ts';
export * from './changes.ts';
export * from './dashboard.ts';
