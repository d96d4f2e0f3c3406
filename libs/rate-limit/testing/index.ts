export * from './window-store.contract';
