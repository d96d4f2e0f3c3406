export * from './in-memory-api-key.store';
