import './types.ts';
